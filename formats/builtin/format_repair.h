// Picks the repair planner for a damaged file or folder by its detected format
// (formats/common/repair.h); strata-cli repair and the GUI's Tools > Repair… share it.
#pragma once

#include <filesystem>
#include <string>

#include "formats/common/repair.h"
#include "formats/registry/format_handler.h"

namespace strata {

// Which formats have a repair.
bool canRepair(FormatId format);

// Detects `input`'s format and repairs it into `output` (see the format's planner). Throws
// RepairError when the format has no repair yet (naming it) or the planner gives up.
RepairReport repairPath(const std::filesystem::path& input, const std::filesystem::path& output,
                        const RepairOptions& options = {});

// Why a format cannot be repaired, naming those that can: "repairing raw binary is not
// supported yet (ZS, ZDS, ... can be repaired)".
std::string repairUnsupportedText(FormatId format);

}  // namespace strata
