// strata-cli: headless inspection and validation of ZS, ZDS, Shardlake, OZDF and zTensor data.
#include <CLI/CLI.hpp>

#include "command_context.h"

int main(int argc, char** argv) {
    using namespace strata::cli;
    CLI::App app{"Inspect and validate ZS, ZDS, Shardlake, OZDF and zTensor files", "strata-cli"};
    app.set_version_flag("--version", "strata-cli " STRATA_VERSION);
    app.require_subcommand(1);
    app.footer(
        "Exit codes: 0 success (warnings allowed), 1 the input has errors, 2 cannot open the "
        "input or a usage error.");

    CommandContext context;
    registerDetectCommand(app, context);
    registerInfoCommand(app, context);
    registerValidateCommand(app, context);
    registerZsCommands(app, context);
    registerZtensorCommands(app, context);
    registerOzdfCommands(app, context);
    registerShardlakeCommands(app, context);
    registerZdsCommands(app, context);

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& error) {
        // Help and --version exit 0; every usage error exits 2.
        const int code = app.exit(error);
        return code == 0 ? kExitOk : kExitFailure;
    }
    return context.exitCode;
}
