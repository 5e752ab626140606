// `strata-cli scan --merge A.jsonl B.jsonl ...`: the JSON Lines outputs of several scans (the
// shards of one scan, run on several machines) read back as one stream of results.
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <vector>

#include "scan_result.h"

namespace strata::scan {

struct MergeStats {
    std::size_t files = 0;
    std::size_t entries = 0;     // results passed on
    std::size_t duplicates = 0;  // results of a location already passed on (overlapping inputs)
    std::size_t malformed = 0;   // lines that are not JSON objects or not results (too long ones)
};

// Calls `each` for every result in `files`, in their order, the first result of each location
// only; summary lines and other objects are passed over. Memory grows with the number of
// distinct locations only (to recognise duplicates). Throws SourceError when a file cannot be
// read.
MergeStats mergeScanOutputs(const std::vector<std::filesystem::path>& files,
                            const std::function<void(const ScanResult&)>& each);

}  // namespace strata::scan
