// Hostile input at scale, read and written back: a 100 MB single line, NUL bytes, deeply
// nested brackets, a directory document with 100 000 parts. Nothing crashes, what is accepted
// reads back the same after a save, and what is refused is refused with a diagnostic.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

#include "formats/ozdf/ozdf_json.h"
#include "formats/ozdf/ozdf_parser.h"
#include "formats/ozdf/ozdf_save.h"
#include "formats/ozdf/ozdf_writer.h"

namespace strata::ozdf {
namespace {

namespace fs = std::filesystem;

Document readText(std::string_view text) {
    return readDocumentSource(makeBufferSource(text, "h.ozdf"), "h.ozdf");
}

fs::path scratch(const std::string& name) {
    const fs::path p =
        fs::temp_directory_path() / ("strata_ozdf_" + name + "_" + std::to_string(::getpid()));
    fs::remove_all(p);
    fs::create_directories(p);
    return p;
}

TEST(OzdfHostileScale, HundredMegabyteSingleLineReadsAndWritesBack) {
    std::string text = "#### BODY\n";
    text.append(100U << 20U, 'x');
    const Document d = readText(text);
    ASSERT_TRUE(d.accepted());
    ASSERT_EQ(d.elements.at(0).paragraphs.at(0).text.size(), 100U << 20U);
    // One word longer than a line: written on a line of its own, unwrapped.
    const std::string written = writeDocumentText(d);
    EXPECT_EQ(written.size(), text.size() + 2);
    const Document again = readText(written);
    EXPECT_EQ(again.elements.at(0).paragraphs.at(0).text.size(), 100U << 20U);
}

TEST(OzdfHostileScale, NulBytesAreTextAndSurviveASave) {
    const std::string text =
        std::string("#### A\nbefore\0after\n\n#### [L]\n==== n\0m\nx\0\0y\n", 44);
    const Document d = readText(text);
    ASSERT_TRUE(d.accepted());
    EXPECT_EQ(d.elements.at(0).paragraphs.at(0).text, std::string("before\0after", 12));
    const fs::path folder = scratch("nul");
    Corpus corpus;
    corpus.documents.push_back(d);
    saveCorpusToFolder(corpus, folder / "c");
    const Corpus back = readCorpus(folder / "c");
    ASSERT_EQ(back.documents.size(), 1U);
    EXPECT_EQ(documentJson(back.documents[0])
                  .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace),
              documentJson(d).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    fs::remove_all(folder);
}

TEST(OzdfHostileScale, DeeplyNestedBracketsAreANameNotARecursion) {
    constexpr std::size_t kDepth = 1U << 20U;
    std::string text =
        "#### " + std::string(kDepth, '[') + "X" + std::string(kDepth, ']') + "\n==== a\ntext\n";
    const Document d = readText(text);
    ASSERT_EQ(d.elements.size(), 1U);
    // `[[...]]` in a standalone document: refused (external list), but read without trouble.
    EXPECT_FALSE(d.accepted());
    std::string unbalanced = "#### " + std::string(kDepth, '[') + "X\nline\n";
    const Document u = readText(unbalanced);
    ASSERT_EQ(u.elements.size(), 1U);
    EXPECT_EQ(u.elements[0].kind, ElementKind::Block);
}

TEST(OzdfHostileScale, HundredThousandPartsReadAndCheckCanonically) {
    const fs::path folder = scratch("100k") / "doc";
    fs::create_directories(folder);
    std::ofstream(folder / "_metadata.ozdf") << "#### [[P]]\n\n";
    constexpr int kParts = 100000;
    for (int i = 1; i <= kParts; ++i) {
        char name[32];
        std::snprintf(name, sizeof name, "P-%06d.ozdp", i);
        std::ofstream(folder / name) << "#### DATA\np" << i << "\n\n";
    }
    const Document d = readDocument(folder);
    ASSERT_TRUE(d.accepted());
    ASSERT_EQ(d.elements.at(0).items.size(), static_cast<std::size_t>(kParts));
    EXPECT_EQ(d.elements[0].items[99999].paragraphs.at(0).text, "p100000");
    // The canonical names are the same (six digits for 100000 parts): nothing to rewrite.
    const DocumentFootprint before = footprintOf(d);
    SaveOptions dry;
    dry.dryRun = true;
    const SaveReport report = saveDocumentInPlace(d, folder.parent_path(), &before, dry);
    EXPECT_EQ(report.written.size(), 0U);
    EXPECT_EQ(report.removed.size(), 0U);
    EXPECT_EQ(report.unchanged, static_cast<std::size_t>(kParts) + 1);
    fs::remove_all(folder.parent_path());
}

}  // namespace
}  // namespace strata::ozdf
