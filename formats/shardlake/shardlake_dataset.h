// The vectors of a dataset (`datasets/<v>/vectors.jsonl`): one JSON object per line with "id"
// and "data" (the ingest input's "vector" is accepted too). Line-aligned blocks of the mapped
// file are parsed on pool threads; lines are visited in file order on the calling thread.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "formats/common/region.h"
#include "shardlake_search.h"

namespace strata::shardlake {

struct DatasetLine {
    std::uint64_t lineNumber = 0;  // 1-based
    Region region;                 // the line without its newline
    std::optional<std::uint64_t> id;
    std::span<const float> values;  // valid only while the visitor runs
    bool hasValues = false;
    bool nonFinite = false;  // a value overflowed f32 (JSON has no NaN or Inf)
    std::string error;       // not JSON, or "id"/"data" missing or mistyped
};

// Calls `visit` for every non-blank line until it returns false. `threads` parse ahead of the
// visitor (0: one per core). A file read on demand is mapped for the call (mappedForScan);
// throws SourceError when it cannot be.
void forEachDatasetLine(const ByteSource& source,
                        const std::function<bool(const DatasetLine&)>& visit, unsigned threads = 0);

// Maps the pages under `text` (part of a mapped file) in one call instead of a page fault every
// few pages; a worker calls it for the block it is about to parse. Only a hint.
void prefault(std::string_view text);

// All vectors, for exact search and tests; stops at the first bad line and says why in `error`.
std::vector<DatasetVector> readDatasetVectors(const ByteSource& source, std::string* error);

}  // namespace strata::shardlake
