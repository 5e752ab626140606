// A JSON file too large to load (a dataset's metadata.json at ten million vectors) is checked
// by a pass that keeps no tree: the same verdicts as loading it, on small inputs.
#include <gtest/gtest.h>

#include "formats/shardlake/shardlake_json.h"

namespace strata::shardlake {
namespace {

std::optional<JsonObjectProblem> problemOf(std::string_view text) {
    return largeJsonObjectProblem(*makeBufferSource(text, "metadata.json"));
}

TEST(ShardlakeLargeJson, OneObjectHasNoProblem) {
    EXPECT_FALSE(problemOf(R"({"1": {"n": 1}, "2": [1, 2, {"x": null}]})"));
    EXPECT_FALSE(problemOf(" {} \n"));
}

TEST(ShardlakeLargeJson, AnotherValueIsNotAnObject) {
    const auto array = problemOf("[1, 2]");
    ASSERT_TRUE(array);
    EXPECT_NE(array->error.find("not a JSON object"), std::string::npos);
    EXPECT_TRUE(problemOf("\"text\""));
}

TEST(ShardlakeLargeJson, DamageIsPlacedAtTheByteTheParserStopped) {
    const std::string_view cutText = R"({"1": {"n": 1}, "2": [1, 2)";
    const auto cut = problemOf(cutText);
    ASSERT_TRUE(cut);
    EXPECT_GE(cut->offset, cutText.size() - 1);  // at the end, where the array is left open
    EXPECT_LE(cut->offset, cutText.size());
    const auto junk = problemOf(R"({"1": 1} trailing)");
    ASSERT_TRUE(junk);
    EXPECT_GE(junk->offset, 9u);  // in the word after the object, not before it
    EXPECT_LE(junk->offset, 17u);
    for (const std::string_view text : {R"({"1": 1} trailing)", "{\"a\": tru}", "{\"a\" 1}"}) {
        EXPECT_EQ(problemOf(text).has_value(), !holdsJsonObject(*makeBufferSource(text))) << text;
    }
}

}  // namespace
}  // namespace strata::shardlake
