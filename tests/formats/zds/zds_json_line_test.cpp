// The writer's fast check of new documents (simdjson) never accepts what the SAX check
// rejects, and finds the same `_id` whenever it accepts.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "formats/common/json_error.h"
#include "formats/zds/zds_json_line.h"

namespace strata {
namespace {

std::span<const std::uint8_t> bytes(const std::string& s) {
    return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

// Whatever provenDocumentId says must agree with analyzeJsonLine.
void expectAgreement(const std::string& text) {
    const zds::JsonLineFacts facts = zds::analyzeJsonLine(bytes(text));
    const auto proven = zds::provenDocumentId(bytes(text));
    if (proven) {
        EXPECT_TRUE(facts.valid && facts.isObject && facts.idIsString) << text;
        EXPECT_EQ(*proven, facts.id) << text;
    }
}

TEST(ZdsJsonLine, FastCheckAcceptsPlainDocuments) {
    EXPECT_EQ(zds::provenDocumentId(bytes(R"({"_id":"k1","i":1,"t":"small doc"})")), "k1");
    EXPECT_EQ(zds::provenDocumentId(bytes(R"( {"a":[1,2,{"b":null}], "_id" : "x\"y"} )")), "x\"y");
    EXPECT_EQ(zds::provenDocumentId(bytes(R"({"_id":1,"_id":"last"})")), "last");
}

TEST(ZdsJsonLine, FastCheckLeavesEveryDoubtToTheFullCheck) {
    const std::vector<std::string> cases = {
        "",
        "   ",
        "[1,2]",
        R"("just a string")",
        R"({"v":1})",
        R"({"_id":7})",
        R"({"_id":"x",)",
        R"({"_id":"a","_id":7})",
        R"({"_id":"a"} x)",
        R"({"_id":"a"}{"_id":"b"})",
        R"({"_id":"\u00e9"})",
        R"({"_id":"\ud800"})",
        R"({"_id":"\udc00x"})",
        R"({"_id":"a","n":1e400})",
        R"({"_id":"a","n":-1e400})",
        R"({"_id":"a","n":1e-400})",
        R"({"_id":"a","n":123456789012345678901234567890})",
        R"({"_id":"a","n":-0})",
        R"({"_id":"a","n":01})",
        R"({"_id":"a","n":1.})",
        R"({"_id":"a","n":NaN})",
        R"({"_id":"a","t":tru})",
        "{\"_id\":\"a\",\"s\":\"tab\there\"}",
        "{\"_id\":\"a\",\"s\":\"\xff\"}",
        "{\"_id\":\"a\",\"s\":\"\xed\xa0\x80\"}",
        "{\"_id\":\"a\",\"s\":\"\xc0\xaf\"}",
        "\xef\xbb\xbf{\"_id\":\"bom\"}",
        "{\"_id\":\"a\"}\xef\xbb\xbf",
        std::string("{\"_id\":\"nul\",\"s\":\"a\0b\"}", 23),
        "{\"_id\":\"a\"}\n",
        "{\"_id\":\"a\"}\r\n",
        "{\"_id\":\"a\",\n\"b\":2}",
    };
    for (const std::string& text : cases) {
        expectAgreement(text);
    }
}

TEST(ZdsJsonLine, DeepNestingAgrees) {
    for (const std::size_t depth : {200u, 255u, 256u, 257u, 511u, 512u, 513u, 2000u}) {
        std::string text = R"({"_id":"deep","v":)";
        text += std::string(depth, '[') + std::string(depth, ']') + "}";
        expectAgreement(text);
        text = R"({"_id":"deep","v":)";
        for (std::size_t i = 0; i < depth; ++i) {
            text += R"({"a":)";
        }
        text += "1" + std::string(depth, '}') + "}";
        expectAgreement(text);
    }
}

// The reason a line is not JSON reads as a sentence, without the library's error tag.
TEST(ZdsJsonLine, ErrorsReadWithoutTheLibrarysTag) {
    const zds::JsonLineFacts facts = zds::analyzeJsonLine(bytes(R"({"_id":"a",)"));
    EXPECT_FALSE(facts.valid);
    EXPECT_TRUE(facts.error.starts_with("parse error at line 1")) << facts.error;
    EXPECT_EQ(jsonErrorText("[json.exception.type_error.302] type must be string"),
              "type must be string");
    EXPECT_EQ(jsonErrorText("no tag here"), "no tag here");
}

}  // namespace
}  // namespace strata
