#include "shardlake_kmeans.h"

#include <algorithm>
#include <numeric>
#include <thread>

#include "shardlake_distance_kernels.h"

namespace strata::shardlake {

namespace {

bool cancelled(const CancelToken* cancel) {
    return cancel != nullptr && cancel->cancelled();
}

// Returns whether any assignment changed.
bool assignStep(const VectorMatrix& vectors, const VectorMatrix& centroids,
                std::span<std::uint32_t> assignments, unsigned threads, const CancelToken* cancel) {
    std::vector<std::uint32_t> next(assignments.size());
    assignNearest(vectors, centroids, next, threads, cancel);
    bool changed = false;
    for (std::size_t i = 0; i < next.size(); ++i) {
        changed = changed || next[i] != assignments[i];
        assignments[i] = next[i];
    }
    return changed;
}

// Sums each cluster's members in input order; clusters are split over the threads.
void updateStep(const VectorMatrix& vectors, std::span<const std::uint32_t> assignments,
                std::vector<float>& centroids, std::size_t k, unsigned threads) {
    const std::size_t dims = vectors.dims;
    parallelRanges(k, threads, [&](std::size_t first, std::size_t last) {
        std::vector<float> sums((last - first) * dims, 0.0f);
        std::vector<std::size_t> counts(last - first, 0);
        for (std::size_t i = 0; i < assignments.size(); ++i) {
            const std::size_t c = assignments[i];
            if (c < first || c >= last) {
                continue;
            }
            float* sum = sums.data() + (c - first) * dims;
            const std::span<const float> row = vectors.row(i);
            for (std::size_t d = 0; d < dims; ++d) {
                sum[d] += row[d];
            }
            ++counts[c - first];
        }
        for (std::size_t c = first; c < last; ++c) {
            if (counts[c - first] == 0) {
                continue;
            }
            const float count = static_cast<float>(counts[c - first]);
            for (std::size_t d = 0; d < dims; ++d) {
                centroids[c * dims + d] = sums[(c - first) * dims + d] / count;
            }
        }
    });
}

}  // namespace

unsigned effectiveThreads(unsigned requested) {
    return requested != 0 ? requested : std::max(1u, std::thread::hardware_concurrency());
}

void parallelRanges(std::size_t count, unsigned threads,
                    const std::function<void(std::size_t, std::size_t)>& body) {
    const std::size_t workers = std::min<std::size_t>(effectiveThreads(threads), count);
    if (workers <= 1) {
        if (count > 0) {
            body(0, count);
        }
        return;
    }
    std::vector<std::thread> pool;
    for (std::size_t t = 0; t < workers; ++t) {
        const std::size_t first = count * t / workers;
        const std::size_t last = count * (t + 1) / workers;
        pool.emplace_back([&body, first, last] { body(first, last); });
    }
    for (std::thread& thread : pool) {
        thread.join();
    }
}

void assignNearest(const VectorMatrix& vectors, const VectorMatrix& centroids,
                   std::span<std::uint32_t> out, unsigned threads, const CancelToken* cancel) {
    const std::size_t k = centroids.count();
    const std::size_t dims = vectors.dims;
    const std::size_t padded = (k + kKernelLanes - 1) / kKernelLanes * kKernelLanes;
    // Component-major centroids (dims × padded) so one query scores every centroid at once.
    std::vector<float> transposed(dims * padded, 0.0f);
    for (std::size_t c = 0; c < k; ++c) {
        for (std::size_t d = 0; d < dims; ++d) {
            transposed[d * padded + c] = centroids.values[c * dims + d];
        }
    }
    parallelRanges(vectors.count(), threads, [&](std::size_t first, std::size_t last) {
        std::vector<float> distances(padded);
        for (std::size_t i = first; i < last; ++i) {
            if ((i & 0xfff) == 0 && cancelled(cancel)) {
                return;
            }
            squaredL2ToMany(vectors.row(i).data(), transposed.data(), dims, padded,
                            distances.data());
            std::uint32_t best = 0;
            for (std::size_t c = 1; c < k; ++c) {
                // Replaced only by a strictly smaller distance; NaN never wins.
                if (distances[best] > distances[c]) {
                    best = static_cast<std::uint32_t>(c);
                }
            }
            out[i] = best;
        }
    });
}

std::vector<float> trainKMeans(const VectorMatrix& vectors, ChaCha12Rng& rng,
                               const KMeansOptions& options) {
    const std::size_t n = vectors.count();
    const std::size_t dims = vectors.dims;
    if (n == 0 || options.clusters == 0) {
        return {};
    }
    const std::size_t k = std::min(options.clusters, n);
    std::vector<std::uint64_t> order(n);
    std::iota(order.begin(), order.end(), std::uint64_t{0});
    shuffle(order, rng);
    std::vector<float> centroids(k * dims);
    for (std::size_t c = 0; c < k; ++c) {
        const std::span<const float> row = vectors.row(order[c]);
        std::copy(row.begin(), row.end(),
                  centroids.begin() + static_cast<std::ptrdiff_t>(c * dims));
    }
    std::vector<std::uint32_t> assignments(n, 0);
    for (std::uint32_t iteration = 0; iteration < options.iterations; ++iteration) {
        const bool changed =
            assignStep(vectors, {centroids, dims}, assignments, options.threads, options.cancel);
        if (cancelled(options.cancel)) {
            return {};
        }
        if (options.onIteration) {
            options.onIteration(iteration + 1, options.iterations);
        }
        if (!changed) {
            break;
        }
        updateStep(vectors, assignments, centroids, k, options.threads);
    }
    return centroids;
}

}  // namespace strata::shardlake
