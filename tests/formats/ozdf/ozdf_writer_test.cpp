// The canonical writer: reading each corpus the reference resaved and writing it again gives
// the reference's files byte for byte; what Strata writes always reads back the same.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <map>

#include "formats/ozdf/ozdf_parser.h"
#include "formats/ozdf/ozdf_writer.h"
#include "ozdf_test_support.h"

namespace strata::ozdf {
namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

// Every file the writer makes for `document`, by path relative to the corpus folder.
void addWritten(const Document& document, std::map<std::string, std::string>& out) {
    const std::string text = writeDocumentText(document);
    if (!document.isDirectory) {
        out[document.filename] = text;
        return;
    }
    out[document.filename + "/_metadata.ozdf"] = text;
    for (const Element& element : document.elements) {
        if (element.kind == ElementKind::ExternalList) {
            for (const auto& [name, contents] : writeParts(element)) {
                out[document.filename + "/" + name] = contents;
            }
        }
    }
}

TEST(OzdfWriter, RewritingTheCorpusIsByteIdenticalToTheReference) {
    STRATA_SKIP_WITHOUT_CORPUS();
    const fs::path root = test::corpusDir();
    const std::map<std::string, fs::path> inputs = {
        {"handwritten_docs", root / "valid/handwritten/docs"},
        {"handwritten_dirdocs", root / "valid/handwritten/dirdocs"},
        {"handwritten_corpora_mixed", root / "valid/handwritten/corpora/mixed"},
        {"api_corpus", root / "valid/written_by_reference/api_corpus"},
    };
    for (const auto& [name, input] : inputs) {
        SCOPED_TRACE(name);
        const Corpus corpus = readCorpus(input);
        ASSERT_TRUE(corpus.accepted());
        std::map<std::string, std::string> written;
        for (const Document& document : corpus.documents) {
            addWritten(document, written);
        }
        const fs::path expected = root / "expected/resaved" / name;
        std::size_t files = 0;
        for (const auto& entry : fs::recursive_directory_iterator(expected)) {
            if (!entry.is_regular_file()) {
                continue;
            }
            const std::string relative = fs::relative(entry.path(), expected).generic_string();
            SCOPED_TRACE(relative);
            ASSERT_TRUE(written.contains(relative));
            EXPECT_EQ(written[relative], slurp(entry.path()));
            ++files;
        }
        EXPECT_EQ(files, written.size());
    }
}

// The one thing the layout cannot keep: an item named "" (an empty NAME block) is written
// without a NAME block, as the reference does, and reads back unnamed.
nlohmann::json withoutEmptyItemNames(nlohmann::json corpus) {
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

TEST(OzdfWriter, SavedDocumentsReadBackTheSame) {
    STRATA_SKIP_WITHOUT_CORPUS();
    const fs::path root = test::corpusDir();
    const fs::path out = fs::temp_directory_path() / "strata_ozdf_writer_roundtrip";
    for (const char* input : {"valid/handwritten/docs", "valid/handwritten/dirdocs",
                              "valid/written_by_reference/api_corpus"}) {
        SCOPED_TRACE(input);
        fs::remove_all(out);
        fs::create_directories(out);
        const Corpus corpus = readCorpus(root / input);
        for (const Document& document : corpus.documents) {
            saveDocument(document, out);
        }
        const Corpus reread = readCorpus(out);
        EXPECT_TRUE(reread.accepted());
        EXPECT_EQ(test::toJson(reread), withoutEmptyItemNames(test::toJson(corpus)));
    }
    fs::remove_all(out);
}

// Into a folder where every file is new (a repair's stage), a directory document's files are
// synced once together, not each part on its own.
TEST(OzdfWriter, DeferredSaveSyncsOnceForAllParts) {
    Document document;
    document.filename = "book";
    document.isDirectory = true;
    Element list;
    list.kind = ElementKind::ExternalList;
    list.name = list.writtenName = "CHAPTERS";
    for (int i = 0; i < 40; ++i) {
        Item item;
        item.paragraphs.push_back({"chapter " + std::to_string(i), {}});
        list.items.push_back(std::move(item));
    }
    document.elements.push_back(std::move(list));
    const fs::path out = fs::temp_directory_path() / "strata_ozdf_writer_deferred";
    fs::remove_all(out);
    fs::create_directories(out);
    const std::uint64_t before = AtomicFile::syncCount();
    saveDocument(document, out, EmptyItemNames::Kept, Durability::Deferred);
    EXPECT_LE(AtomicFile::syncCount() - before, 2u);  // one syncfs, the folder's fsync
    const Document back = readDocument(out / "book");
    EXPECT_TRUE(back.accepted());
    ASSERT_EQ(back.elements.at(0).items.size(), 40u);
    EXPECT_EQ(back.elements[0].items[39].paragraphs.at(0).text, "chapter 39");
    fs::remove_all(out);
}

TEST(OzdfWriter, WrappingNeverStartsALineWithAHeaderMarker) {
    std::string paragraph(76, 'a');
    paragraph += " #### not a header ==== nor an item";
    const std::string wrapped = wrapParagraph(paragraph);
    EXPECT_EQ(wrapped.find("\n#"), std::string::npos);
    EXPECT_EQ(wrapped.find("\n="), std::string::npos);
    std::string text = "#### BODY\n" + wrapped + "\n";
    const Document d = readDocumentSource(makeBufferSource(text, "w.ozdf"), "w.ozdf");
    EXPECT_TRUE(d.accepted());
    ASSERT_EQ(d.elements.size(), 1U);
    EXPECT_EQ(d.elements[0].paragraphs.at(0).text, paragraph);
}

TEST(OzdfWriter, ParagraphStartingWithHeaderMarkerIsRefused) {
    Document document;
    document.filename = "x.ozdf";
    Element block;
    block.name = "BODY";
    block.paragraphs.push_back({"#### TITLE", {}});
    document.elements.push_back(block);
    EXPECT_THROW(writeDocumentText(document), WriteError);
}

TEST(OzdfWriter, CommentWithoutAFinalBlankLineStillLetsTheNextHeaderFollow) {
    Document document;
    document.filename = "c.ozdf";
    Element comment;
    comment.kind = ElementKind::Comment;
    comment.text = "a note";
    Element block;
    block.name = "BODY";
    block.paragraphs.push_back({"text", {}});
    document.elements = {comment, block, comment};
    const std::string text = writeDocumentText(document);
    EXPECT_EQ(text, "#### COMMENT\na note\n\n#### BODY\ntext\n\n#### COMMENT\na note\n");
    const Document d = readDocumentSource(makeBufferSource(text, "c.ozdf"), "c.ozdf");
    EXPECT_TRUE(d.accepted());
    ASSERT_EQ(d.elements.size(), 3U);
    EXPECT_EQ(d.elements[0].text, "a note\n");
    EXPECT_EQ(d.elements[2].text, "a note");
    // What a reader made of a comment is written back byte for byte.
    EXPECT_EQ(writeDocumentText(d), text);
}

TEST(OzdfWriter, CommentLineThatWouldReadAsAHeaderIsRefused) {
    Document document;
    document.filename = "c.ozdf";
    Element comment;
    comment.kind = ElementKind::Comment;
    comment.text = "fine\n   #### NOT A COMMENT";
    document.elements.push_back(comment);
    EXPECT_THROW(writeDocumentText(document), WriteError);
    document.elements[0].text = "fine\n==== item";
    EXPECT_THROW(writeDocumentText(document), WriteError);
}

}  // namespace
}  // namespace strata::ozdf
