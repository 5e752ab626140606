// Picks the repair planner for a damaged file or folder by its detected format
// (formats/common/repair.h); strata-cli repair and the GUI's Tools > Repair… share it.
#pragma once

#include <filesystem>

#include "format_handler.h"
#include "formats/common/repair.h"

namespace strata {

// Which formats have a repair.
bool canRepair(FormatId format);

// Detects `input`'s format and repairs it into `output` (see the format's planner). Throws
// RepairError when the format has no repair yet (naming it) or the planner gives up.
RepairReport repairPath(const std::filesystem::path& input, const std::filesystem::path& output,
                        const RepairOptions& options = {});

}  // namespace strata
