// Hostile input: huge lines, many parts, invalid UTF-8 everywhere. Clear errors, no crash, and
// diagnostics stay bounded.
#include <gtest/gtest.h>

#include <fstream>
#include <random>

#include "formats/ozdf/ozdf_diagnostics.h"
#include "formats/ozdf/ozdf_parser.h"
#include "formats/ozdf/ozdf_tree.h"

namespace strata::ozdf {
namespace {

namespace fs = std::filesystem;

Document readText(std::string_view text) {
    return readDocumentSource(makeBufferSource(text, "test.ozdf"), "test.ozdf");
}

bool hasCode(const Document& d, std::string_view code) {
    return std::any_of(d.diagnostics.begin(), d.diagnostics.end(),
                       [&](const Diagnostic& x) { return x.code == code; });
}

TEST(OzdfHostile, TenMegabyteLineIsOneParagraph) {
    std::string text = "#### BODY\n";
    text.append(10U << 20U, 'a');
    text += "\n";
    const Document d = readText(text);
    EXPECT_TRUE(d.accepted());
    ASSERT_EQ(d.elements.size(), 1U);
    ASSERT_EQ(d.elements[0].paragraphs.size(), 1U);
    EXPECT_EQ(d.elements[0].paragraphs[0].text.size(), 10U << 20U);
    EXPECT_EQ(d.elements[0].paragraphs[0].region.offset, 10U);
}

TEST(OzdfHostile, InvalidUtf8EverywhereIsBoundedAndRefused) {
    std::string text = "#### BODY\n";
    std::mt19937 random(7);
    for (int i = 0; i < 200000; ++i) {
        text.push_back(static_cast<char>(0x80 + random() % 0x80));
        if (i % 100 == 99) {
            text.push_back('\n');
        }
    }
    const Document d = readText(text);
    EXPECT_FALSE(d.accepted());
    EXPECT_TRUE(hasCode(d, "OZDF-UTF8"));
    EXPECT_TRUE(hasCode(d, "OZDF-TRUNCATED"));
    EXPECT_LE(d.diagnostics.size(), 4U * Reporter::kPerCodeLimit);
    const auto tree = buildDocumentNode(d);
    EXPECT_EQ(tree->kind(), "ozdf.document");
}

TEST(OzdfHostile, BinaryGarbageDoesNotCrash) {
    std::mt19937 random(11);
    for (int round = 0; round < 50; ++round) {
        std::string text;
        for (int i = 0; i < 4096; ++i) {
            const char pick[] = {'#', '=', ' ', '\n', '\r', '[', ']', 'a', '\t', '\xC3', '\xA9'};
            text.push_back(pick[random() % sizeof(pick)]);
        }
        const Document d = readText(text);
        const auto tree = buildDocumentNode(d);
        EXPECT_EQ(tree->kind(), "ozdf.document");
    }
}

TEST(OzdfHostile, ManyPartsReadInOrder) {
    const fs::path folder = fs::temp_directory_path() / "strata_ozdf_many_parts";
    fs::remove_all(folder);
    fs::create_directories(folder);
    std::ofstream(folder / "_metadata.ozdf") << "#### [[Items]]\n";
    constexpr int kParts = 3000;
    for (int i = 1; i <= kParts; ++i) {
        std::ofstream(folder / ("ITEMS-" + std::to_string(i) + ".ozdp"))
            << "#### DATA\npart " << i << "\n";
    }
    const Document d = readDocument(folder);
    EXPECT_TRUE(d.accepted());
    ASSERT_EQ(d.elements.size(), 1U);
    ASSERT_EQ(d.elements[0].items.size(), static_cast<std::size_t>(kParts));
    EXPECT_EQ(d.elements[0].items[41].paragraphs.at(0).text, "part 42");
    EXPECT_EQ(d.sources.size(), static_cast<std::size_t>(kParts) + 1);
    fs::remove_all(folder);
}

TEST(OzdfHostile, HugePartNumberIsAGapNotAnOverflow) {
    const fs::path folder = fs::temp_directory_path() / "strata_ozdf_huge_part";
    fs::remove_all(folder);
    fs::create_directories(folder);
    std::ofstream(folder / "_metadata.ozdf") << "#### [[M]]\n";
    std::ofstream(folder / "M-1.ozdp") << "#### DATA\na\n";
    std::ofstream(folder / "M-99999999999999999999999999.ozdp") << "#### DATA\nb\n";
    const Document d = readDocument(folder);
    EXPECT_FALSE(d.accepted());
    EXPECT_TRUE(hasCode(d, "OZDF-PART-GAP"));
    fs::remove_all(folder);
}

TEST(OzdfText, UpperCaseUsesFullUnicodeMapping) {
    const Document d = readText("#### straße\nx\n\n#### ŉ ǰ ΐ ﬁ\ny\n");
    ASSERT_EQ(d.elements.size(), 2U);
    EXPECT_EQ(d.elements[0].name, "STRASSE");
    // U+0390 upper-cases to three code points (SpecialCasing), not to U+03AA U+0301.
    EXPECT_EQ(d.elements[1].name, "\u02BCN J\u030C \u0399\u0308\u0301 FI");
    EXPECT_TRUE(hasCode(d, "OZDF-NAME-CASE"));
}

TEST(OzdfText, ExternalListInStandaloneFileIsRefused) {
    const Document d = readText("#### [[Parts]]\n");
    EXPECT_FALSE(d.accepted());
    EXPECT_TRUE(hasCode(d, "OZDF-EXTERNAL-IN-STANDALONE"));
}

TEST(OzdfText, LoneCarriageReturnBreaksLinesAndUnicodeSpacesCollapse) {
    const Document d = readText("#### A\rone\u00a0\u3000two\r  three\r\r four\r");
    ASSERT_EQ(d.elements.size(), 1U);
    ASSERT_EQ(d.elements[0].paragraphs.size(), 2U);
    EXPECT_EQ(d.elements[0].paragraphs[0].text, "one two three");
    EXPECT_EQ(d.elements[0].paragraphs[1].text, "four");
    EXPECT_TRUE(hasCode(d, "OZDF-WHITESPACE"));
}

}  // namespace
}  // namespace strata::ozdf
