// The quarantine file of a ZDS repair: each damaged line of data.jsonl and each damaged file (a
// docs/ file, or any file that fails its checksum), one JSON object per line, with where it
// was, why it was set aside and its raw bytes (see docs/formats-zds.md, "Repair").
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "formats/common/region.h"

namespace strata::zds {

// A line (or a whole file) moved to the quarantine file.
struct ZdsQuarantined {
    std::string collection;  // "" for a file of the dataset itself (zds.json)
    std::string file;        // relative to the dataset root
    std::uint64_t line = 0;  // 1-based line of data.jsonl; 0 for a whole file
    Region region;
    std::string reason;
};

// Writes every entry, each with the bytes its region names, through an AtomicFile.
void writeZdsQuarantine(const std::filesystem::path& path,
                        const std::vector<ZdsQuarantined>& quarantine);

// "quarantined in PATH: N damaged lines and M damaged files".
std::string zdsQuarantineSummary(const std::vector<ZdsQuarantined>& quarantine,
                                 const std::filesystem::path& path);

}  // namespace strata::zds
