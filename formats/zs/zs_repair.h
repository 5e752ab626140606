// Salvages a damaged ZS file into a new one: every record of every data block that is intact
// (its CRC matches, it decodes, its records are in order after the previous block's) is copied,
// block by block, into a new file with the original's metadata and codec; the index is rebuilt
// from the blocks found by scanning the file from the first block, so a damaged or missing index
// loses nothing. A block whose CRC fails but which still decodes to records in order is kept
// (and said so). Every other block is a loss, reported with its bytes and the key range it lay
// in (between the last record before it and the first after it); a truncated file keeps every
// complete block before the cut. The output is validated before it gets its name.
#pragma once

#include <filesystem>

#include "formats/common/repair.h"

namespace strata::zs {

// Throws RepairError when the header cannot be read (no codec, no metadata to copy), when no
// record can be recovered, when `output` exists, or when the output fails validation.
RepairReport repairZsFile(const std::filesystem::path& input, const std::filesystem::path& output,
                          const RepairOptions& options = {});

}  // namespace strata::zs
