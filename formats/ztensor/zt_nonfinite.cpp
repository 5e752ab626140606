#include "zt_nonfinite.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "../common/le_reader.h"

namespace strata::ztensor {

namespace {

// Counts elements whose exponent bits are all ones, split by whether the mantissa is zero.
template <typename T>
void countIeeeScalar(const std::uint8_t* bytes, std::uint64_t n, T exponentMask, T mantissaMask,
                     ZtNonFiniteCount& count) {
    for (std::uint64_t i = 0; i < n; ++i) {
        const T bits = decodeLe<T>(bytes + i * sizeof(T));
        if ((bits & exponentMask) == exponentMask) {
            if ((bits & mantissaMask) != 0) {
                ++count.nan;
            } else {
                ++count.inf;
            }
        }
    }
}

#if defined(__x86_64__)
template <typename T>
__attribute__((target("avx2"))) __m256i broadcastLanes(T value) {
    if constexpr (sizeof(T) == 2) {
        return _mm256_set1_epi16(static_cast<short>(value));
    } else if constexpr (sizeof(T) == 4) {
        return _mm256_set1_epi32(static_cast<int>(value));
    } else {
        return _mm256_set1_epi64x(static_cast<long long>(value));
    }
}

template <typename T>
__attribute__((target("avx2"))) __m256i equalLanes(__m256i a, __m256i b) {
    if constexpr (sizeof(T) == 2) {
        return _mm256_cmpeq_epi16(a, b);
    } else if constexpr (sizeof(T) == 4) {
        return _mm256_cmpeq_epi32(a, b);
    } else {
        return _mm256_cmpeq_epi64(a, b);
    }
}

// 32 bytes a step. Finite values (nearly all of a real tensor) cost one compare and a branch
// that is never taken, so the scan runs at the speed the bytes arrive. Returns the elements done.
template <typename T>
__attribute__((target("avx2,popcnt"))) std::uint64_t countIeeeAvx2(const std::uint8_t* bytes,
                                                                   std::uint64_t n, T exponentMask,
                                                                   T mantissaMask,
                                                                   ZtNonFiniteCount& count) {
    constexpr std::uint64_t kLanes = 32 / sizeof(T);
    const __m256i exponent = broadcastLanes<T>(exponentMask);
    const __m256i mantissa = broadcastLanes<T>(mantissaMask);
    const __m256i zero = _mm256_setzero_si256();
    std::uint64_t i = 0;
    for (; i + kLanes <= n; i += kLanes) {
        const __m256i v =
            _mm256_loadu_si256(reinterpret_cast<const __m256i*>(bytes + i * sizeof(T)));
        const __m256i special = equalLanes<T>(_mm256_and_si256(v, exponent), exponent);
        const auto specialBytes = static_cast<unsigned>(_mm256_movemask_epi8(special));
        if (specialBytes == 0) {
            continue;
        }
        const __m256i infinite =
            _mm256_and_si256(special, equalLanes<T>(_mm256_and_si256(v, mantissa), zero));
        const auto infiniteBytes = static_cast<unsigned>(_mm256_movemask_epi8(infinite));
        const auto specials = static_cast<unsigned>(__builtin_popcount(specialBytes)) / sizeof(T);
        const auto infinities =
            static_cast<unsigned>(__builtin_popcount(infiniteBytes)) / sizeof(T);
        count.inf += infinities;
        count.nan += specials - infinities;
    }
    return i;
}

template <typename T>
__attribute__((target("avx512f,avx512bw"))) __m512i broadcastLanes512(T value) {
    if constexpr (sizeof(T) == 2) {
        return _mm512_set1_epi16(static_cast<short>(value));
    } else if constexpr (sizeof(T) == 4) {
        return _mm512_set1_epi32(static_cast<int>(value));
    } else {
        return _mm512_set1_epi64(static_cast<long long>(value));
    }
}

// One mask bit per lane whose value equals the other's.
template <typename T>
__attribute__((target("avx512f,avx512bw"))) std::uint64_t equalMask512(__m512i a, __m512i b) {
    if constexpr (sizeof(T) == 2) {
        return _mm512_cmpeq_epi16_mask(a, b);
    } else if constexpr (sizeof(T) == 4) {
        return _mm512_cmpeq_epi32_mask(a, b);
    } else {
        return _mm512_cmpeq_epi64_mask(a, b);
    }
}

template <typename T>
__attribute__((target("avx512f,avx512bw"))) std::uint64_t specialMask512(const std::uint8_t* at,
                                                                         __m512i exponent) {
    const __m512i v = _mm512_loadu_si512(at);
    return equalMask512<T>(_mm512_and_si512(v, exponent), exponent);
}

// Splits the lanes of `special` (exponent all ones) into NaN and infinity.
template <typename T>
__attribute__((target("avx512f,avx512bw,popcnt"))) void tally512(const std::uint8_t* at,
                                                                 std::uint64_t special,
                                                                 __m512i mantissa,
                                                                 ZtNonFiniteCount& count) {
    const __m512i v = _mm512_loadu_si512(at);
    const std::uint64_t infinite =
        special & equalMask512<T>(_mm512_and_si512(v, mantissa), _mm512_setzero_si512());
    const auto infinities = static_cast<std::uint64_t>(__builtin_popcountll(infinite));
    count.inf += infinities;
    count.nan += static_cast<std::uint64_t>(__builtin_popcountll(special)) - infinities;
}

// 256 bytes a step: four compares into mask registers and one branch that finite data never
// takes. Returns the elements done.
template <typename T>
__attribute__((target("avx512f,avx512bw,popcnt"))) std::uint64_t countIeeeAvx512(
    const std::uint8_t* bytes, std::uint64_t n, T exponentMask, T mantissaMask,
    ZtNonFiniteCount& count) {
    constexpr std::uint64_t kLanes = 64 / sizeof(T);
    const __m512i exponent = broadcastLanes512<T>(exponentMask);
    const __m512i mantissa = broadcastLanes512<T>(mantissaMask);
    std::uint64_t i = 0;
    for (; i + 4 * kLanes <= n; i += 4 * kLanes) {
        const std::uint8_t* at = bytes + i * sizeof(T);
        const std::uint64_t s0 = specialMask512<T>(at, exponent);
        const std::uint64_t s1 = specialMask512<T>(at + 64, exponent);
        const std::uint64_t s2 = specialMask512<T>(at + 128, exponent);
        const std::uint64_t s3 = specialMask512<T>(at + 192, exponent);
        if ((s0 | s1 | s2 | s3) == 0) {
            continue;
        }
        tally512<T>(at, s0, mantissa, count);
        tally512<T>(at + 64, s1, mantissa, count);
        tally512<T>(at + 128, s2, mantissa, count);
        tally512<T>(at + 192, s3, mantissa, count);
    }
    for (; i + kLanes <= n; i += kLanes) {
        const std::uint8_t* at = bytes + i * sizeof(T);
        const std::uint64_t special = specialMask512<T>(at, exponent);
        if (special != 0) {
            tally512<T>(at, special, mantissa, count);
        }
    }
    return i;
}
#endif

ZtScanKernel widestKernel() {
#if defined(__x86_64__)
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")) {
        return ZtScanKernel::Avx512;
    }
    if (__builtin_cpu_supports("avx2")) {
        return ZtScanKernel::Avx2;
    }
#endif
    return ZtScanKernel::Scalar;
}

template <typename T>
void countIeee(ZtScanKernel kernel, const std::uint8_t* bytes, std::uint64_t size, T exponentMask,
               T mantissaMask, ZtNonFiniteCount& count) {
    const std::uint64_t n = size / sizeof(T);
    std::uint64_t done = 0;
#if defined(__x86_64__)
    if (kernel == ZtScanKernel::Avx512) {
        done = countIeeeAvx512<T>(bytes, n, exponentMask, mantissaMask, count);
    } else if (kernel == ZtScanKernel::Avx2) {
        done = countIeeeAvx2<T>(bytes, n, exponentMask, mantissaMask, count);
    }
#else
    (void)kernel;
#endif
    countIeeeScalar<T>(bytes + done * sizeof(T), n - done, exponentMask, mantissaMask, count);
}

}  // namespace

std::string_view ztScanKernelName(ZtScanKernel kernel) {
    switch (kernel) {
        case ZtScanKernel::Avx512:
            return "AVX-512";
        case ZtScanKernel::Avx2:
            return "AVX2";
        case ZtScanKernel::Scalar:
            break;
    }
    return "scalar";
}

bool ztScanKernelAvailable(ZtScanKernel kernel) {
    return static_cast<int>(kernel) <= static_cast<int>(ztScanKernel());
}

ZtScanKernel ztScanKernel() {
    static const ZtScanKernel kernel = widestKernel();
    return kernel;
}

void countNonFinite(ZtDType dtype, const std::uint8_t* bytes, std::uint64_t size,
                    ZtNonFiniteCount& count) {
    countNonFiniteWith(ztScanKernel(), dtype, bytes, size, count);
}

void countNonFiniteWith(ZtScanKernel kernel, ZtDType dtype, const std::uint8_t* bytes,
                        std::uint64_t size, ZtNonFiniteCount& count) {
    switch (dtype) {
        case ZtDType::Float64:
            countIeee<std::uint64_t>(kernel, bytes, size, 0x7FF0000000000000ull,
                                     0x000FFFFFFFFFFFFFull, count);
            break;
        case ZtDType::Float32:
            countIeee<std::uint32_t>(kernel, bytes, size, 0x7F800000u, 0x007FFFFFu, count);
            break;
        case ZtDType::Float16:
            countIeee<std::uint16_t>(kernel, bytes, size, 0x7C00, 0x03FF, count);
            break;
        case ZtDType::BFloat16:
            countIeee<std::uint16_t>(kernel, bytes, size, 0x7F80, 0x007F, count);
            break;
        default:
            break;
    }
}

}  // namespace strata::ztensor
