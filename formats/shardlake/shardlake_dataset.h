// The vectors of a dataset (`datasets/<v>/vectors.jsonl`): one JSON object per line with "id"
// and "data" (the ingest input's "vector" is accepted too). Lines are visited one at a time
// straight from the mapped file.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "formats/common/region.h"
#include "shardlake_search.h"

namespace strata::shardlake {

struct DatasetLine {
    std::uint64_t lineNumber = 0;  // 1-based
    Region region;                 // the line without its newline
    std::optional<std::uint64_t> id;
    std::vector<float> values;
    bool hasValues = false;
    bool nonFinite = false;  // a value overflowed f32 (JSON has no NaN or Inf)
    std::string error;       // not JSON, or "id"/"data" missing or mistyped
};

// Calls `visit` for every non-blank line until it returns false.
void forEachDatasetLine(const ByteSource& source,
                        const std::function<bool(const DatasetLine&)>& visit);

// All vectors, for exact search and tests; stops at the first bad line and says why in `error`.
std::vector<DatasetVector> readDatasetVectors(const ByteSource& source, std::string* error);

}  // namespace strata::shardlake
