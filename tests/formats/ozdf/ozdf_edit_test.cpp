// Content edits: each edit gives the document the writer and reader agree on, and edits that
// would not read back the same are refused without changing anything.
#include <gtest/gtest.h>

#include "formats/common/byte_source.h"
#include "formats/ozdf/ozdf_edit.h"
#include "formats/ozdf/ozdf_json.h"
#include "formats/ozdf/ozdf_parser.h"
#include "formats/ozdf/ozdf_writer.h"

namespace strata::ozdf {
namespace {

Document readText(std::string_view text, bool directory = false) {
    Document d = readDocumentSource(makeBufferSource(text, "t.ozdf"), "t.ozdf");
    d.isDirectory = directory;
    return d;
}

// What the reader makes of what the writer writes (standalone form).
std::string roundTrip(const Document& d) {
    Document copy = d;
    copy.isDirectory = false;
    return documentJson(readText(writeDocumentText(copy))).dump();
}

std::string json(const Document& d) {
    Document copy = d;
    copy.isDirectory = false;
    return documentJson(copy).dump();
}

const char* kSample =
    "#### TITLE\nHello   world\n\nSecond\n\n#### [CHAPTERS]\n==== One\nFirst chapter\n\n"
    "====\nUnnamed\n\n#### COMMENT\nnote\n";

TEST(OzdfEdit, BlocksAreAddedRenamedMovedAndRemoved) {
    Document d = readText(kSample);
    insertElement(d, 1, ElementKind::Block, " summary ");
    EXPECT_EQ(d.elements[1].name, "SUMMARY");
    insertParagraph(d, {1, std::nullopt}, 0, "A  short\n  summary.\n\nAnd more.");
    ASSERT_EQ(d.elements[1].paragraphs.size(), 2U);
    EXPECT_EQ(d.elements[1].paragraphs[0].text, "A short summary.");
    renameElement(d, 1, "straße");
    EXPECT_EQ(d.elements[1].name, "STRASSE");
    moveElement(d, 1, 0);
    EXPECT_EQ(d.elements[0].name, "STRASSE");
    EXPECT_EQ(roundTrip(d), json(d));
    removeElement(d, 0);
    EXPECT_EQ(d.elements[0].name, "TITLE");
    EXPECT_EQ(roundTrip(d), json(d));
}

TEST(OzdfEdit, ItemsAndParagraphsAreEdited) {
    Document d = readText(kSample);
    insertItem(d, 1, 1, std::string("  Two  "));
    EXPECT_EQ(d.elements[1].items[1].name.value_or("?"), "Two");
    insertParagraph(d, {1, 1}, 0, "Second chapter");
    renameItem(d, 1, 2, std::string("Three"));
    moveItem(d, 1, 2, 0);
    EXPECT_EQ(d.elements[1].items[0].name.value_or("?"), "Three");
    setParagraphText(d, {1, 0}, 0, "Replaced\n\nand split");
    EXPECT_EQ(d.elements[1].items[0].paragraphs.size(), 2U);
    moveParagraph(d, {1, 0}, 1, 0);
    EXPECT_EQ(d.elements[1].items[0].paragraphs[0].text, "and split");
    removeParagraph(d, {1, 0}, 0);
    setParagraphText(d, {0, std::nullopt}, 1, "   ");  // empty text removes the paragraph
    EXPECT_EQ(d.elements[0].paragraphs.size(), 1U);
    renameItem(d, 1, 0, std::nullopt);
    removeItem(d, 1, 1);
    EXPECT_EQ(roundTrip(d), json(d));
}

// A replace-all sets every paragraph of a block one by one: each replaced in place, not erased
// and inserted again (which shifted the rest of a long block twice per paragraph).
TEST(OzdfEdit, EveryParagraphOfALongBlockIsReplacedInPlace) {
    constexpr std::size_t kParagraphs = 100000;
    std::string text = "#### LONG\n";
    for (std::size_t i = 0; i < kParagraphs; ++i) {
        text += "old " + std::to_string(i) + "\n\n";
    }
    Document d = readText(text);
    ASSERT_EQ(d.elements.at(0).paragraphs.size(), kParagraphs);
    for (std::size_t i = kParagraphs; i-- > 0;) {
        setParagraphText(d, {0, std::nullopt}, i, "new " + std::to_string(i));
    }
    setParagraphText(d, {0, std::nullopt}, 5, "five\n\nand a half");
    const std::vector<Paragraph>& ps = d.elements[0].paragraphs;
    ASSERT_EQ(ps.size(), kParagraphs + 1);
    EXPECT_EQ(ps[4].text, "new 4");
    EXPECT_EQ(ps[5].text, "five");
    EXPECT_EQ(ps[6].text, "and a half");
    EXPECT_EQ(ps[7].text, "new 6");
    EXPECT_EQ(ps.back().text, "new " + std::to_string(kParagraphs - 1));
    EXPECT_FALSE(ps[0].region.valid());  // new text: no bytes of the file
}

TEST(OzdfEdit, EditsThatWouldNotReadBackAreRefused) {
    Document d = readText(kSample);
    const std::string before = json(d);
    EXPECT_THROW(insertElement(d, 0, ElementKind::Block, "title"), EditError);  // duplicate
    EXPECT_THROW(insertElement(d, 0, ElementKind::List, "[X]"), EditError);
    EXPECT_THROW(insertElement(d, 0, ElementKind::Block, "comment"), EditError);
    EXPECT_THROW(insertElement(d, 0, ElementKind::Block, "a\nb"), EditError);
    EXPECT_THROW(insertElement(d, 0, ElementKind::Block, ""), EditError);
    EXPECT_NO_THROW(insertElement(d, 0, ElementKind::List, " "));  // `#### []`, as the reader
    EXPECT_EQ(d.elements.at(0).name, "");
    removeElement(d, 0);
    EXPECT_THROW(insertElement(d, 0, ElementKind::ExternalList, "EXT"), EditError);
    EXPECT_THROW(insertElement(d, 9, ElementKind::Block, "LATE"), EditError);
    EXPECT_THROW(setParagraphText(d, {0, std::nullopt}, 0, "#### HEADER"), EditError);
    EXPECT_THROW(setParagraphText(d, {0, std::nullopt}, 0, "ok\n\n=== no"), EditError);
    EXPECT_THROW(setParagraphText(d, {0, std::nullopt}, 0, "bad \xff utf8"), EditError);
    EXPECT_THROW(insertParagraph(d, {0, std::nullopt}, 0, " \n "), EditError);
    EXPECT_THROW(insertItem(d, 0, 0, std::nullopt), EditError);  // not a list
    EXPECT_THROW(renameItem(d, 1, 0, std::string("a\nb")), EditError);
    EXPECT_THROW(setCommentText(d, 2, "fine\n#### NOT"), EditError);
    EXPECT_THROW(toggleExternalList(d, 1), EditError);  // standalone document
    EXPECT_THROW(removeElement(d, 7), EditError);
    EXPECT_EQ(json(d), before);
    // A plain block and a list may share a name.
    insertElement(d, 0, ElementKind::List, "title");
    EXPECT_EQ(d.elements[0].kind, ElementKind::List);
}

TEST(OzdfEdit, ListsBecomeExternalAndDocumentsChangeKind) {
    Document d = readText(kSample);
    toggleDirectoryDocument(d);
    EXPECT_TRUE(d.isDirectory);
    EXPECT_EQ(d.filename, "t");
    toggleExternalList(d, 1);
    EXPECT_EQ(d.elements[1].kind, ElementKind::ExternalList);
    insertElement(d, 2, ElementKind::List, "chapters_x");
    EXPECT_NO_THROW(toggleExternalList(d, 2));
    insertElement(d, 3, ElementKind::List, "CHAPTERS X");  // same part key as CHAPTERS_X
    EXPECT_THROW(toggleExternalList(d, 3), EditError);
    const auto parts = writeParts(d.elements[1]);
    ASSERT_EQ(parts.size(), 2U);
    EXPECT_EQ(parts[0].first, "CHAPTERS-01.ozdp");
    toggleDirectoryDocument(d);
    EXPECT_FALSE(d.isDirectory);
    EXPECT_EQ(d.filename, "t.ozdf");
    EXPECT_EQ(d.elements[1].kind, ElementKind::List);
    EXPECT_NO_THROW(writeDocumentText(d));
}

TEST(OzdfEdit, NormalisedTextIsWhatTheReaderGives) {
    const auto texts = normaliseText("  one\ttwo\u00a0three \r\n\r\n\n four\rfive  ");
    ASSERT_EQ(texts.size(), 2U);
    EXPECT_EQ(texts[0], "one two three");
    EXPECT_EQ(texts[1], "four five");
    EXPECT_TRUE(normaliseText(" \n\n ").empty());
}

}  // namespace
}  // namespace strata::ozdf
