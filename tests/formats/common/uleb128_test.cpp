#include "formats/common/uleb128.h"

#include <gtest/gtest.h>

#include <limits>

#include "formats/common/byte_source.h"

namespace strata {
namespace {

Uleb128Result decode(std::vector<std::uint8_t> bytes) {
    return decodeUleb128(bytes);
}

TEST(Uleb128, DecodesShortestForms) {
    EXPECT_EQ(decode({0x00}).value, 0u);
    EXPECT_TRUE(decode({0x00}).ok());
    EXPECT_EQ(decode({0x7f}).value, 127u);
    const auto r = decode({0x80, 0x01});
    EXPECT_TRUE(r.ok());
    EXPECT_EQ(r.value, 128u);
    EXPECT_EQ(r.length, 2u);
    EXPECT_EQ(decode({0xe5, 0x8e, 0x26}).value, 624485u);
}

TEST(Uleb128, StopsAtTheEndOfTheNumber) {
    const auto r = decode({0x80, 0x01, 0xff, 0xff});
    EXPECT_TRUE(r.ok());
    EXPECT_EQ(r.length, 2u);
}

TEST(Uleb128, RejectsNonShortestForms) {
    auto r = decode({0x80, 0x00});
    EXPECT_EQ(r.status, Uleb128Status::NonShortest);
    EXPECT_EQ(r.value, 0u);
    EXPECT_EQ(r.length, 2u);
    r = decode({0xff, 0x80, 0x00});
    EXPECT_EQ(r.status, Uleb128Status::NonShortest);
    EXPECT_EQ(r.value, 127u);
}

TEST(Uleb128, Truncated) {
    EXPECT_EQ(decode({}).status, Uleb128Status::Truncated);
    const auto r = decode({0x80, 0x80});
    EXPECT_EQ(r.status, Uleb128Status::Truncated);
    EXPECT_EQ(r.length, 2u);
}

TEST(Uleb128, TenByteMaximumAndOverflow) {
    // 2^64 - 1 takes ten bytes, the last one carrying only bit 63.
    std::vector<std::uint8_t> max(9, 0xff);
    max.push_back(0x01);
    auto r = decode(max);
    EXPECT_TRUE(r.ok());
    EXPECT_EQ(r.value, std::numeric_limits<std::uint64_t>::max());
    EXPECT_EQ(r.length, 10u);

    std::vector<std::uint8_t> lost(9, 0xff);
    lost.push_back(0x02);  // bit 64
    r = decode(lost);
    EXPECT_EQ(r.status, Uleb128Status::Overflow);
    EXPECT_EQ(r.length, 10u);

    std::vector<std::uint8_t> eleven(10, 0x80);
    eleven.push_back(0x00);
    r = decode(eleven);
    EXPECT_EQ(r.status, Uleb128Status::Overflow);
    EXPECT_EQ(r.length, 10u);

    std::vector<std::uint8_t> zeroPadded(9, 0x80);
    zeroPadded.push_back(0x00);
    EXPECT_EQ(decode(zeroPadded).status, Uleb128Status::NonShortest);
}

TEST(Uleb128, EncodeRoundTripsAndIsShortest) {
    const std::uint64_t values[] = {0,          1,
                                    127,        128,
                                    16383,      16384,
                                    1u << 31,   (1ull << 63) - 1,
                                    1ull << 63, std::numeric_limits<std::uint64_t>::max()};
    for (const std::uint64_t v : values) {
        std::vector<std::uint8_t> out;
        appendUleb128(out, v);
        EXPECT_EQ(out.size(), uleb128Size(v)) << v;
        const auto r = decodeUleb128(out);
        EXPECT_TRUE(r.ok()) << v;
        EXPECT_EQ(r.value, v);
        EXPECT_EQ(r.length, out.size());
    }
    EXPECT_EQ(uleb128Size(127), 1u);
    EXPECT_EQ(uleb128Size(128), 2u);
    EXPECT_EQ(uleb128Size(std::numeric_limits<std::uint64_t>::max()), 10u);
}

TEST(Uleb128, DecodesFromASource) {
    const auto source = makeBufferSource(std::vector<std::uint8_t>{0x01, 0x80, 0x01, 0x80});
    auto r = decodeUleb128At(*source, 1);
    EXPECT_TRUE(r.ok());
    EXPECT_EQ(r.value, 128u);
    EXPECT_EQ(decodeUleb128At(*source, 3).status, Uleb128Status::Truncated);
    EXPECT_EQ(decodeUleb128At(*source, 100).status, Uleb128Status::Truncated);
}

}  // namespace
}  // namespace strata
