// Hostile input at scale, read and written back: a 100 MB single line, NUL bytes, deeply
// nested brackets, a directory document with 100 000 parts. Nothing crashes, what is accepted
// reads back the same after a save, and what is refused is refused with a diagnostic. A corpus
// of thousands of files keeps no copy, mapping or descriptor of any of them once read.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <set>

#include "formats/ozdf/ozdf_diagnostics.h"
#include "formats/ozdf/ozdf_diff.h"
#include "formats/ozdf/ozdf_json.h"
#include "formats/ozdf/ozdf_parser.h"
#include "formats/ozdf/ozdf_save.h"
#include "formats/ozdf/ozdf_writer.h"
#include "ozdf_test_support.h"
#include "process_resources.h"

namespace strata::ozdf {
namespace {

using strata::test::descriptorCount;
using strata::test::mappingsUnder;

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

// Parts are found from KEY- on in the sorted folder: the neighbours of a list's parts (another
// key starting the same, a name without a number, files of no list) are told apart as the glob
// the reference uses tells them apart.
TEST(OzdfHostileScale, PartsAreFoundByTheirKeyAmongTheirNeighbours) {
    const fs::path folder = scratch("neighbours") / "doc";
    fs::create_directories(folder);
    std::ofstream(folder / "_metadata.ozdf") << "#### [[A]]\n\n#### [[A B]]\n\n";
    for (const char* name : {"A-01.ozdp", "A-02.ozdp", "A_B-01.ozdp", "A-x.ozdp", "AA-01.ozdp",
                             "A.ozdp", "A-03.txt", "-01.ozdp", "@-01.ozdp"}) {
        std::ofstream(folder / name) << "#### DATA\n" << name << "\n";
    }
    const Document d = readDocument(folder);
    ASSERT_EQ(d.elements.size(), 2U);
    ASSERT_EQ(d.elements[0].items.size(), 2U);
    EXPECT_EQ(d.elements[0].items[1].paragraphs.at(0).text, "A-02.ozdp");
    ASSERT_EQ(d.elements[1].items.size(), 1U);
    EXPECT_EQ(d.elements[1].items[0].partFile, "A_B-01.ozdp");
    std::multiset<std::string> seen;
    std::set<std::string> ignored;
    for (const Diagnostic& diagnostic : d.diagnostics) {
        seen.insert(diagnostic.code);
        if (diagnostic.code == codes::kPartIgnored) {
            ignored.insert(fs::path(diagnostic.file).filename().string());
        }
    }
    EXPECT_EQ(seen.count(std::string(codes::kPartName)), 1U);  // A-x.ozdp
    EXPECT_EQ(ignored, (std::set<std::string>{"AA-01.ozdp", "A.ozdp", "-01.ozdp", "@-01.ozdp"}));
    fs::remove_all(folder.parent_path());
}

std::string viewText(const Region& r) {
    const ByteView v = r.source->view(r.offset, r.length);
    return {reinterpret_cast<const char*>(v.data()), v.size()};
}

// Read files used to stay in memory for the corpus's life: copied up to 4 MiB, mapped beyond
// (a hundred thousand of them exhausted the mappings), with a descriptor from 16 MiB (a thousand
// of those exhausted the descriptors). Now every file is read again when viewed.
TEST(OzdfHostileScale, ACorpusKeepsNoCopyMappingOrDescriptorPerFile) {
    const fs::path folder = scratch("held");
    constexpr int kDocuments = 3000;
    constexpr int kParts = 500;
    for (int i = 0; i < kDocuments; ++i) {
        char name[32];
        std::snprintf(name, sizeof name, "d%05d.ozdf", i);
        // Blank lines the reader keeps nothing of: a copy of the file would show in memory.
        std::ofstream(folder / name) << "#### TEXT\nline " << i << "\n" << std::string(2000, '\n');
    }
    fs::create_directories(folder / "parts");
    std::ofstream(folder / "parts" / "_metadata.ozdf") << "#### [[P]]\n\n";
    for (int i = 1; i <= kParts; ++i) {
        std::ofstream(folder / "parts" / ("P-" + std::to_string(i) + ".ozdp"))
            << "#### DATA\np" << i << "\n";
    }
    // Past the copy limit (mapped) and past the descriptor limit (16 MiB).
    std::ofstream(folder / "z_big.ozdf") << "#### BIG\nbig\n" << std::string(5U << 20U, '\n');
    std::ofstream(folder / "z_huge.ozdf") << "#### HUGE\nhuge\n" << std::string(17U << 20U, '\n');

    const std::size_t descriptors = descriptorCount();
    auto corpus = std::make_shared<const Corpus>(readCorpus(folder));
    EXPECT_EQ(mappingsUnder(folder), 0u);
    EXPECT_LE(descriptorCount(), descriptors);
    ASSERT_TRUE(corpus->accepted());
    ASSERT_EQ(corpus->documents.size(), static_cast<std::size_t>(kDocuments) + 3);
    const Document& first = corpus->documents.front();
    const Document& parts = corpus->documents[kDocuments];
    const Document& huge = corpus->documents.back();
    ASSERT_EQ(parts.elements.at(0).items.size(), static_cast<std::size_t>(kParts));
    ASSERT_EQ(parts.sources.size(), static_cast<std::size_t>(kParts) + 1);
    // The regions are the file's bytes at the offsets the parse found.
    EXPECT_EQ(viewText(first.elements.at(0).paragraphs.at(0).region), "line 0");
    EXPECT_EQ(viewText(parts.elements[0].items[kParts - 1].paragraphs.at(0).region), "p500");
    EXPECT_EQ(viewText(huge.elements.at(0).paragraphs.at(0).region), "huge");
    EXPECT_EQ(huge.mainSource()->size(), 15U + (17U << 20U));

    // Compared with itself: no difference, and still nothing held.
    test::CountingDiffSink sink;
    EXPECT_EQ(makeOzdfDiffer({nullptr, corpus, nullptr}, {nullptr, corpus, nullptr})->run(sink, {}),
              JobOutcome::Completed);
    EXPECT_EQ(sink.count, 0U);
    EXPECT_EQ(mappingsUnder(folder), 0u);

    // Once the files are gone nothing of them is left: no copy or mapping still shows them.
    fs::remove_all(folder);
    for (const Document& d : corpus->documents) {
        for (const ByteSourcePtr& source : d.sources) {
            ASSERT_TRUE(source->view(0, source->size()).empty()) << source->name();
        }
    }
}

}  // namespace
}  // namespace strata::ozdf
