// Nearest-neighbour search over a Shardlake index, with the reference's arithmetic so results
// match it bit for bit: f32 throughout, sums in index order. Distances (lower is better):
// euclidean √Σ(a−b)², cosine 1 − a·b/(|a||b|) (1 when either norm is 0), inner product −a·b;
// PQ indexes score with the asymmetric distance Σ over subspaces of the squared L2 distance to
// the code's codeword (no square root), and only for euclidean.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "formats/common/validator.h"
#include "shardlake_binary.h"
#include "shardlake_store.h"

namespace strata::shardlake {

enum class Metric { Cosine, Euclidean, InnerProduct };

std::optional<Metric> metricFromName(std::string_view name);
std::string_view metricName(Metric metric);

float distance(Metric metric, std::span<const float> a, std::span<const float> b);
float squaredL2(std::span<const float> a, std::span<const float> b);

struct Hit {
    std::uint64_t id = 0;
    float score = 0;
    // The shard_id of the shard the hit came from (0 for searches outside an index).
    std::uint64_t shardId = 0;
};

// Stable ascending sort by score (NaN last), drops later duplicates of an id, keeps `k`.
void mergeHits(std::vector<Hit>& hits, std::size_t k);

// An index ready to search: its shards (manifest order), quantizer centroids and PQ codebook.
struct LoadedIndex {
    struct Shard {
        std::uint64_t shardId = 0;
        ByteSourcePtr source;
        ShardLayout layout;
    };
    std::string version;
    Metric metric = Metric::Euclidean;
    std::uint32_t dims = 0;
    std::vector<Shard> shards;
    // Coarse quantizer centroids; centroid i routes to the shard whose shard_id is i.
    std::vector<std::vector<float>> centroids;
    bool pq = false;
    std::uint32_t pqM = 0;
    std::uint32_t pqK = 0;
    std::uint32_t subDims = 0;
    std::vector<float> codebook;  // pqM × pqK × subDims
};

struct IndexLoad {
    std::optional<LoadedIndex> index;
    std::string error;
};

// Reads the manifest, the shard headers, the quantizer and the codebook. Fails (with a message)
// when the index cannot be searched: unreadable manifest, a shard whose header or length is
// wrong, dims disagreeing, a bad codebook. Records are not read.
IndexLoad loadIndex(const Store& store, const std::string& version);

struct SearchOptions {
    std::size_t k = 10;
    // The index's own metric when not set.
    std::optional<Metric> metric;
    // Shards probed, nearest quantizer centroids first; 0 = all.
    std::size_t nprobe = 0;
    // Worker threads over shards; 0 = one per core.
    unsigned threads = 0;
    const CancelToken* cancel = nullptr;
};

struct SearchResult {
    std::vector<Hit> hits;
    // Non-empty when the search could not run (wrong query length, PQ with a non-L2 metric).
    std::string error;
};

// Per-shard top-k over the probed shards, merged (ties keep probe order, then record order).
SearchResult searchIndex(const LoadedIndex& index, std::span<const float> query,
                         const SearchOptions& options);

// The shard positions (in index.shards) a query probes, nearest centroid first (ties by
// centroid index); every shard in manifest order when the index has no centroids.
std::vector<std::size_t> routeQuery(const LoadedIndex& index, std::span<const float> query,
                                    std::size_t nprobe);

struct DatasetVector {
    std::uint64_t id = 0;
    std::vector<float> values;
};

// Brute force over vectors in memory (dataset order breaks ties).
SearchResult exactSearch(std::span<const DatasetVector> vectors, std::span<const float> query,
                         Metric metric, std::size_t k);

}  // namespace strata::shardlake
