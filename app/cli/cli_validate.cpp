// strata-cli validate PATH [--json]: runs the format's validator and prints what it finds.
// Exit code: 0 no errors (warnings allowed), 1 errors, 2 cannot open or interrupted.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cctype>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <memory>
#include <mutex>
#include <string>

#include "cli_interrupt.h"
#include "command_context.h"
#include "formats/common/counted.h"
#include "formats/common/thread_cancel.h"
#include "formats/registry/format_registry.h"
#include "input_source.h"
#include "json_output.h"
#include "terminal_progress.h"

namespace strata::cli {

namespace {

// "ERROR ZS-HEADER-CRC file.zs@16+120: message [header]"
std::string diagnosticLine(const Diagnostic& d) {
    std::string severity(severityName(d.severity));
    for (char& c : severity) {
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    std::string line = severity + ' ' + d.code + ' ' + d.fileName();
    if (!d.regions.empty() && d.regions.front().valid()) {
        line += '@' + std::to_string(d.regions.front().offset) + '+' +
                std::to_string(d.regions.front().length);
    }
    line += ": " + d.message;
    if (!d.nodePath.empty()) {
        line += " [" + d.nodePath + ']';
    }
    return line;
}

struct Counts {
    std::size_t errors = 0;
    std::size_t warnings = 0;
    std::size_t infos = 0;

    void add(Severity severity) {
        (severity == Severity::Error ? errors : severity == Severity::Warning ? warnings : infos)++;
    }
};

struct ValidateOptions {
    std::string path;
    bool json = false;
    unsigned threads = 0;
    std::size_t maxPerCode = ValidationOptions{}.maxPerCode;
};

int runValidate(const ValidateOptions& request) {
    const std::string& path = request.path;
    const bool json = request.json;
    const auto document = openDocument(path);
    const std::string format(formatName(document->format));
    std::unique_ptr<Validator> validator =
        document->makeValidator ? document->makeValidator() : nullptr;

    Json out = Json::object();
    out["format"] = format;
    out["path"] = path;
    Json diagnostics = Json::array();
    Counts counts;
    bool completed = true;
    if (validator == nullptr) {
        if (json) {
            out["note"] = "no validator for " + format + " yet";
        } else {
            std::cout << "INFO no validator for " << format << " yet\n";
        }
    } else {
        ValidationOptions options;
        options.cancel = &commandInterrupt();
        options.progress = terminalProgress();
        options.threads = request.threads;
        options.maxPerCode = request.maxPerCode;
        CallbackSink sink([&](Diagnostic d) {
            counts.add(d.severity);
            if (json) {
                diagnostics.push_back(diagnosticJson(d));
            } else {
                clearTerminalProgress(options.progress);
                std::cout << diagnosticLine(d) << '\n';
            }
        });
        {
            const InterruptScope interruptible;
            completed = validator->run(sink, options) == JobOutcome::Completed;
        }
        clearTerminalProgress(options.progress);
    }
    if (json) {
        out["diagnostics"] = std::move(diagnostics);
        out["summary"] = {
            {"errors", counts.errors}, {"warnings", counts.warnings}, {"infos", counts.infos}};
        if (!completed) {
            out["interrupted"] = true;
        }
        printJson(out);
    } else {
        std::cout << format << ' ' << path << ": " << counted(counts.errors, "error") << ", "
                  << counted(counts.warnings, "warning") << ", " << counted(counts.infos, "info")
                  << (completed ? "" : " (interrupted)") << '\n';
    }
    if (!completed) {
        return kExitFailure;
    }
    return counts.errors > 0 ? kExitErrors : kExitOk;
}

// Run when the command line names the command (defineCommand).
void fillValidateCommand(CLI::App* command, CommandContext& context) {
    auto options = std::make_shared<ValidateOptions>();
    command->add_option("PATH", options->path, "File or folder")
        ->transform(inputArgument)
        ->required();
    command->add_flag("--json", options->json, "Print one JSON object");
    command->add_option("--threads", options->threads, "Worker threads (0: one per core)");
    command->add_option("--max-per-code", options->maxPerCode,
                        "Diagnostics reported per code before summarising the rest");
    command->callback(
        [&context, options] { runGuarded(context, [&] { return runValidate(*options); }); });
}

}  // namespace

void registerValidateCommand(CLI::App& app, CommandContext& context) {
    defineCommand(app, "validate",
                  "Check a file or folder against its format's rules (exit 1 on errors)", context,
                  &fillValidateCommand);
}

}  // namespace strata::cli
