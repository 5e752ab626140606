// Distance kernels that score one query against many vectors at once. The vectors are laid out
// component-major (matrix[j * width + c] is component j of vector c), so every loop runs across
// vectors while each vector's own sum still adds its components in order 0, 1, 2, ...: the
// results equal the one-at-a-time sums bit for bit, and the loops vectorise. The functions are
// compiled for AVX2 and for baseline x86-64 (or plain C++ elsewhere) and chosen at run time.
#pragma once

#include <cstddef>

namespace strata::shardlake {

// Widths handed to the kernels are best kept a multiple of this.
inline constexpr std::size_t kKernelLanes = 16;

// out[c] = Σ_j (query[j] − matrix[j·width + c])².
void squaredL2ToMany(const float* query, const float* matrix, std::size_t dims, std::size_t width,
                     float* out);
// dots[c] = Σ_j query[j]·matrix[j·width + c].
void dotToMany(const float* query, const float* matrix, std::size_t dims, std::size_t width,
               float* dots);
// dots as above and norms[c] = Σ_j matrix[j·width + c]².
void dotAndNormToMany(const float* query, const float* matrix, std::size_t dims, std::size_t width,
                      float* dots, float* norms);

// Which variant runs here: "avx2" or "baseline".
const char* distanceKernelVariant();

}  // namespace strata::shardlake
