#include "zt_dtype.h"

#include <array>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "../common/le_reader.h"

namespace strata {

namespace {

struct DTypeInfo {
    ZtDType dtype;
    std::string_view name;
    unsigned size;
    bool isFloat;
};

constexpr std::array<DTypeInfo, 13> kDTypes = {{
    {ZtDType::Float64, "float64", 8, true},
    {ZtDType::Float32, "float32", 4, true},
    {ZtDType::Float16, "float16", 2, true},
    {ZtDType::BFloat16, "bfloat16", 2, true},
    {ZtDType::Int64, "int64", 8, false},
    {ZtDType::Int32, "int32", 4, false},
    {ZtDType::Int16, "int16", 2, false},
    {ZtDType::Int8, "int8", 1, false},
    {ZtDType::UInt64, "uint64", 8, false},
    {ZtDType::UInt32, "uint32", 4, false},
    {ZtDType::UInt16, "uint16", 2, false},
    {ZtDType::UInt8, "uint8", 1, false},
    {ZtDType::Bool, "bool", 1, false},
}};

const DTypeInfo& info(ZtDType dtype) {
    return kDTypes[static_cast<std::size_t>(dtype)];
}

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

bool avx2Available() {
    static const bool available = __builtin_cpu_supports("avx2") != 0;
    return available;
}
#endif

template <typename T>
void countIeee(const std::uint8_t* bytes, std::uint64_t size, T exponentMask, T mantissaMask,
               ZtNonFiniteCount& count) {
    const std::uint64_t n = size / sizeof(T);
    std::uint64_t done = 0;
#if defined(__x86_64__)
    if (avx2Available()) {
        done = countIeeeAvx2<T>(bytes, n, exponentMask, mantissaMask, count);
    }
#endif
    countIeeeScalar<T>(bytes + done * sizeof(T), n - done, exponentMask, mantissaMask, count);
}

}  // namespace

std::optional<ZtDType> parseZtDType(std::string_view name) {
    for (const auto& entry : kDTypes) {
        if (entry.name == name) {
            return entry.dtype;
        }
    }
    return std::nullopt;
}

std::string_view ztDTypeName(ZtDType dtype) {
    return info(dtype).name;
}
unsigned ztDTypeSize(ZtDType dtype) {
    return info(dtype).size;
}
bool ztDTypeIsFloat(ZtDType dtype) {
    return info(dtype).isFloat;
}

void countNonFinite(ZtDType dtype, const std::uint8_t* bytes, std::uint64_t size,
                    ZtNonFiniteCount& count) {
    switch (dtype) {
        case ZtDType::Float64:
            countIeee<std::uint64_t>(bytes, size, 0x7FF0000000000000ull, 0x000FFFFFFFFFFFFFull,
                                     count);
            break;
        case ZtDType::Float32:
            countIeee<std::uint32_t>(bytes, size, 0x7F800000u, 0x007FFFFFu, count);
            break;
        case ZtDType::Float16:
            countIeee<std::uint16_t>(bytes, size, 0x7C00, 0x03FF, count);
            break;
        case ZtDType::BFloat16:
            countIeee<std::uint16_t>(bytes, size, 0x7F80, 0x007F, count);
            break;
        default:
            break;
    }
}

}  // namespace strata
