// Every damaged case of the OZDF corpus gets its verdict: the code Strata reports, with a
// region or a file, and whether the reference would refuse it.
#include <gtest/gtest.h>

#include <fstream>

#include "formats/ozdf/ozdf_parser.h"
#include "formats/ozdf/ozdf_validator.h"
#include "ozdf_test_support.h"

namespace strata::ozdf {
namespace {

namespace fs = std::filesystem;

struct CorruptCase {
    const char* name;
    const char* code;  // the diagnostic expected
    Severity severity;
    bool corpus;  // read as a corpus rather than a document
};

const CorruptCase kCases[] = {
    {"header_five_hash.ozdf", "OZDF-HEADER", Severity::Error, false},
    {"header_three_hash.ozdf", "OZDF-HEADER", Severity::Error, false},
    {"header_tab_separator.ozdf", "OZDF-HEADER", Severity::Error, false},
    {"header_empty_name.ozdf", "OZDF-HEADER", Severity::Error, false},
    {"item_marker_no_space.ozdf", "OZDF-ITEM-MARKER", Severity::Error, false},
    {"item_marker_three_eq.ozdf", "OZDF-ITEM-MARKER", Severity::Error, false},
    {"item_marker_five_eq.ozdf", "OZDF-ITEM-MARKER", Severity::Error, false},
    {"hash_line_in_text.ozdf", "OZDF-RESERVED-LINE", Severity::Error, false},
    {"equals_line_in_text.ozdf", "OZDF-RESERVED-LINE", Severity::Error, false},
    {"missing_blank_before_header.ozdf", "OZDF-BLANK-LINE", Severity::Error, false},
    {"missing_blank_before_item.ozdf", "OZDF-BLANK-LINE", Severity::Error, false},
    {"content_before_first_header.ozdf", "OZDF-CONTENT-BEFORE-HEADER", Severity::Error, false},
    {"content_in_list_before_item.ozdf", "OZDF-CONTENT-BEFORE-HEADER", Severity::Error, false},
    {"item_outside_list.ozdf", "OZDF-ITEM-OUTSIDE-LIST", Severity::Error, false},
    {"duplicate_block.ozdf", "OZDF-DUPLICATE-BLOCK", Severity::Error, false},
    {"duplicate_list_block.ozdf", "OZDF-DUPLICATE-LIST", Severity::Error, false},
    {"invalid_utf8.ozdf", "OZDF-UTF8", Severity::Error, false},
    {"utf8_bom.ozdf", "OZDF-BOM", Severity::Error, false},
    {"utf16_file.ozdf", "OZDF-UTF8", Severity::Error, false},
    {"latin1_file.ozdf", "OZDF-UTF8", Severity::Error, false},
    {"unbalanced_brackets.ozdf", "OZDF-BRACKETS", Severity::Warning, false},
    {"unbalanced_brackets.ozdf", "OZDF-CONTENT-BEFORE-HEADER", Severity::Error, false},
    {"corpus_dir_missing_metadata", "OZDF-PARTS-WITHOUT-METADATA", Severity::Warning, true},
    {"part_gap", "OZDF-PART-GAP", Severity::Error, false},
    {"part_starts_at_two", "OZDF-PART-START", Severity::Error, false},
    {"part_duplicate_index", "OZDF-PART-DUPLICATE", Severity::Error, false},
    {"part_non_numeric", "OZDF-PART-NAME", Severity::Error, false},
    {"part_unicode_digits", "OZDF-PART-UNICODE-DIGITS", Severity::Warning, false},
    {"part_missing_data", "OZDF-PART-NO-DATA", Severity::Error, false},
    {"part_duplicate_data", "OZDF-DUPLICATE-BLOCK", Severity::Error, false},
    {"part_invalid_utf8", "OZDF-UTF8", Severity::Error, false},
    {"external_duplicate", "OZDF-DUPLICATE-LIST", Severity::Error, false},
    {"external_then_content", "OZDF-CONTENT-BEFORE-HEADER", Severity::Error, false},
    {"writing_marker", "OZDF-WRITING-MARKER", Severity::Error, false},
    {"corpus_writing_marker_only", "OZDF-WRITING-MARKER", Severity::Error, true},
    {"corpus_one_bad_doc", "OZDF-HEADER", Severity::Error, true},
    {"glob_metachar_name", "OZDF-PART-NAME", Severity::Error, false},
    {"writer_bug_wrap_creates_header", "OZDF-BLANK-LINE", Severity::Error, true},
};

// Regions point into the document's sources: keep every document read alive for the test.
std::vector<std::shared_ptr<const void>>& keptAlive() {
    static std::vector<std::shared_ptr<const void>> held;
    return held;
}

std::vector<Diagnostic> diagnosticsOf(const CorruptCase& c) {
    const fs::path path = test::corpusDir() / "corrupt" / c.name;
    CollectingSink sink;
    if (c.corpus) {
        auto corpus = std::make_shared<Corpus>(readCorpus(path));
        keptAlive().push_back(corpus);
        makeOzdfCorpusValidator(corpus)->run(sink, {});
    } else {
        auto document = std::make_shared<Document>(readDocument(path));
        keptAlive().push_back(document);
        makeOzdfValidator(document)->run(sink, {});
    }
    return sink.diagnostics();
}

TEST(OzdfCorrupt, EveryCaseGetsItsVerdictWithARegionOrFile) {
    STRATA_SKIP_WITHOUT_CORPUS();
    for (const CorruptCase& c : kCases) {
        SCOPED_TRACE(std::string(c.name) + " " + c.code);
        const std::vector<Diagnostic> diagnostics = diagnosticsOf(c);
        const auto found = std::find_if(diagnostics.begin(), diagnostics.end(),
                                        [&](const Diagnostic& d) { return d.code == c.code; });
        std::string all;
        for (const Diagnostic& d : diagnostics) {
            all += d.code + " " + d.message + "\n";
        }
        ASSERT_NE(found, diagnostics.end()) << all;
        EXPECT_EQ(found->severity, c.severity);
        EXPECT_TRUE(!found->regions.empty() || !found->file.empty());
        if (!found->regions.empty()) {
            const Region& r = found->regions.front();
            ASSERT_NE(r.source, nullptr);
            EXPECT_LE(r.end(), r.source->size());
        }
    }
}

TEST(OzdfCorrupt, AcceptedCasesHaveNoErrors) {
    STRATA_SKIP_WITHOUT_CORPUS();
    for (const char* name : {"escape_attempt_backslash.ozdf", "unknown_block_kind_angle.ozdf",
                             "part_unicode_digits"}) {
        const fs::path path = test::corpusDir() / "corrupt" / name;
        if (!fs::exists(path)) {
            continue;
        }
        SCOPED_TRACE(name);
        EXPECT_TRUE(readDocument(path).accepted());
    }
    EXPECT_TRUE(
        readCorpus(test::corpusDir() / "corrupt" / "corpus_dir_missing_metadata").accepted());
}

TEST(OzdfCorrupt, RefusedCasesAreNotAccepted) {
    STRATA_SKIP_WITHOUT_CORPUS();
    for (const CorruptCase& c : kCases) {
        if (c.severity != Severity::Error) {
            continue;
        }
        SCOPED_TRACE(c.name);
        const fs::path path = test::corpusDir() / "corrupt" / c.name;
        const bool accepted =
            c.corpus ? readCorpus(path).accepted() : readDocument(path).accepted();
        EXPECT_FALSE(accepted);
    }
}

TEST(OzdfCorrupt, ErrorRegionPointsAtTheBadLine) {
    STRATA_SKIP_WITHOUT_CORPUS();
    const Document document =
        readDocument(test::corpusDir() / "corrupt" / "hash_line_in_text.ozdf");
    const auto found =
        std::find_if(document.diagnostics.begin(), document.diagnostics.end(),
                     [](const Diagnostic& d) { return d.code == "OZDF-RESERVED-LINE"; });
    ASSERT_NE(found, document.diagnostics.end());
    const Region& r = found->regions.at(0);
    const ByteView view = r.source->view(r.offset, r.length);
    EXPECT_EQ(std::string(reinterpret_cast<const char*>(view.data()), view.size()),
              "### not allowed");
}

}  // namespace
}  // namespace strata::ozdf
