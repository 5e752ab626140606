// A corpus listed at open (ListedCorpus) reads as readCorpus reads it: the same documents in
// the same order, the same diagnostics, validator verdicts and comparisons; its tree reads a
// document only when that document's node is made; a cancelled read gives nothing and leaves
// the next read whole.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

#include "formats/builtin/builtin_formats.h"
#include "formats/common/validator.h"
#include "formats/ozdf/ozdf_diff.h"
#include "formats/ozdf/ozdf_format.h"
#include "formats/ozdf/ozdf_json.h"
#include "formats/ozdf/ozdf_listed_corpus.h"
#include "formats/ozdf/ozdf_parser.h"
#include "formats/ozdf/ozdf_tree.h"
#include "formats/ozdf/ozdf_validator.h"
#include "ozdf_test_support.h"

namespace strata::ozdf {
namespace {

namespace fs = std::filesystem;

void write(const fs::path& path, const std::string& text) {
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
}

// Standalone documents, a directory document, a refused document, a sub-folder the reference
// skips and a part file that belongs to no document.
fs::path makeCorpus(const std::string& name, int documents) {
    const fs::path root =
        fs::temp_directory_path() / ("strata_listed_" + name + "_" + std::to_string(::getpid()));
    fs::remove_all(root);
    for (int i = 0; i < documents; ++i) {
        write(root / ("d" + std::to_string(1000 + i) + ".ozdf"),
              "#### TITLE\ndocument " + std::to_string(i) + "\n\n#### [NOTES]\n==== a\none\n");
    }
    write(root / "dir" / "_metadata.ozdf", "#### TITLE\na directory document\n");
    write(root / "broken.ozdf", "text before any header\n#### \n");
    write(root / "skipped" / "inner.ozdf", "#### A\nb\n");
    write(root / "loose.ozdp", "#### DATA\nx\n");
    return root;
}

std::vector<std::string> messages(const std::vector<Diagnostic>& diagnostics) {
    std::vector<std::string> out;
    for (const Diagnostic& d : diagnostics) {
        out.push_back(d.code + " " + d.message);
    }
    return out;
}

struct Collected final : DiagnosticSink {
    std::vector<std::string> lines;

protected:
    void accept(Diagnostic d) override { lines.push_back(d.code + " " + d.message); }
};

TEST(OzdfListedCorpus, ReadsWhatReadCorpusReads) {
    const fs::path root = makeCorpus("same", 20);
    const Corpus eager = readCorpus(root);
    const auto listed = ListedCorpus::list(root);
    ASSERT_EQ(listed->size(), eager.documents.size());
    for (std::size_t i = 0; i < listed->size(); ++i) {
        EXPECT_EQ(listed->filename(i), eager.documents[i].filename);
        EXPECT_EQ(listed->document(i)->filename, eager.documents[i].filename);
    }
    const auto whole = listed->corpus();
    ASSERT_TRUE(whole);
    EXPECT_EQ(corpusJson(*whole).dump(), corpusJson(eager).dump());
    EXPECT_EQ(messages(whole->diagnostics), messages(eager.diagnostics));
    for (std::size_t i = 0; i < eager.documents.size(); ++i) {
        EXPECT_EQ(messages(whole->documents[i].diagnostics),
                  messages(eager.documents[i].diagnostics));
    }
    // The same corpus, kept: a second caller gets it without reading again.
    EXPECT_EQ(listed->corpus().get(), whole.get());
    fs::remove_all(root);
}

TEST(OzdfListedCorpus, ValidatesAndComparesAsTheCorpusReadAtOnce) {
    const fs::path root = makeCorpus("verdicts", 12);
    auto eager = std::make_shared<const Corpus>(readCorpus(root));
    const auto listed = ListedCorpus::list(root);

    Collected fromEager;
    Collected fromListed;
    ASSERT_EQ(makeOzdfCorpusValidator(eager)->run(fromEager, {}), JobOutcome::Completed);
    ASSERT_EQ(makeOzdfListedCorpusValidator(listed)->run(fromListed, {}), JobOutcome::Completed);
    EXPECT_EQ(fromListed.lines, fromEager.lines);
    EXPECT_FALSE(fromEager.lines.empty());  // the refused document and the folder's problems

    test::CountingDiffSink differences;
    auto differ = makeOzdfDiffer({nullptr, nullptr, listed}, {nullptr, eager, nullptr});
    EXPECT_EQ(differ->run(differences, {}), JobOutcome::Completed);
    EXPECT_EQ(differences.count, 0U);
    fs::remove_all(root);
}

TEST(OzdfListedCorpus, TheTreeReadsADocumentWhenItsNodeIsMade) {
    const fs::path root = makeCorpus("tree", 50);
    const auto listed = ListedCorpus::list(root);
    const auto node = buildListedCorpusNode(listed);
    ASSERT_EQ(node->childCount(), listed->size());
    EXPECT_EQ(node->value(), std::to_string(listed->size()) + " documents");

    const Node* fifth = node->child(5);
    EXPECT_EQ(fifth->label(), listed->filename(5));
    const auto read = listed->document(5);
    ASSERT_FALSE(read->sources.empty());
    EXPECT_EQ(listed->documentHolding(read->sources[0].get()), 5U);
    EXPECT_EQ(listed->openedSource(read->sources[0].get()), read->sources[0]);
    // No other document was read: only document 5's files are known.
    const auto other = readCorpusEntry(listed->listing().entries[6]);
    EXPECT_FALSE(listed->documentHolding(other.sources[0].get()));
    // A byte of document 5 leads to its node without making the other 50.
    const Node* atFirstByte = node->deepestAt(0, read->sources[0].get());
    ASSERT_NE(atFirstByte, nullptr);
    EXPECT_EQ(atFirstByte->parent(), fifth);  // its first block

    // The same nodes as the tree of the corpus read at once.
    const auto eager = buildCorpusNode(readCorpus(root));
    for (std::uint64_t i = 0; i < eager->childCount(); ++i) {
        EXPECT_EQ(node->child(i)->label(), eager->child(i)->label());
        EXPECT_EQ(node->child(i)->value(), eager->child(i)->value());
        EXPECT_EQ(node->child(i)->status(), eager->child(i)->status());
    }
    fs::remove_all(root);
}

TEST(OzdfListedCorpus, ACancelledReadGivesNothingAndTheNextReadsEverything) {
    const fs::path root = makeCorpus("cancel", 40);
    const auto listed = ListedCorpus::list(root);
    CancelToken cancel;
    cancel.cancel();
    std::size_t seen = 0;
    const auto stopped = listed->corpus(&cancel, [&](std::size_t n) { seen = n; });
    EXPECT_EQ(stopped, nullptr);
    EXPECT_LE(seen, 2U);  // each thread stops at the first document it picks
    const auto whole = listed->corpus();
    ASSERT_TRUE(whole);
    EXPECT_EQ(corpusJson(*whole).dump(), corpusJson(readCorpus(root)).dump());
    fs::remove_all(root);
}

TEST(OzdfListedCorpus, AnUnreadableDocumentIsANodeWithItsErrorNotAThrow) {
    const fs::path root = makeCorpus("unreadable", 3);
    const auto listed = ListedCorpus::list(root);
    fs::remove(root / listed->filename(1));
    const auto node = buildListedCorpusNode(listed);
    EXPECT_EQ(node->child(1)->status(), Status::Error);
    EXPECT_NE(node->child(1)->value().find(listed->filename(1)), std::string::npos);
    // The whole read reports it as readCorpus does a document that vanished mid-read.
    const auto whole = listed->corpus();
    ASSERT_TRUE(whole);
    EXPECT_EQ(whole->documents.size(), listed->size() - 1);
    EXPECT_FALSE(whole->accepted());
    fs::remove_all(root);
}

TEST(OzdfListedCorpus, OpeningALocalCorpusReadsNoDocument) {
    const fs::path root = makeCorpus("open", 30);
    const auto opened = builtinFormats().open(root);
    ASSERT_TRUE(opened);
    const auto listed = openedAs<ListedCorpus>(*opened);
    ASSERT_TRUE(listed);
    EXPECT_TRUE(opened->sources.empty());
    EXPECT_EQ(opened->root->childCount(), listed->size());
    // The facts say what the listing knows.
    EXPECT_EQ(opened->facts.at(1),
              std::make_pair(std::string("documents"), std::to_string(listed->size())));
    const Node* first = opened->root->child(0);
    const auto source = listed->document(0)->sources.at(0);
    EXPECT_EQ(opened->sourceOpenedLater(source.get()), source);
    EXPECT_EQ(first->label(), listed->filename(0));
    fs::remove_all(root);
}

}  // namespace
}  // namespace strata::ozdf
