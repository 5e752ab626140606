// NaN/Inf counting: every kernel this CPU runs (AVX-512 256 bytes a step, AVX2 32 bytes, the
// scalar loop), with its scalar tail, must count exactly what an element-by-element
// classification counts, for every floating dtype.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "formats/ztensor/zt_nonfinite.h"

namespace strata {
namespace {

struct Layout {
    ztensor::ZtDType dtype;
    unsigned width;
    std::uint64_t exponent;
    std::uint64_t mantissa;
};

constexpr Layout kLayouts[] = {
    {ztensor::ZtDType::Float64, 8, 0x7FF0000000000000ull, 0x000FFFFFFFFFFFFFull},
    {ztensor::ZtDType::Float32, 4, 0x7F800000u, 0x007FFFFFu},
    {ztensor::ZtDType::Float16, 2, 0x7C00u, 0x03FFu},
    {ztensor::ZtDType::BFloat16, 2, 0x7F80u, 0x007Fu},
};

void store(std::vector<std::uint8_t>& bytes, std::size_t index, unsigned width,
           std::uint64_t bits) {
    for (unsigned b = 0; b < width; ++b) {
        bytes[index * width + b] = static_cast<std::uint8_t>(bits >> (8 * b));
    }
}

constexpr std::size_t kElementCounts[] = {0, 1, 3, 15, 16, 17, 33, 100, 127, 128, 129, 1001, 4099};

constexpr ztensor::ZtScanKernel kKernels[] = {
    ztensor::ZtScanKernel::Scalar, ztensor::ZtScanKernel::Avx2, ztensor::ZtScanKernel::Avx512};

TEST(ZtDType, NonFiniteCountsMatchAnElementByElementCountAtEveryLength) {
    std::mt19937_64 random(5);
    for (const Layout& layout : kLayouts) {
        for (const std::size_t elements : kElementCounts) {
            std::vector<std::uint8_t> bytes(elements * layout.width + 1);  // + a partial element
            ztensor::ZtNonFiniteCount expected;
            for (std::size_t i = 0; i < elements; ++i) {
                std::uint64_t bits = random() & (layout.exponent | layout.mantissa);
                switch (random() % 5) {
                    case 0:  // infinity, either sign
                        bits = layout.exponent | ((random() & 1) << (8 * layout.width - 1));
                        ++expected.inf;
                        break;
                    case 1:  // NaN with a random payload
                        bits = layout.exponent | ((random() & layout.mantissa) | 1u);
                        ++expected.nan;
                        break;
                    default:  // finite: exponent not all ones
                        if ((bits & layout.exponent) == layout.exponent) {
                            bits &=
                                ~(layout.exponent & ~(layout.exponent >> 1));  // clear its top bit
                        }
                        break;
                }
                store(bytes, i, layout.width, bits);
            }
            bytes.back() = 0xFF;  // the partial element is never counted
            for (const ztensor::ZtScanKernel kernel : kKernels) {
                if (!ztensor::ztScanKernelAvailable(kernel)) {
                    continue;
                }
                // Element data need not be aligned to anything (a tensor may start at any
                // offset of a mapped file): the same bytes at every misalignment.
                for (const std::size_t shift : {0u, 1u, 3u, 7u}) {
                    std::vector<std::uint8_t> shifted(shift + bytes.size(), 0xFF);
                    std::copy(bytes.begin(), bytes.end(), shifted.begin() + shift);
                    ztensor::ZtNonFiniteCount actual;
                    ztensor::countNonFiniteWith(kernel, layout.dtype, shifted.data() + shift,
                                                bytes.size(), actual);
                    EXPECT_EQ(actual.nan, expected.nan)
                        << ztensor::ztDTypeName(layout.dtype) << " x" << elements << " +" << shift
                        << ' ' << ztensor::ztScanKernelName(kernel);
                    EXPECT_EQ(actual.inf, expected.inf)
                        << ztensor::ztDTypeName(layout.dtype) << " x" << elements << " +" << shift
                        << ' ' << ztensor::ztScanKernelName(kernel);
                }
            }
        }
    }
}

TEST(ZtDType, TheWidestAvailableKernelIsChosen) {
    EXPECT_TRUE(ztensor::ztScanKernelAvailable(ztensor::ZtScanKernel::Scalar));
    EXPECT_TRUE(ztensor::ztScanKernelAvailable(ztensor::ztScanKernel()));
#if defined(__x86_64__)
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")) {
        EXPECT_EQ(ztensor::ztScanKernel(), ztensor::ZtScanKernel::Avx512);
    } else if (__builtin_cpu_supports("avx2")) {
        EXPECT_EQ(ztensor::ztScanKernel(), ztensor::ZtScanKernel::Avx2);
    }
#endif
}

TEST(ZtDType, IntegerDTypesHaveNoNonFiniteValues) {
    const std::vector<std::uint8_t> bytes(64, 0xFF);
    ztensor::ZtNonFiniteCount count;
    ztensor::countNonFinite(ztensor::ZtDType::Int32, bytes.data(), bytes.size(), count);
    EXPECT_EQ(count.nan + count.inf, 0u);
}

}  // namespace
}  // namespace strata
