// Every damaged corpus dataset gets its verdict: the expected code, at the expected severity,
// pointing at bytes or naming a file.
#include <gtest/gtest.h>

#include <vector>

#include "formats/zds/zds_format.h"
#include "zds_test_support.h"

namespace strata {
namespace {

struct Verdict {
    const char* name;
    std::vector<const char*> codes;  // any of these
    Severity severity;
};

const std::vector<Verdict>& verdicts() {
    static const std::vector<Verdict> table = {
        {"zdx_bad_magic", {"ZDS-ZDX-MAGIC"}, Severity::Error},
        {"zdx_bad_version", {"ZDS-ZDX-VERSION"}, Severity::Error},
        {"zdx_offset_past_eof", {"ZDS-ZDX-OFFSET"}, Severity::Error},
        {"zdx_length_minus_two", {"ZDS-ZDX-LENGTH"}, Severity::Error},
        {"zdx_length_plus_one", {"ZDS-ZDX-LENGTH"}, Severity::Error},
        {"zdx_count_too_high", {"ZDS-ZDX-COUNT"}, Severity::Error},
        {"zdx_count_too_low", {"ZDS-ZDX-COUNT"}, Severity::Error},
        {"zdx_duplicate_entry", {"ZDS-ZDX-DUPLICATE"}, Severity::Error},
        {"zdx_id_invalid_utf8", {"ZDS-ZDX-ID-UTF8"}, Severity::Error},
        {"zdx_entry_for_unknown_id", {"ZDS-ZDX-OVERLAP"}, Severity::Error},
        {"zdx_truncated_mid_entry", {"ZDS-ZDX-TRUNCATED"}, Severity::Error},
        {"zdx_text_format_wrong_offsets", {"ZDS-ZDX-OFFSET"}, Severity::Error},
        {"data_missing_index_present", {"ZDS-DATA-MISSING"}, Severity::Error},
        {"jsonl_line_not_json_with_id_pattern", {"ZDS-JSON"}, Severity::Error},
        {"jsonl_duplicate_id", {"ZDS-DUPLICATE-ID"}, Severity::Warning},
        {"jsonl_missing_id", {"ZDS-MISSING-ID"}, Severity::Error},
        {"jsonl_id_with_space_after_colon", {"ZDS-ID-SCAN"}, Severity::Warning},
        {"jsonl_escaped_id", {"ZDS-ID-SCAN"}, Severity::Warning},
        {"jsonl_invalid_utf8", {"ZDS-UTF8"}, Severity::Error},
        {"jsonl_crlf", {"ZDS-CRLF"}, Severity::Warning},
        {"jsonl_blank_lines", {"ZDS-BLANK-LINE"}, Severity::Warning},
        {"jsonl_no_trailing_newline", {"ZDS-FINAL-NEWLINE"}, Severity::Warning},
        {"manifest_mismatch", {"ZDS-MANIFEST-COUNT"}, Severity::Warning},
        {"no_collections_dir", {"ZDS-NO-COLLECTIONS"}, Severity::Error},
        {"docs_doc_invalid_json", {"ZDS-JSON"}, Severity::Error},
        {"docs_order_lists_missing_doc", {"ZDS-ORDER-MISSING"}, Severity::Error},
        {"docs_order_duplicate_id", {"ZDS-ORDER-DUPLICATE"}, Severity::Error},
        {"docs_missing_docs_dir", {"ZDS-DOCS-MISSING"}, Severity::Error},
        {"zip_member_missing.zds", {"ZDS-ORDER-MISSING"}, Severity::Error},
        {"zip_truncated.zds", {"ZDS-ZIP-CORRUPT"}, Severity::Error},
        {"zip_not_a_zip.zds", {"ZDS-NOT-ZIP"}, Severity::Error},
        {"zip_wrong_extension.zip", {"ZDS-ZIP-EXTENSION"}, Severity::Warning},
        {"zip_corrupt_member_data.zds", {"ZDS-ZIP-CRC", "ZDS-ZIP-CORRUPT"}, Severity::Error},
        {"zip_duplicate_member.zds", {"ZDS-ZIP-DUPLICATE"}, Severity::Error},
    };
    return table;
}

class ZdsCorruptCorpus : public ::testing::TestWithParam<Verdict> {
protected:
    void SetUp() override { STRATA_SKIP_WITHOUT_CORPUS(); }
};

TEST_P(ZdsCorruptCorpus, GivesItsVerdict) {
    const Verdict& v = GetParam();
    const auto path = zds_test::corpusDir() / "corrupt" / v.name;
    ASSERT_TRUE(std::filesystem::exists(path)) << path;
    CollectingSink sink;
    zds_test::validate(path, sink);
    const Diagnostic* found = nullptr;
    for (const Diagnostic& d : sink.diagnostics()) {
        for (const char* code : v.codes) {
            if (d.code == code && found == nullptr) {
                found = &d;
            }
        }
    }
    ASSERT_NE(found, nullptr) << zds_test::describe(sink);
    EXPECT_EQ(found->severity, v.severity) << zds_test::describe(sink);
    EXPECT_TRUE(!found->regions.empty() || !found->file.empty()) << found->code;
    // Cases judged a warning stay warnings: nothing else in them is an error.
    if (v.severity == Severity::Warning) {
        EXPECT_EQ(sink.countOf(Severity::Error), 0u) << zds_test::describe(sink);
    } else {
        EXPECT_EQ(sink.worstSeverity(), Severity::Error);
    }
}

TEST(ZdsCorrupt, SortedEntriesAreValid) {
    STRATA_SKIP_WITHOUT_CORPUS();
    CollectingSink sink;
    zds_test::validate(zds_test::corpusDir() / "corrupt" / "zdx_sorted_entries", sink);
    EXPECT_EQ(sink.countOf(Severity::Error), 0u) << zds_test::describe(sink);
}

std::string verdictName(const ::testing::TestParamInfo<Verdict>& info) {
    std::string name = info.param.name;
    for (char& ch : name) {
        if (!std::isalnum(static_cast<unsigned char>(ch))) {
            ch = '_';
        }
    }
    return name;
}

INSTANTIATE_TEST_SUITE_P(Corpus, ZdsCorruptCorpus, ::testing::ValuesIn(verdicts()), verdictName);

}  // namespace
}  // namespace strata

namespace strata {
namespace {

// Diagnostics from a document's validator point into sources the document keeps alive.
TEST(ZdsCorrupt, DocumentValidatorRegionsOutliveTheValidator) {
    STRATA_SKIP_WITHOUT_CORPUS();
    const auto path = zds_test::corpusDir() / "corrupt" / "zdx_length_plus_one";
    const ZdsFormat format;
    const auto detection = format.probe(ProbeInput::fromPath(path));
    ASSERT_TRUE(detection);
    const auto document = format.open(path, *detection);
    CollectingSink sink;
    {
        ValidationOptions options;
        document->makeValidator()->run(sink, options);
    }
    ASSERT_TRUE(sink.hasCode("ZDS-ZDX-LENGTH"));
    for (const Diagnostic& d : sink.diagnostics()) {
        if (d.code == "ZDS-ZDX-LENGTH") {
            EXPECT_NE(d.fileName().find("index.bin"), std::string::npos) << d.fileName();
        }
    }
}

}  // namespace
}  // namespace strata
