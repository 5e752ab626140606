// JSON values compared exactly (formats/common/json_diff.h): integers of any length, decimals by
// the decimal number they write, never through a double.
#include <gtest/gtest.h>

#include "formats/common/json_diff.h"

namespace strata {
namespace {

bool same(std::string_view a, std::string_view b) {
    const auto ja = parseJsonExact(a), jb = parseJsonExact(b);
    EXPECT_TRUE(ja && jb) << a << " / " << b;
    return ja && jb && sameJsonValue(*ja, *jb);
}

std::vector<DiffField> fields(std::string_view a, std::string_view b) {
    std::vector<DiffField> out;
    std::size_t more = 0;
    diffJsonValues(*parseJsonExact(a), *parseJsonExact(b), "$", out, more, 200);
    return out;
}

TEST(JsonDiff, IntegersOfAnyLengthCompareExactly) {
    EXPECT_FALSE(same("12345678901234567890123456789890", "12345678901234567890123456789891"));
    EXPECT_FALSE(same("-98765432109876543210", "-98765432109876543211"));
    EXPECT_FALSE(same("9223372036854775808", "-9223372036854775808"));
    EXPECT_FALSE(same("18446744073709551615", "-1"));
    EXPECT_TRUE(same("12345678901234567890123456789890", "12345678901234567890123456789890"));
    const auto f = fields(R"({"n":12345678901234567890123456789890})",
                          R"({"n":12345678901234567890123456789891})");
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].path, "$.n");
    EXPECT_EQ(f[0].a, "12345678901234567890123456789890");  // shown as written
    EXPECT_EQ(f[0].b, "12345678901234567890123456789891");
}

TEST(JsonDiff, DecimalsAreTheSameOnlyWhenTheyAreTheSameNumber) {
    EXPECT_TRUE(same("0.1", "0.10"));
    EXPECT_TRUE(same("1", "1.0"));
    EXPECT_TRUE(same("100", "1e2"));
    EXPECT_TRUE(same("1E+2", "100.000"));
    EXPECT_TRUE(same("0.5", "5e-1"));
    EXPECT_TRUE(same("-0", "0.0"));
    EXPECT_FALSE(same("0.1", "0.1000000000000000055511151231257827"));  // one double, two numbers
    EXPECT_FALSE(same("1e300", "1.0000000000000000000001e300"));
    EXPECT_FALSE(same("2.5", "-2.5"));
    EXPECT_TRUE(fields(R"([1.50, {"x": 2e0}])", R"([1.5, {"x": 2}])").empty());
}

TEST(JsonDiff, OtherValuesCompareAsBefore) {
    EXPECT_FALSE(same(R"("1")", "1"));
    EXPECT_FALSE(same("true", "1"));
    EXPECT_TRUE(same(R"({"a":[1,null,"x"],"b":{}})", R"({"b":{},"a":[1,null,"x"]})"));
    const auto f = fields(R"({"a":1,"b":[1,2]})", R"({"a":1.5,"b":[1],"c":null})");
    ASSERT_EQ(f.size(), 3u);
    EXPECT_EQ(f[0].path, "$.a");
    EXPECT_EQ(f[1].path, "$.b[1]");
    EXPECT_EQ(f[1].kind, DiffKind::Removed);
    EXPECT_EQ(f[2].path, "$.c");
    EXPECT_EQ(f[2].kind, DiffKind::Added);
    EXPECT_FALSE(parseJsonExact("{\"a\":1,}"));
    EXPECT_FALSE(parseJsonExact("[1] 2"));
}

}  // namespace
}  // namespace strata
