// The commands the built-in formats add to strata-cli: the CLI's composition root, as
// formats/builtin/builtin_formats.h is for formats/. A new format's commands are one line here.
#pragma once

#include <vector>

#include "cli_app.h"

namespace strata::cli {

std::vector<RegisterCommands> builtinCommands();

}  // namespace strata::cli
