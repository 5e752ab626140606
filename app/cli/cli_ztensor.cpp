// strata-cli zt: zTensor files.
#include <CLI/CLI.hpp>

#include "command_context.h"

namespace strata::cli {

void registerZtensorCommands(CLI::App& app, CommandContext& context) {
    CLI::App* group = app.add_subcommand("zt", "zTensor files");
    group->require_subcommand(1);
    (void)context;
}

}  // namespace strata::cli
