// Damage that reads without an error by the reference's rules but loses data: part files
// whose `_metadata.ozdf` is gone (alone and in a corpus), and the temporary files of killed
// saves.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

#include "formats/builtin/builtin_formats.h"
#include "formats/ozdf/ozdf_parser.h"
#include "formats/ozdf/ozdf_validator.h"

namespace strata::ozdf {
namespace {

namespace fs = std::filesystem;

class OzdfDamageTest : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() /
               ("strata-ozdf-damage-" + std::to_string(::getpid()) + "-" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }
    void TearDown() override {
        std::error_code ec;
        fs::remove_all(dir_, ec);
    }

    static void put(const fs::path& path, std::string_view text) {
        fs::create_directories(path.parent_path());
        std::ofstream(path, std::ios::binary) << text;
    }
    static void putParts(const fs::path& folder) {
        put(folder / "BOOK-01.ozdp", "#### DATA\nOne.\n");
        put(folder / "BOOK-02.ozdp", "#### DATA\nTwo.\n");
    }

    static std::vector<Diagnostic> validate(const fs::path& path) {
        auto opened = builtinFormats().open(path);
        CollectingSink sink;
        opened->makeValidator()->run(sink, {});
        return sink.diagnostics();
    }
    static const Diagnostic* find(const std::vector<Diagnostic>& all, std::string_view code) {
        for (const Diagnostic& d : all) {
            if (d.code == code) {
                return &d;
            }
        }
        return nullptr;
    }
    static std::size_t count(const std::vector<Diagnostic>& all, std::string_view code) {
        return static_cast<std::size_t>(std::count_if(
            all.begin(), all.end(), [&](const Diagnostic& d) { return d.code == code; }));
    }

    fs::path dir_;
};

TEST_F(OzdfDamageTest, PartsWithoutMetadataOpenAsARefusedDocument) {
    const fs::path book = dir_ / "book";
    putParts(book);
    EXPECT_TRUE(opensAsDocument(book));
    const Document document = readDocument(book);
    EXPECT_FALSE(document.accepted());
    ASSERT_EQ(document.diagnostics.size(), 1U);
    const Diagnostic& d = document.diagnostics[0];
    EXPECT_EQ(d.code, "OZDF-PARTS-WITHOUT-METADATA");
    EXPECT_EQ(d.severity, Severity::Error);
    EXPECT_EQ(d.file, book.string());
    EXPECT_NE(d.message.find("2 .ozdp part files"), std::string::npos) << d.message;

    // Through the registry (what `strata-cli validate` and the app do) it is the same error.
    const auto all = validate(book);
    const Diagnostic* found = find(all, "OZDF-PARTS-WITHOUT-METADATA");
    ASSERT_NE(found, nullptr);
    EXPECT_EQ(found->severity, Severity::Error);
}

TEST_F(OzdfDamageTest, AFolderWithoutPartsKeepsItsOwnCode) {
    fs::create_directories(dir_ / "empty");
    EXPECT_FALSE(opensAsDocument(dir_ / "empty"));  // an empty corpus
    const Document document = readDocument(dir_ / "empty");
    ASSERT_EQ(document.diagnostics.size(), 1U);
    EXPECT_EQ(document.diagnostics[0].code, "OZDF-NO-METADATA");
}

TEST_F(OzdfDamageTest, WhatMakesAFolderADocument) {
    put(dir_ / "meta" / "_metadata.ozdf", "#### TITLE\nx\n");
    put(dir_ / "marker" / ".ozdf_writing", "");
    putParts(dir_ / "mixed");
    put(dir_ / "mixed" / "other.ozdf", "#### TITLE\nx\n");
    putParts(dir_ / "withdoc");
    put(dir_ / "withdoc" / "sub" / "_metadata.ozdf", "#### TITLE\nx\n");
    EXPECT_TRUE(opensAsDocument(dir_ / "meta"));
    EXPECT_TRUE(opensAsDocument(dir_ / "marker"));
    EXPECT_FALSE(opensAsDocument(dir_ / "mixed"));    // a corpus with loose parts
    EXPECT_FALSE(opensAsDocument(dir_ / "withdoc"));  // a corpus with loose parts
}

TEST_F(OzdfDamageTest, ACorpusReportsASubFolderOfPartsButNotUnrelatedFolders) {
    const fs::path corpus = dir_ / "corpus";
    put(corpus / "good.ozdf", "#### TITLE\nGood.\n");
    putParts(corpus / "lost");
    put(corpus / "nested" / "inner.ozdf", "#### TITLE\nInner.\n");
    put(corpus / "notes" / "readme.txt", "not OZDF");
    const Corpus read = readCorpus(corpus);
    EXPECT_TRUE(read.accepted());  // the reference loads it, without `lost`
    ASSERT_EQ(read.documents.size(), 1U);

    const auto all = validate(corpus);
    const Diagnostic* lost = find(all, "OZDF-PARTS-WITHOUT-METADATA");
    ASSERT_NE(lost, nullptr);
    EXPECT_EQ(lost->severity, Severity::Warning);
    EXPECT_EQ(lost->file, (corpus / "lost").string());
    EXPECT_EQ(count(all, "OZDF-PARTS-WITHOUT-METADATA"), 1U);
    const Diagnostic* nested = find(all, "OZDF-CORPUS-SKIPPED");
    ASSERT_NE(nested, nullptr);
    EXPECT_EQ(nested->file, (corpus / "nested").string());
    EXPECT_EQ(all.size(), 2U);  // nothing about notes/
}

TEST_F(OzdfDamageTest, LoosePartsAtTheTopOfACorpusAreReported) {
    const fs::path corpus = dir_ / "corpus";
    put(corpus / "good.ozdf", "#### TITLE\nGood.\n");
    put(corpus / "STRAY-01.ozdp", "#### DATA\nStray.\n");
    const Corpus read = readCorpus(corpus);
    EXPECT_TRUE(read.accepted());
    ASSERT_EQ(read.diagnostics.size(), 1U);
    EXPECT_EQ(read.diagnostics[0].code, "OZDF-PARTS-WITHOUT-METADATA");
    EXPECT_EQ(read.diagnostics[0].severity, Severity::Warning);
}

TEST_F(OzdfDamageTest, AnEmptyCorpusIsANote) {
    fs::create_directories(dir_ / "corpus");
    const Corpus read = readCorpus(dir_ / "corpus");
    EXPECT_TRUE(read.accepted());
    ASSERT_EQ(read.diagnostics.size(), 1U);
    EXPECT_EQ(read.diagnostics[0].code, "OZDF-CORPUS-EMPTY");
    EXPECT_EQ(read.diagnostics[0].severity, Severity::Info);
    put(dir_ / "corpus" / "one.ozdf", "#### TITLE\nOne.\n");
    EXPECT_TRUE(readCorpus(dir_ / "corpus").diagnostics.empty());
}

TEST_F(OzdfDamageTest, ADocumentInsideADocumentIsReported) {
    const fs::path book = dir_ / "book";
    put(book / "_metadata.ozdf", "#### [[BOOK]]\n\n");
    putParts(book);
    putParts(book / "volume2");                                    // parts of a lost document
    put(book / "appendix" / "_metadata.ozdf", "#### TITLE\nA\n");  // a document
    put(book / "notes" / "todo.txt", "not OZDF");                  // unrelated
    put(book / ".ozdf_backup" / "BOOK-01.ozdp", "#### DATA\nOld.\n");
    const Document document = readDocument(book);
    EXPECT_TRUE(document.accepted());
    std::vector<std::string> files;
    for (const Diagnostic& d : document.diagnostics) {
        EXPECT_EQ(d.code, "OZDF-NESTED-DOCUMENT");
        EXPECT_EQ(d.severity, Severity::Warning);
        files.push_back(d.file);
    }
    EXPECT_EQ(files, (std::vector<std::string>{(book / "appendix").string(),
                                               (book / "volume2").string()}));
}

TEST_F(OzdfDamageTest, TemporaryFilesOfKilledSavesAreReported) {
    const fs::path corpus = dir_ / "corpus";
    put(corpus / "good.ozdf", "#### TITLE\nGood.\n");
    put(corpus / ".good.ozdf.strata-abc123def456", "#### TITLE\nHalf");
    put(corpus / "book" / "_metadata.ozdf", "#### [[BOOK]]\n\n");
    putParts(corpus / "book");
    put(corpus / "book" / ".BOOK-03.ozdp.strata-0123456789ab", "#### DA");
    put(corpus / "book" / "..ozdf_writing.strata-zyxwvu987654", "");

    const auto all = validate(corpus);
    EXPECT_EQ(count(all, "OZDF-LEFTOVER-TEMP"), 3U);
    for (const Diagnostic& d : all) {
        SCOPED_TRACE(d.code + " " + d.message);
        EXPECT_EQ(d.code, "OZDF-LEFTOVER-TEMP");
        EXPECT_EQ(d.severity, Severity::Warning);
    }
    // The documents on their own: the standalone file's temporary is beside it, the directory
    // document's inside it.
    EXPECT_EQ(count(validate(corpus / "good.ozdf"), "OZDF-LEFTOVER-TEMP"), 1U);
    EXPECT_EQ(count(validate(corpus / "book"), "OZDF-LEFTOVER-TEMP"), 2U);
}

}  // namespace
}  // namespace strata::ozdf
