#include "shardlake_distance_kernels.h"

// Built with -ffp-contract=off (see CMakeLists.txt): a fused multiply-add would round
// differently from the reference's separate multiply and add.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define STRATA_KERNEL __attribute__((target_clones("avx2", "default")))
#else
#define STRATA_KERNEL
#endif

namespace strata::shardlake {

STRATA_KERNEL
void squaredL2ToMany(const float* query, const float* matrix, std::size_t dims, std::size_t width,
                     float* __restrict out) {
    for (std::size_t c = 0; c < width; ++c) {
        out[c] = 0.0f;
    }
    for (std::size_t j = 0; j < dims; ++j) {
        const float q = query[j];
        const float* row = matrix + j * width;
        for (std::size_t c = 0; c < width; ++c) {
            const float d = q - row[c];
            out[c] += d * d;
        }
    }
}

STRATA_KERNEL
void dotToMany(const float* query, const float* matrix, std::size_t dims, std::size_t width,
               float* __restrict dots) {
    for (std::size_t c = 0; c < width; ++c) {
        dots[c] = 0.0f;
    }
    for (std::size_t j = 0; j < dims; ++j) {
        const float q = query[j];
        const float* row = matrix + j * width;
        for (std::size_t c = 0; c < width; ++c) {
            dots[c] += q * row[c];
        }
    }
}

STRATA_KERNEL
void dotAndNormToMany(const float* query, const float* matrix, std::size_t dims, std::size_t width,
                      float* __restrict dots, float* __restrict norms) {
    for (std::size_t c = 0; c < width; ++c) {
        dots[c] = 0.0f;
        norms[c] = 0.0f;
    }
    for (std::size_t j = 0; j < dims; ++j) {
        const float q = query[j];
        const float* row = matrix + j * width;
        for (std::size_t c = 0; c < width; ++c) {
            dots[c] += q * row[c];
            norms[c] += row[c] * row[c];
        }
    }
}

const char* distanceKernelVariant() {
#if defined(__x86_64__) && defined(__GNUC__)
    return __builtin_cpu_supports("avx2") ? "avx2" : "baseline";
#else
    return "baseline";
#endif
}

}  // namespace strata::shardlake
