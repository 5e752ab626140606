#include "builtin_commands.h"

namespace strata::cli {

std::vector<RegisterCommands> builtinCommands() {
    return {registerZsCommands, registerZtensorCommands, registerOzdfCommands,
            registerShardlakeCommands, registerZdsCommands};
}

}  // namespace strata::cli
