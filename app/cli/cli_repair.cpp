// strata-cli repair PATH --out NEW [--dry-run] [--json]: salvages what can be saved from a
// damaged file into a new one beside it (formats/common/repair.h), never in place and never over
// an existing path. Exit code: 0 the output holds everything, 1 data was lost (the report says
// what), 2 nothing could be recovered, the input cannot be read or the format has no repair yet.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <string>

#include "cli_app.h"
#include "cli_interrupt.h"
#include "command_context.h"
#include "formats/registry/format_registry.h"
#include "input_source.h"
#include "json_output.h"
#include "terminal_progress.h"

namespace strata::cli {

namespace {

struct RepairArgs {
    std::string input, output;
    bool dryRun = false;
    bool json = false;
    bool recomputeDigests = false;
    bool keepSuperseded = false;
};

Json stepJson(const RepairStep& step) {
    Json out = Json::object();
    out["description"] = step.description;
    if (step.bytes.valid()) {
        out["file"] = step.bytes.file;
        out["offset"] = step.bytes.offset;
        out["length"] = step.bytes.length;
    } else {
        out["file"] = nullptr;
        out["offset"] = nullptr;
        out["length"] = nullptr;
    }
    return out;
}

void print(const RepairArgs& args, const std::string& format, const RepairReport& report) {
    if (args.json) {
        Json out = Json::object();
        out["schema"] = "strata.repair/1";
        out["format"] = format;
        out["input"] = args.input;
        out["output"] = args.output;
        out["dry_run"] = report.dryRun;
        out["written"] = report.written;
        out["complete"] = report.complete();
        out["items"] = report.itemName;
        out["recovered"] = report.recovered;
        Json actions = Json::array(), losses = Json::array();
        for (const auto& a : report.actions) {
            actions.push_back(stepJson(a));
        }
        for (const auto& l : report.losses) {
            losses.push_back(stepJson(l));
        }
        out["actions"] = std::move(actions);
        out["losses"] = std::move(losses);
        printJson(out);
        return;
    }
    for (const auto& a : report.actions) {
        std::cout << "action  " << a.description << '\n';
    }
    for (const auto& l : report.losses) {
        std::cout << "lost    " << l.description << '\n';
    }
    std::cout << format << ' ' << args.input << ": " << report.recoveredText() << " recovered, "
              << report.lossesText()
              << (report.dryRun    ? " (dry run: nothing written)"
                  : report.written ? ", written to " + args.output
                                   : "")
              << '\n';
}

int runRepair(const RepairArgs& args) {
    for (const std::string& path : {args.input, args.output}) {
        if (isUrl(path)) {
            throw std::runtime_error("repair: " + path +
                                     " is a URL; repair reads and writes local files only: "
                                     "download it and repair the local copy");
        }
    }
    const Detection detection = cliFormats().detect(args.input);
    const std::string format(formatName(detection.format));
    RepairOptions options;
    options.dryRun = args.dryRun;
    options.recomputeDigests = args.recomputeDigests;
    options.keepSuperseded = args.keepSuperseded;
    options.progress = terminalProgress();
    options.cancel = &commandInterrupt();
    RepairReport report;
    try {
        const InterruptScope interruptible;
        report = cliFormats().repair(detection.format, args.input, args.output, options);
    } catch (const JobCancelled&) {
        clearTerminalProgress(options.progress);
        std::cerr << "strata-cli: repair interrupted; " << args.output << " was not written\n";
        return kExitFailure;
    } catch (const RepairError& e) {
        clearTerminalProgress(options.progress);
        std::cerr << "strata-cli: " << e.what() << '\n';
        return kExitFailure;
    }
    clearTerminalProgress(options.progress);
    print(args, format, report);
    return report.complete() ? kExitOk : kExitErrors;
}

// A repair choice's help: what it does in general, then in each registered format that offers
// it, in that format's own words.
std::string choiceHelp(const std::string& summary, RepairChoice choice) {
    std::string help = summary;
    for (const FormatHandler* handler : cliFormats().handlers()) {
        if (const std::string text = handler->repairChoiceText(choice); !text.empty()) {
            help += "\n  " + std::string(handler->id().name()) + ": " + text;
        }
    }
    return help;
}

// Run when the command line names the command (defineCommand).
void fillRepairCommand(CLI::App* command, CommandContext& context) {
    auto args = std::make_shared<RepairArgs>();
    command->add_option("path", args->input, "The damaged file or folder")
        ->transform(inputArgument)
        ->required();
    command->add_option("--out", args->output, "Where to write the repaired file (must not exist)")
        ->required();
    command->add_flag("--dry-run", args->dryRun,
                      "Report what would be saved and lost; write nothing");
    command->add_flag("--json", args->json, "Print the report as JSON (schema strata.repair/1)");
    command->add_flag("--recompute-digests", args->recomputeDigests,
                      choiceHelp("Keep what fails a digest check, with new digests",
                                 RepairChoice::RecomputeDigests));
    command->add_flag("--keep-superseded", args->keepSuperseded,
                      choiceHelp("Keep lines no live document uses instead of dropping them",
                                 RepairChoice::KeepSuperseded));
    command->callback(
        [&context, args] { runGuarded(context, [args] { return runRepair(*args); }); });
}

}  // namespace

void registerRepairCommand(CLI::App& app, CommandContext& context) {
    defineCommand(
        app, "repair",
        "Salvage what can be saved from a damaged file into a new one (exit 0 complete, 1 data "
        "lost, 2 nothing recovered or not supported)",
        context, &fillRepairCommand);
}

}  // namespace strata::cli
