// strata-cli zds: ZDS datasets.
#include <CLI/CLI.hpp>

#include "command_context.h"

namespace strata::cli {

void registerZdsCommands(CLI::App& app, CommandContext& context) {
    CLI::App* group = app.add_subcommand("zds", "ZDS datasets");
    group->require_subcommand(1);
    (void)context;
}

}  // namespace strata::cli
