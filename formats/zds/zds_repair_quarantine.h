// The quarantine file of a ZDS repair: each damaged line of data.jsonl or docs/ file, one JSON
// object per line, with where it was, why it was set aside and its raw text (see
// docs/formats-zds.md, "Repair").
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "formats/common/region.h"

namespace strata {

// A line (or docs/ file) moved to the quarantine file.
struct ZdsQuarantined {
    std::string collection;
    std::string file;        // relative to the dataset root
    std::uint64_t line = 0;  // 1-based line of data.jsonl; 0 for a docs/ file
    Region region;
    std::string reason;
};

// Writes every entry, each with the bytes its region names, through an AtomicFile.
void writeZdsQuarantine(const std::filesystem::path& path,
                        const std::vector<ZdsQuarantined>& quarantine);

// "quarantined in PATH: N damaged lines and M damaged docs/ files".
std::string zdsQuarantineSummary(const std::vector<ZdsQuarantined>& quarantine,
                                 const std::filesystem::path& path);

}  // namespace strata
