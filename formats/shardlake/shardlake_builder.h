// Building a Shardlake storage root the way the reference's `ingest` and `build-index` do:
// the same keys, file layouts, manifest fields and order, FNV-1a fingerprints, and k-means
// (ChaCha12 seeded from kmeans_seed, shuffled initial centroids, at most kmeans_iters rounds,
// empty clusters dropped), so the same input and parameters give the same shards and
// quantizer. Work is spread over threads without changing any result; progress is reported
// and a CancelToken stops the build before the manifest is written.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "formats/common/validator.h"
#include "shardlake_search.h"

namespace strata::shardlake {

inline constexpr std::uint64_t kDefaultKmeansSeed = 0xdeadbeef;
inline constexpr const char* kBuilderVersion = "0.1.0";

struct IngestRequest {
    std::filesystem::path root;
    // Lines of {"id": u64, "vector": [numbers], "metadata": any} (blank lines skipped).
    std::filesystem::path input;
    std::string datasetVersion;
    std::string embeddingVersion;  // the dataset version when empty
    // RFC 3339 time written as ingested_at; now when empty (fixed for reproducible output).
    std::string timestamp;
    bool replace = false;  // overwrite an existing dataset
    const CancelToken* cancel = nullptr;
    ProgressCallback progress;
};

struct BuildOutcome {
    bool ok = false;
    bool cancelled = false;
    std::string error;
    std::uint64_t vectors = 0;
    std::uint32_t dims = 0;
    std::size_t shards = 0;
    double seconds = 0;
};

// Writes datasets/<v>/vectors.jsonl, metadata.json and info.json.
BuildOutcome ingestVectors(const IngestRequest& request);

struct BuildRequest {
    std::filesystem::path root;
    std::string datasetVersion;
    std::string embeddingVersion;  // the dataset's when empty
    std::string indexVersion;
    Metric metric = Metric::Cosine;
    std::uint32_t numShards = 4;
    std::uint32_t kmeansIters = 20;
    std::uint32_t nprobe = 2;
    std::uint64_t kmeansSeed = kDefaultKmeansSeed;
    // Train on a random sample of at most this many vectors (all vectors are still assigned).
    std::optional<std::uint32_t> kmeansSampleSize;
    // RFC 3339 time written as built_at; now when empty.
    std::string timestamp;
    bool replace = false;  // overwrite an existing index version
    unsigned threads = 0;  // 0 = one per core
    const CancelToken* cancel = nullptr;
    ProgressCallback progress;
};

// Builds indexes/<v>/ (shards, coarse_quantizer.cq, manifest.json written last).
BuildOutcome buildIndex(const BuildRequest& request);

// FNV-1a 64 as 16 lowercase hex digits, the manifests' "sha256".
std::string fingerprintHex(const std::uint8_t* data, std::size_t size);

// "2026-11-22T20:02:28.644538041Z": UTC now with 0, 3, 6 or 9 fraction digits as needed.
std::string rfc3339Now();

}  // namespace strata::shardlake
