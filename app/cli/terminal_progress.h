// Progress of long strata-cli commands on stderr, shown only to a person watching a terminal.
#pragma once

#include "formats/common/validator.h"

namespace strata::cli {

// A callback that redraws "[ 42%] text" on stderr when the percentage moves (thread-safe), or
// an empty callback when stderr is not a terminal.
ProgressCallback terminalProgress();
// Erases the progress line (nothing when `progress` is empty).
void clearTerminalProgress(const ProgressCallback& progress);

}  // namespace strata::cli
