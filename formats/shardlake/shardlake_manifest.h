// The JSON documents of a Shardlake root as typed values: index manifests (manifest_version 1
// to 4), alias pointers and dataset info. Reading also checks each document on its own (required
// fields, types, ranges, sums, key sanitising) and appends what it finds to `out`; checks that
// need other files live in the validator.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "formats/common/diagnostic.h"
#include "shardlake_json.h"

namespace strata::shardlake {

inline constexpr std::uint64_t kMaxManifestVersion = 4;

struct ShardEntry {
    std::size_t position = 0;  // index in "shards"
    std::optional<std::uint64_t> shardId;
    std::string artifactKey;
    std::optional<std::uint64_t> vectorCount;
    std::string fingerprint;
    // "sha256", "fingerprint", or empty when neither is present.
    std::string fingerprintField;
    std::optional<std::vector<float>> centroid;
};

struct Compression {
    bool present = false;
    bool enabled = false;
    std::string codec = "none";
    std::optional<std::uint64_t> pqM;
    std::optional<std::uint64_t> pqK;
    std::string codebookKey;
    // Shards are read as PQ (.sidx v2) shards; as in the reference, the manifest decides.
    bool pqShards() const { return enabled && codec == "pq8"; }
};

struct IndexManifest {
    std::optional<std::uint64_t> manifestVersion;
    std::optional<std::uint64_t> dims;
    std::optional<std::uint64_t> totalVectorCount;
    std::string datasetVersion;
    std::string embeddingVersion;
    std::string indexVersion;
    std::string alias;
    std::string metric;
    std::string vectorsKey;
    std::string metadataKey;
    std::string coarseQuantizerKey;
    std::string algorithm;
    Compression compression;
    std::vector<ShardEntry> shards;
};

// Checks a storage key: "" when it is a clean relative key, otherwise why not (absolute, a
// backslash, an empty, "." or ".." segment).
std::string keyProblem(std::string_view key);

// `2026-03-10T17:44:00Z` (optional fraction, `Z` or `±HH:MM`): what build_metadata.built_at
// must hold.
bool isRfc3339(std::string_view text);

// Requires doc.parsed. Never throws on odd JSON types.
IndexManifest readIndexManifest(const JsonDoc& doc, std::vector<Diagnostic>& out);

struct AliasPointer {
    std::string alias;
    std::string indexVersion;
};

std::optional<AliasPointer> readAlias(const JsonDoc& doc, std::vector<Diagnostic>& out);

struct DatasetInfo {
    std::optional<std::uint64_t> manifestVersion;
    std::optional<std::uint64_t> dims;
    std::optional<std::uint64_t> count;
    std::string datasetVersion;
    std::string embeddingVersion;
    std::string vectorsKey;
    std::string metadataKey;
};

DatasetInfo readDatasetInfo(const JsonDoc& doc, std::vector<Diagnostic>& out);

// A parse failure as a diagnostic (SL-JSON) pointing at the byte where parsing stopped.
Diagnostic jsonError(const JsonDoc& doc, std::string_view what);

}  // namespace strata::shardlake
