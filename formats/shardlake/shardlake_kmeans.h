// k-means as the Shardlake builder runs it, so a build reproduces the reference's centroids bit
// for bit: initial centroids are the first k vectors of a shuffled index list; each iteration
// assigns every vector to its nearest centroid by squared L2 (the first of equal distances),
// stops early when no assignment changed, and moves each non-empty cluster's centroid to the
// f32 mean of its members summed in input order. Arithmetic is plain f32 in component order;
// the parallel loops split work without changing any sum.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "formats/common/validator.h"
#include "shardlake_rng.h"

namespace strata::shardlake {

// Row-major vectors: count × dims floats.
struct VectorMatrix {
    std::span<const float> values;
    std::size_t dims = 0;
    std::size_t count() const { return dims == 0 ? 0 : values.size() / dims; }
    std::span<const float> row(std::size_t i) const { return values.subspan(i * dims, dims); }
};

struct KMeansOptions {
    std::size_t clusters = 4;
    std::uint32_t iterations = 20;
    unsigned threads = 0;  // 0 = one per core
    const CancelToken* cancel = nullptr;
    // Called after each iteration (1-based) with the iteration limit.
    std::function<void(std::uint32_t done, std::uint32_t limit)> onIteration;
};

// min(clusters, count) centroids, row-major. Empty when cancelled or the input is empty.
std::vector<float> trainKMeans(const VectorMatrix& vectors, ChaCha12Rng& rng,
                               const KMeansOptions& options);

// The nearest centroid of every vector (squared L2, first of equal distances).
void assignNearest(const VectorMatrix& vectors, const VectorMatrix& centroids,
                   std::span<std::uint32_t> out, unsigned threads,
                   const CancelToken* cancel = nullptr);

// Runs body(begin, end) over [0, count) split into contiguous ranges, one per thread.
void parallelRanges(std::size_t count, unsigned threads,
                    const std::function<void(std::size_t, std::size_t)>& body);

unsigned effectiveThreads(unsigned requested);

}  // namespace strata::shardlake
