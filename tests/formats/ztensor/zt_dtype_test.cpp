// NaN/Inf counting: the vector path (32 bytes a step) and the scalar tail must together count
// exactly what an element-by-element classification counts, for every floating dtype.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "formats/ztensor/zt_dtype.h"

namespace strata {
namespace {

struct Layout {
    ZtDType dtype;
    unsigned width;
    std::uint64_t exponent;
    std::uint64_t mantissa;
};

constexpr Layout kLayouts[] = {
    {ZtDType::Float64, 8, 0x7FF0000000000000ull, 0x000FFFFFFFFFFFFFull},
    {ZtDType::Float32, 4, 0x7F800000u, 0x007FFFFFu},
    {ZtDType::Float16, 2, 0x7C00u, 0x03FFu},
    {ZtDType::BFloat16, 2, 0x7F80u, 0x007Fu},
};

void store(std::vector<std::uint8_t>& bytes, std::size_t index, unsigned width,
           std::uint64_t bits) {
    for (unsigned b = 0; b < width; ++b) {
        bytes[index * width + b] = static_cast<std::uint8_t>(bits >> (8 * b));
    }
}

constexpr std::size_t kElementCounts[] = {0, 1, 3, 15, 16, 17, 33, 100, 1001};

TEST(ZtDType, NonFiniteCountsMatchAnElementByElementCountAtEveryLength) {
    std::mt19937_64 random(5);
    for (const Layout& layout : kLayouts) {
        for (const std::size_t elements : kElementCounts) {
            std::vector<std::uint8_t> bytes(elements * layout.width + 1);  // + a partial element
            ZtNonFiniteCount expected;
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
            ZtNonFiniteCount actual;
            countNonFinite(layout.dtype, bytes.data(), bytes.size(), actual);
            EXPECT_EQ(actual.nan, expected.nan) << ztDTypeName(layout.dtype) << " x" << elements;
            EXPECT_EQ(actual.inf, expected.inf) << ztDTypeName(layout.dtype) << " x" << elements;
        }
    }
}

TEST(ZtDType, IntegerDTypesHaveNoNonFiniteValues) {
    const std::vector<std::uint8_t> bytes(64, 0xFF);
    ZtNonFiniteCount count;
    countNonFinite(ZtDType::Int32, bytes.data(), bytes.size(), count);
    EXPECT_EQ(count.nan + count.inf, 0u);
}

}  // namespace
}  // namespace strata
