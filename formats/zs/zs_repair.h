// Salvages a damaged ZS file into a new one: every record of every data block that is intact
// (its CRC matches, it decodes, its records are in order after the previous block's) is copied,
// block by block, into a new file with the original's metadata and codec; the index is rebuilt.
// Where the chain of blocks breaks, the scan goes on at the next intact block, found through the
// input's index or by scanning forward (ZsBlockFinder), so every intact block is reached. Every
// other stretch is a loss, reported with its bytes and the key range it lay in; the records of
// blocks left out that still read as records go to a quarantine file beside the output
// (zs_repair_quarantine.h), never into it. A repair is complete only when the header is intact
// and the records kept hash to its data SHA-256. The output is validated before it gets its name.
#pragma once

#include <filesystem>

#include "formats/common/repair.h"

namespace strata::zs {

// Throws RepairError when the header cannot be read (no codec, no metadata to copy), when no
// record can be recovered, when `output` or its quarantine file exists, or when the output fails
// validation.
RepairReport repairZsFile(const std::filesystem::path& input, const std::filesystem::path& output,
                          const RepairOptions& options = {});

}  // namespace strata::zs
