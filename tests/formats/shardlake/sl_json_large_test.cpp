// A JSON file too large to load (a dataset's metadata.json at ten million vectors) is checked
// by a pass that keeps no tree: the same verdicts as loading it, on small inputs.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <random>

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

// Over generated damage (every cut, random byte changes) of a metadata file, the pass that
// keeps no tree gives the verdict a full parse gives: one JSON object or not.
TEST(ShardlakeLargeJson, AgreesWithTheFullParseOnGeneratedDamage) {
    const std::string good =
        R"({"0": {"n": 0, "tags": ["a", "b"]}, "1": null, "2": {"x": [1.5, -2e3, true]}})";
    std::vector<std::string> cases;
    for (std::size_t cut = 0; cut <= good.size(); ++cut) {
        cases.push_back(good.substr(0, cut));
    }
    std::mt19937 random(28);
    const std::string alphabet = "{}[]:,\" 0123456789.-eEtrufalsn\\x";
    for (int i = 0; i < 2000; ++i) {
        std::string text = good;
        for (int changes = 1 + static_cast<int>(random() % 3); changes > 0; --changes) {
            text[random() % text.size()] = alphabet[random() % alphabet.size()];
        }
        cases.push_back(std::move(text));
    }
    for (const std::string& text : cases) {
        const auto parsed = nlohmann::json::parse(text, nullptr, false);
        const bool oneObject = !parsed.is_discarded() && parsed.is_object();
        EXPECT_EQ(!problemOf(text).has_value(), oneObject) << text;
    }
}

}  // namespace
}  // namespace strata::shardlake
