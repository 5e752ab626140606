// strata-cli shardlake: Shardlake storage roots and shards.
#include <CLI/CLI.hpp>

#include "command_context.h"

namespace strata::cli {

void registerShardlakeCommands(CLI::App& app, CommandContext& context) {
    CLI::App* group = app.add_subcommand("shardlake", "Shardlake storage roots and shards");
    group->require_subcommand(1);
    (void)context;
}

}  // namespace strata::cli
