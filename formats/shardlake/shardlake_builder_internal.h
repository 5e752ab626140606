// Internal to the Shardlake builder (shardlake_builder.h): what ingest and index builds share.
// Parts: shardlake_builder.cpp (input lines parsed, file helpers), shardlake_ingest.cpp
// (ingestVectors), shardlake_index_build.cpp (buildIndex: k-means, shard and manifest writing).
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <simdjson.h>

#include "formats/common/byte_source.h"
#include "shardlake_builder.h"

namespace strata::shardlake {

using Clock = std::chrono::steady_clock;

// One parsed input line: the id, the values and (for ingest) the metadata's JSON text.
struct ParsedLine {
    std::uint64_t id = 0;
    std::size_t valuesBegin = 0;  // into the chunk's value list
    std::size_t valuesCount = 0;
    bool hasMetadata = false;
    std::string metadata;  // raw JSON text
};

// What one thread parsed from its share of the lines, in line order.
struct Chunk {
    std::vector<ParsedLine> lines;
    std::vector<float> values;
    std::string error;  // the first bad line of this chunk
};

class RecordParser {
public:
    // `vectorKey` is "vector" for ingest input and "data" for a dataset's vectors.jsonl.
    RecordParser(std::string_view vectorKey, bool keepMetadata)
        : vectorKey_(vectorKey), keepMetadata_(keepMetadata) {}

    // Empty string when the line parsed; otherwise why not.
    std::string parse(std::string_view text, Chunk& chunk);

private:
    std::string readValues(simdjson::simdjson_result<simdjson::ondemand::value> value,
                           Chunk& chunk);

    std::string vectorKey_;
    bool keepMetadata_;
    simdjson::ondemand::parser parser_;
    std::string buffer_;
};

// Splits the text at line starts into one chunk per thread and parses the chunks in parallel.
// Stops at the first bad line (in file order); its message names the 1-based line number.
std::string parseRecords(std::string_view text, std::string_view vectorKey, bool keepMetadata,
                         unsigned threads, const CancelToken* cancel, std::vector<Chunk>& out);

// The text of a mapped file (openMappedFile): its views borrow the mapping, which outlives them.
std::string_view textOf(const ByteSource& source);

void writeFile(const std::filesystem::path& path, std::string_view bytes);

inline void report(const ProgressCallback& progress, double fraction, const std::string& text) {
    if (progress) {
        progress(fraction, text);
    }
}

inline bool isCancelled(const CancelToken* cancel) {
    return cancel != nullptr && cancel->cancelled();
}

}  // namespace strata::shardlake
