// The CBOR pre-scanner that guards the manifest decoder.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "formats/ztensor/zt_cbor_scan.h"

namespace strata {
namespace {

std::vector<std::uint8_t> cbor(const nlohmann::json& value) {
    return nlohmann::json::to_cbor(value);
}

TEST(ZtCborScan, RecordsWhereEachEntryLies) {
    const nlohmann::json doc = {{"tensors", {{"x", {{"shape", {2, 3}}, {"dtype", "int8"}}}}}};
    const auto bytes = cbor(doc);
    const auto result = ztensor::scanCbor(bytes);
    ASSERT_TRUE(result.ok) << result.error;
    EXPECT_EQ(result.end, bytes.size());
    EXPECT_EQ(result.rootMajor, 5);
    const auto it = result.entries.find(ztensor::cborPath({"tensors", "x", "dtype"}));
    ASSERT_NE(it, result.entries.end());
    // The value is the text "int8": one head byte and four characters.
    EXPECT_EQ(it->second.value.length, 5u);
    EXPECT_EQ(std::string(bytes.begin() + static_cast<long>(it->second.value.offset) + 1,
                          bytes.begin() + static_cast<long>(it->second.value.offset) + 5),
              "int8");
    const auto dim = result.entries.find(ztensor::cborPath({"tensors", "x", "shape", "1"}));
    ASSERT_NE(dim, result.entries.end());
    EXPECT_EQ(bytes[dim->second.value.offset], 0x03);
    EXPECT_EQ(ztensor::cborPathText(ztensor::cborPath({"a", "b"})), "a/b");
}

TEST(ZtCborScan, AcceptsIndefiniteLengthContainersAndKeys) {
    // {_ "a": [_ 1, 2], (_ "k", "ey"): "v"}
    const std::vector<std::uint8_t> bytes = {0xBF, 0x61, 'a', 0x9F, 0x01, 0x02, 0xFF, 0x7F, 0x61,
                                             'k',  0x62, 'e', 'y',  0xFF, 0x61, 'v',  0xFF};
    const auto result = ztensor::scanCbor(bytes);
    ASSERT_TRUE(result.ok) << result.error;
    EXPECT_EQ(result.end, bytes.size());
    EXPECT_TRUE(result.entries.count("key"));
    EXPECT_TRUE(result.entries.count(ztensor::cborPath({"a", "1"})));
}

TEST(ZtCborScan, ReportsDuplicateKeys) {
    const std::vector<std::uint8_t> bytes = {0xA2, 0x61, 'a', 0x01, 0x61, 'a', 0x02};
    const auto result = ztensor::scanCbor(bytes);
    ASSERT_TRUE(result.ok);
    ASSERT_EQ(result.duplicateKeys.size(), 1u);
    EXPECT_EQ(result.duplicateKeys[0], "a");
}

TEST(ZtCborScan, RejectsMalformedInput) {
    const std::vector<std::vector<std::uint8_t>> bad = {
        {},                                                      // nothing
        {0x62, 'a'},                                             // string past the end
        {0x1C},                                                  // reserved additional info
        {0xFF},                                                  // break outside a container
        {0x82, 0x01},                                            // array ends early
        {0xBF, 0x61, 'a', 0xFF},                                 // break between key and value
        {0x5F, 0x61, 'a', 0xFF},                                 // text chunk in a byte string
        {0x9B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF},  // absurd count
        {0x1F},                                                  // indefinite integer
        {0xF8, 0x10},                                            // two-byte simple value < 32
        {0x62, 0xC3, 0x28},                                      // text that is not UTF-8
        {0x63, 0xED, 0xA0, 0x80},                                // a surrogate in UTF-8
    };
    for (const auto& bytes : bad) {
        const auto result = ztensor::scanCbor(bytes);
        EXPECT_FALSE(result.ok) << "input of " << bytes.size() << " bytes";
        EXPECT_FALSE(result.error.empty());
    }
}

TEST(ZtCborScan, StopsNestingBombsWithoutRecursion) {
    std::vector<std::uint8_t> arrays(1'000'000, 0x81);
    arrays.push_back(0x00);
    auto result = ztensor::scanCbor(arrays);
    EXPECT_FALSE(result.ok);
    EXPECT_NE(result.error.find("nesting"), std::string::npos) << result.error;

    std::vector<std::uint8_t> tags(1'000'000, 0xC6);
    tags.push_back(0x00);
    result = ztensor::scanCbor(tags);
    EXPECT_FALSE(result.ok);

    std::vector<std::uint8_t> indefinite(1'000'000, 0x9F);
    result = ztensor::scanCbor(indefinite);
    EXPECT_FALSE(result.ok);
}

TEST(ZtCborScan, AcceptsUtf8Text) {
    const auto bytes = cbor(nlohmann::json("größe ✓ 🙂"));
    EXPECT_TRUE(ztensor::scanCbor(bytes).ok);
}

TEST(ZtCborScan, ReportsWhereTheFirstItemEnds) {
    const std::vector<std::uint8_t> bytes = {0xA0, 0x00, 0x00};
    const auto result = ztensor::scanCbor(bytes);
    ASSERT_TRUE(result.ok);
    EXPECT_EQ(result.end, 1u);
}

}  // namespace
}  // namespace strata
