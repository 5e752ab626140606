#include "cli_app.h"

#include <CLI/CLI.hpp>

#include <stdexcept>

#include "input_source.h"

namespace strata::cli {
namespace {

const FormatRegistry* runFormats = nullptr;

// `--terminator=` means an empty value (as `zs dump --terminator=` does), but the option parser
// would take the next argument as the value instead. Splitting it into `--terminator` and ""
// passes the empty string.
std::vector<std::string> splitEmptyLongOptions(int argc, char** argv) {
    std::vector<std::string> args;
    bool optionsEnded = false;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        optionsEnded = optionsEnded || arg == "--";
        if (!optionsEnded && arg.size() > 3 && arg.starts_with("--") && arg.back() == '=') {
            args.push_back(arg.substr(0, arg.size() - 1));
            args.emplace_back();
        } else {
            args.push_back(arg);
        }
    }
    // CLI11 takes a vector of arguments last first.
    return {args.rbegin(), args.rend()};
}

// "ZS, zTensor and ZDS": the registered formats in registration order (raw binary, the
// fallback for every other file, is not one to name).
std::string formatNames(const FormatRegistry& formats) {
    std::vector<std::string_view> names;
    for (const FormatHandler* handler : formats.handlers()) {
        if (handler->id() != kRawBinaryFormat) {
            names.push_back(handler->id().name());
        }
    }
    std::string text;
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (i > 0) {
            text += i + 1 == names.size() ? " and " : ", ";
        }
        text += names[i];
    }
    return text;
}

}  // namespace

const FormatRegistry& cliFormats() {
    if (runFormats == nullptr) {
        throw std::logic_error("strata-cli: no formats registered for this run");
    }
    return *runFormats;
}

int runCli(int argc, char** argv, const CliSetup& setup) {
    runFormats = setup.formats;
    CLI::App app{"Inspect and validate " + formatNames(*setup.formats) + " files", "strata-cli"};
    app.set_version_flag("--version", "strata-cli " + setup.version);
    app.require_subcommand(1);
    app.footer(
        "Exit codes: 0 success (warnings allowed), 1 the input has errors, 2 cannot open the "
        "input or a usage error.");

    CommandContext context;
    registerRemoteOptions(app);
    registerDetectCommand(app, context);
    registerInfoCommand(app, context);
    registerValidateCommand(app, context);
    registerDiffCommand(app, context);
    registerLeftoversCommand(app, context);
    registerRepairCommand(app, context);
    registerScanCommand(app, context);
    for (const RegisterCommands add : setup.formatCommands) {
        add(app, context);
    }

    try {
        app.parse(splitEmptyLongOptions(argc, argv));
    } catch (const CLI::ParseError& error) {
        // Help and --version exit 0; every usage error exits 2.
        const int code = app.exit(error);
        return code == 0 ? kExitOk : kExitFailure;
    }
    return context.exitCode;
}

}  // namespace strata::cli
