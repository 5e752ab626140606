// JSON forms of OZDF: the dump equals the reference's reading; JSONL export → import → read
// gives back the same documents; bad JSONL is refused with the line that is wrong.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "formats/common/byte_source.h"
#include "formats/ozdf/ozdf_json.h"
#include "formats/ozdf/ozdf_parser.h"
#include "formats/ozdf/ozdf_save.h"
#include "formats/ozdf/ozdf_writer.h"
#include "ozdf_test_support.h"

namespace strata::ozdf {
namespace {

namespace fs = std::filesystem;
using test::corpusDir;

nlohmann::json plain(const OrderedJson& json) {
    return nlohmann::json::parse(json.dump());
}

// An item named "" is written like an unnamed one and reads back unnamed (as with the
// reference), so the round trip compares it as unnamed.
nlohmann::json emptyNamesAsNull(nlohmann::json corpus) {
    for (auto& document : corpus["documents"]) {
        for (auto& element : document["elements"]) {
            if (!element.contains("items")) {
                continue;
            }
            for (auto& item : element["items"]) {
                if (item["name"] == "") {
                    item["name"] = nullptr;
                }
            }
        }
    }
    return corpus;
}

nlohmann::json loadJson(const fs::path& path) {
    std::ifstream in(path);
    return nlohmann::json::parse(in);
}

TEST(OzdfJson, DumpEqualsTheReferenceForEveryValidCase) {
    STRATA_SKIP_WITHOUT_CORPUS();
    const fs::path root = corpusDir();
    std::size_t checked = 0;
    const nlohmann::json index = loadJson(root / "expected" / "index.json");
    for (const nlohmann::json& entry : index["cases"]) {
        const fs::path path = root / entry["input"].get<std::string>().substr(7);
        if (!fs::exists(path)) {
            continue;  // the empty corpus: git keeps no empty folders
        }
        SCOPED_TRACE(path.string());
        bool accepted = false;
        const OrderedJson dump = dumpJson(path, &accepted);
        EXPECT_TRUE(accepted);
        EXPECT_EQ(plain(dump), loadJson(root / entry["expected"].get<std::string>())["result"]);
        ++checked;
    }
    EXPECT_GE(checked, 50U);
}

TEST(OzdfJson, ExportImportRoundTripsEveryValidCorpus) {
    STRATA_SKIP_WITHOUT_CORPUS();
    const fs::path valid = corpusDir() / "valid" / "handwritten";
    for (const fs::path& folder : {valid / "docs", valid / "dirdocs", valid / "corpora" / "mixed",
                                   corpusDir() / "valid" / "written_by_reference" / "api_corpus"}) {
        SCOPED_TRACE(folder.string());
        const Corpus original = readCorpus(folder);
        std::stringstream jsonl;
        exportJsonl(original, jsonl);
        const Corpus imported = importJsonl(jsonl);
        const fs::path out = fs::temp_directory_path() / "strata_ozdf_jsonl_roundtrip";
        fs::remove_all(out);
        saveCorpusToFolder(imported, out);
        // Standalone names not ending in .ozdf are not part of a corpus, so compare what a
        // corpus read gives on both sides.
        const nlohmann::json got = plain(corpusJson(readCorpus(out)));
        const nlohmann::json want = emptyNamesAsNull(plain(corpusJson(original)));
        EXPECT_EQ(got, want) << nlohmann::json::diff(got, want).dump();
        fs::remove_all(out);
    }
}

void expectRefused(const std::string& jsonl, const std::string& needle) {
    std::istringstream in(jsonl);
    try {
        importJsonl(in);
        ADD_FAILURE() << "accepted: " << jsonl;
    } catch (const JsonImportError& error) {
        EXPECT_NE(std::string(error.what()).find(needle), std::string::npos) << error.what();
    }
}

TEST(OzdfJson, BadLinesAreRefusedWithTheirNumber) {
    const std::string good = R"({"filename":"a.ozdf","is_directory":false,"elements":[]})";
    expectRefused(good + "\n{not json\n", "line 2");
    expectRefused(R"({"filename":"a.ozdf","is_directory":false})", "elements");
    expectRefused(R"({"filename":"../x.ozdf","is_directory":false,"elements":[]})", "unsafe");
    expectRefused(R"({"filename":"a.txt","is_directory":false,"elements":[]})", ".ozdf");
    expectRefused(good + "\n" + good, "duplicate");
    expectRefused(R"({"filename":"a.ozdf","is_directory":false,"elements":[{"kind":"table"}]})",
                  "unknown element kind");
    expectRefused(
        R"({"filename":"a.ozdf","is_directory":false,"elements":[{"kind":"block","name":"A","paragraphs":[1]}]})",
        "expected a string");
    expectRefused("{\"filename\":\"a\xff.ozdf\",\"is_directory\":false,\"elements\":[]}", "line 1");
}

TEST(OzdfJson, ImportUpperCasesNamesAndKeepsItemNames) {
    std::istringstream in(
        R"({"filename":"d","is_directory":true,"elements":[{"kind":"external_list","name":"straße","items":[{"name":"Mixed Case","paragraphs":["x"]},{"name":null,"paragraphs":[]}]}]})");
    const Corpus corpus = importJsonl(in);
    ASSERT_EQ(corpus.documents.size(), 1U);
    const Element& list = corpus.documents[0].elements.at(0);
    EXPECT_EQ(list.name, "STRASSE");
    EXPECT_EQ(list.items.at(0).name.value_or(""), "Mixed Case");
    EXPECT_FALSE(list.items.at(1).name.has_value());
}

std::string oneDocument(const std::string& elements, bool directory = false) {
    return std::string(R"({"filename":")") + (directory ? "d" : "a.ozdf") + R"(","is_directory":)" +
           (directory ? "true" : "false") + R"(,"elements":[)" + elements + "]}";
}

TEST(OzdfJson, ImportRefusesWhatCouldNotBeWrittenAndReadBack) {
    const std::string block = R"({"kind":"block","name":"A","paragraphs":["x"]})";
    expectRefused(oneDocument(block + "," + R"({"kind":"block","name":"a","paragraphs":[]})"),
                  "elements[1]");
    expectRefused(oneDocument(R"({"kind":"block","name":"comment","paragraphs":[]})"), "COMMENT");
    expectRefused(oneDocument(R"({"kind":"block","name":"[X]","paragraphs":[]})"), "brackets");
    expectRefused(oneDocument(R"({"kind":"block","name":"A\nB","paragraphs":[]})"), "line break");
    expectRefused(oneDocument(R"({"kind":"block","name":"A","paragraphs":["### x"]})"),
                  "paragraphs[0]");
    expectRefused(oneDocument(R"({"kind":"block","name":"A","paragraphs":["  "]})"),
                  "paragraphs[0]");
    expectRefused(oneDocument(R"({"kind":"comment","text":"ok\n  #### HEADER"})"), "comment");
    expectRefused(oneDocument(R"({"kind":"external_list","name":"E","items":[]})"), "directory");
    expectRefused(oneDocument(R"({"kind":"external_list","name":"A B","items":[]},)"
                              R"({"kind":"external_list","name":"A_B","items":[]})",
                              true),
                  "part files");
    expectRefused(
        oneDocument(R"({"kind":"list","name":"L","items":[{"name":"x\ny","paragraphs":[]}]})"),
        "items[0]");
}

TEST(OzdfJson, ImportNormalisesAsTheReaderWould) {
    std::istringstream in(oneDocument(
        R"({"kind":"block","name":" straße ","paragraphs":["a  b\t c\n\nsecond"]},)"
        R"({"kind":"list","name":"l","items":[{"name":"  ","paragraphs":[]},{"name":" Keep Me ","paragraphs":["z"]}]},)"
        R"({"kind":"comment","text":"note"},{"kind":"block","name":"Z","paragraphs":[]})"));
    const Corpus corpus = importJsonl(in);
    ASSERT_EQ(corpus.documents.size(), 1U);
    const Document& d = corpus.documents[0];
    ASSERT_EQ(d.elements.size(), 4U);
    EXPECT_EQ(d.elements[0].name, "STRASSE");
    ASSERT_EQ(d.elements[0].paragraphs.size(), 2U);
    EXPECT_EQ(d.elements[0].paragraphs[0].text, "a b c");
    EXPECT_EQ(d.elements[0].paragraphs[1].text, "second");
    EXPECT_EQ(d.elements[1].name, "L");
    EXPECT_FALSE(d.elements[1].items.at(0).name.has_value());
    EXPECT_EQ(d.elements[1].items.at(1).name.value_or(""), "Keep Me");
    // A comment without a final blank line still lets the next header follow it.
    const std::string text = writeDocumentText(d);
    const Document back =
        readDocumentSource(makeBufferSource(std::string_view(text), "a.ozdf"), "a.ozdf");
    EXPECT_TRUE(back.accepted()) << text;
    ASSERT_EQ(back.elements.size(), 4U);
    EXPECT_EQ(back.elements[2].kind, ElementKind::Comment);
    EXPECT_EQ(back.elements[3].name, "Z");
}

TEST(OzdfJson, DeeplyNestedJsonIsRefusedWithoutRecursion) {
    std::string line = R"({"filename":"a.ozdf","is_directory":false,"elements":)";
    line += std::string(200000, '[') + std::string(200000, ']') + "}";
    expectRefused(line, "line 1");
    expectRefused(std::string(500000, '['), "line 1");
}

}  // namespace
}  // namespace strata::ozdf
