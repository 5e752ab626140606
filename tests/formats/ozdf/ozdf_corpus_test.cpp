// Every valid input of the OZDF corpus reads to exactly what the reference read from it.
#include <gtest/gtest.h>

#include <fstream>

#include "formats/ozdf/ozdf_parser.h"
#include "ozdf_test_support.h"

namespace strata::ozdf {
namespace {

namespace fs = std::filesystem;
using test::corpusDir;
using test::toJson;

nlohmann::json loadJson(const fs::path& path) {
    std::ifstream in(path);
    return nlohmann::json::parse(in);
}

std::string describeErrors(const std::vector<Diagnostic>& diagnostics) {
    std::string out;
    for (const Diagnostic& d : diagnostics) {
        if (d.severity == Severity::Error) {
            out += d.code + ": " + d.message + " (" + d.fileName() + ")\n";
        }
    }
    return out;
}

TEST(OzdfCorpus, EveryValidCaseReadsLikeTheReference) {
    STRATA_SKIP_WITHOUT_CORPUS();
    const fs::path root = corpusDir();
    const nlohmann::json index = loadJson(root / "expected" / "index.json");
    std::size_t checked = 0;
    for (const nlohmann::json& entry : index["cases"]) {
        std::string input = entry["input"].get<std::string>();
        ASSERT_TRUE(input.starts_with("corpus/"));
        const fs::path path = root / input.substr(7);
        const nlohmann::json expected = loadJson(root / entry["expected"].get<std::string>());
        ASSERT_TRUE(expected["ok"].get<bool>());
        SCOPED_TRACE(input);
        if (entry["mode"] == "corpus") {
            fs::path folder = path;
            fs::path temporary;
            if (!fs::exists(folder)) {
                // Git keeps no empty folders: make the empty corpus here.
                temporary = fs::temp_directory_path() / "strata_ozdf_empty_corpus";
                fs::create_directories(temporary);
                folder = temporary;
            }
            const Corpus corpus = readCorpus(folder);
            EXPECT_TRUE(corpus.accepted()) << describeErrors(corpus.diagnostics);
            for (const Document& d : corpus.documents) {
                EXPECT_TRUE(d.accepted()) << d.filename << "\n" << describeErrors(d.diagnostics);
            }
            EXPECT_EQ(toJson(corpus), expected["result"]);
            if (!temporary.empty()) {
                fs::remove_all(temporary);
            }
        } else {
            const Document document = readDocument(path);
            EXPECT_TRUE(document.accepted()) << describeErrors(document.diagnostics);
            const nlohmann::json result = {{"kind", "document"}, {"document", toJson(document)}};
            EXPECT_EQ(result, expected["result"]);
        }
        ++checked;
    }
    EXPECT_GE(checked, 56U);
}

TEST(OzdfCorpus, ResavedCorporaReadLikeTheReference) {
    STRATA_SKIP_WITHOUT_CORPUS();
    const fs::path resaved = corpusDir() / "expected" / "resaved";
    std::size_t checked = 0;
    for (const auto& entry : fs::directory_iterator(resaved)) {
        if (!entry.is_directory()) {
            continue;
        }
        const fs::path reread = resaved / (entry.path().filename().string() + ".reread.json");
        if (!fs::exists(reread)) {
            continue;
        }
        SCOPED_TRACE(entry.path().string());
        const Corpus corpus = readCorpus(entry.path());
        EXPECT_TRUE(corpus.accepted());
        const nlohmann::json expected = loadJson(reread);
        EXPECT_EQ(toJson(corpus), expected.contains("result") ? expected["result"] : expected);
        ++checked;
    }
    EXPECT_GE(checked, 1U);
}

}  // namespace
}  // namespace strata::ozdf
