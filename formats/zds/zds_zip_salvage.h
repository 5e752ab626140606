// Recovers the members of a `.zds` whose central directory cannot be read (a truncated or
// overwritten end of the archive): libzip needs the directory, so the archive is scanned for
// local file headers instead, each member's data is copied (STORE) or inflated (DEFLATE, zlib)
// into a folder, checked against its CRC where the header gives one (a mismatch is listed as
// untrusted), and written as far as it goes when the archive ends inside it. Memory stays bounded:
// data is streamed in chunks, and inflation stops at the size the header declares, or at
// kZdsMaxExpansion times the input left.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "formats/common/byte_source.h"
#include "formats/common/repair.h"
#include "zds_repair_checksums.h"

namespace strata::zds {

struct ZipSalvage {
    std::uint64_t members = 0;        // files written below the folder
    std::vector<RepairStep> actions;  // duplicates
    std::vector<RepairStep> losses;   // members cut short or unreadable, unsafe names
    // Members written below the folder whose bytes fail their CRC-32 or whose DEFLATE data is
    // corrupt: the repair must not recover their content (a member cut by the end of the
    // archive is not among them: its bytes up to the cut are as stored).
    ZdsUntrusted untrusted;
};

// Scans `archive` front to back and writes every member it can read below `dest` (which must
// exist). Member names that would leave `dest` are refused (a loss).
ZipSalvage salvageZipMembers(const ByteSource& archive, const std::filesystem::path& dest,
                             const CancelToken* cancel = nullptr);

}  // namespace strata::zds
