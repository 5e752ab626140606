// strata-cli ozdf: OZDF documents and corpora.
#include <CLI/CLI.hpp>

#include "command_context.h"

namespace strata::cli {

void registerOzdfCommands(CLI::App& app, CommandContext& context) {
    CLI::App* group = app.add_subcommand("ozdf", "OZDF documents and corpora");
    group->require_subcommand(1);
    (void)context;
}

}  // namespace strata::cli
