// Salvages a damaged ZDS dataset (folder, single collection folder or `.zds`) into a new one
// beside it. The documents kept are the live set (zds_live_set.h): with a readable index the
// documents it lists, so a deleted document never comes back; without one the last line of each
// `_id`, which the report says. A live document whose bytes are not one JSON object with a usable
// `_id` (a non-empty string ZDX can hold, valid UTF-8), or that no line holds, is a loss. Every
// line of data.jsonl that is not such an object goes into a quarantine file beside the output
// (`<output>.quarantine.jsonl`, one JSON line per quarantined line with its collection, file,
// line number, byte offset, length, reason and raw text), and is reported as a loss. Superseded
// and deleted lines are dropped (reported as actions). In a `.zds`, nothing of a member that
// fails its CRC-32 is recovered (zds_repair_checksums.h). Where the index is damaged, a line's
// own `_id` is preferred over an entry key that disagrees with it. The output is written by the
// ZDS writer (new index.bin, manifest.json and zds.json counts), validated, and only then given
// its name. A report without losses means readers find the same content in the output.
#pragma once

#include <filesystem>

#include "formats/common/repair.h"

namespace strata::zds {

// Where the quarantined lines of a repair into `output` go.
std::filesystem::path zdsQuarantinePath(const std::filesystem::path& output);

// Throws RepairError when the dataset cannot be opened, when it had documents and none could be
// recovered, when `output` or its quarantine file exists, or when the output fails validation.
RepairReport repairZdsDataset(const std::filesystem::path& input,
                              const std::filesystem::path& output,
                              const RepairOptions& options = {});

}  // namespace strata::zds
