// JSON documents of a Shardlake root (manifests, aliases, dataset info) parsed with nlohmann
// json, plus the byte span of every value down to a fixed depth, so diagnostics and tree fields
// can point at the exact text ("/shards/0/sha256").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include <nlohmann/json.hpp>

#include "formats/common/byte_source.h"
#include "formats/common/region.h"

namespace strata::shardlake {

// Byte spans of JSON values by JSON pointer ("" = the whole document). Scanning stops quietly at
// the first syntax error; what was seen before stays usable.
class JsonSpans {
public:
    static JsonSpans scan(std::string_view text, int maxDepth = 3);
    std::optional<std::pair<std::uint64_t, std::uint64_t>> find(const std::string& pointer) const;

private:
    std::unordered_map<std::string, std::pair<std::uint64_t, std::uint64_t>> spans_;
    friend class JsonSpanScanner;
};

// Documents larger than this are not parsed (a manifest is kilobytes to a few megabytes).
inline constexpr std::uint64_t kMaxJsonBytes = 256ull << 20;

struct JsonDoc {
    ByteSourcePtr source;
    nlohmann::json value;
    JsonSpans spans;
    bool parsed = false;
    // When !parsed: the parser's message and the byte it stopped at.
    std::string error;
    std::uint64_t errorOffset = 0;

    // The bytes of the value at `pointer`, or of the whole file when unknown.
    Region regionOf(const std::string& pointer) const;
    Region whole() const;
};

JsonDoc loadJson(ByteSourcePtr source);

// True when `source` holds one JSON object and nothing else, checked with simdjson (about a
// gigabyte a second, no tree kept), or past kMaxJsonBytes by largeJsonObjectProblem. False says
// only "look closer": loadJson (or largeJsonObjectProblem) gives the verdict and the error's
// place (a document simdjson refuses, nlohmann may still read).
bool holdsJsonObject(const ByteSource& source);

// For a JSON file too large to load (past kMaxJsonBytes: a dataset's metadata.json grows with its
// vectors, 368 MB at 10 million): whether it is one JSON object, checked in one pass by a SAX
// parser over a mapping of the file, keeping no tree. Nothing when it is; else what is wrong
// and the byte where the parser stopped (0 for a valid document that is not an object).
struct JsonObjectProblem {
    std::string error;
    std::uint64_t offset = 0;
};
std::optional<JsonObjectProblem> largeJsonObjectProblem(const ByteSource& source);

// "/shards/3/sha256".
std::string pointerOf(std::string_view a, std::size_t index, std::string_view b = {});

}  // namespace strata::shardlake
