// The damaged ZS corpus and the reference's own test files.
#include <gtest/gtest.h>

#include "zs_test_support.h"

namespace strata::zs {
namespace {

using namespace testing;

bool anyErrorCovers(const CollectingSink& sink, std::uint64_t offset) {
    for (const auto& d : sink.diagnostics()) {
        if (d.severity != Severity::Error) {
            continue;
        }
        for (const auto& r : d.regions) {
            if (r.contains(offset)) {
                return true;
            }
        }
    }
    return false;
}

TEST(ZsCorrupt, EveryCaseGetsTheVerdictTheSpecGives) {
    STRATA_SKIP_WITHOUT_CORPUS();
    const auto cases = readJson(zsCorpus() / "corrupt/cases.json");
    ASSERT_GE(cases.size(), 50u);
    for (const auto& c : cases) {
        const std::string name = c["file"].get<std::string>();
        SCOPED_TRACE(name);
        const auto sink = validate(openZs(zsCorpus() / name));
        if (c["expect_valid_per_spec"].get<bool>()) {
            EXPECT_EQ(sink->countOf(Severity::Error), 0u) << describe(*sink);
            EXPECT_EQ(sink->countOf(Severity::Warning), 0u) << describe(*sink);
            continue;
        }
        EXPECT_GT(sink->countOf(Severity::Error), 0u) << describe(*sink);
        // The writer-made case has no single defect location (offset 0 is a placeholder).
        const bool writerMade = name.find("writer-made") != std::string::npos;
        if (!writerMade) {
            const auto offset = c["byte_offset"].get<std::uint64_t>();
            EXPECT_TRUE(anyErrorCovers(*sink, offset)) << "offset " << offset << "\n"
                                                       << describe(*sink);
        }
    }
}

TEST(ZsCorrupt, SpecificCodesForKnownDefects) {
    STRATA_SKIP_WITHOUT_CORPUS();
    const std::vector<std::pair<const char*, const char*>> expectations{
        {"magic-bad.zs", "ZS-MAGIC"},
        {"magic-version-2.zs", "ZS-MAGIC"},
        {"empty-file.zs", "ZS-EMPTY"},
        {"truncated-in-magic.zs", "ZS-TRUNCATED"},
        {"header-crc-wrong.zs", "ZS-HEADER-CRC"},
        {"header-length-huge.zs", "ZS-HEADER-LENGTH"},
        {"header-length-minus1-crc-fixed.zs", "ZS-METADATA-LENGTH"},
        {"root-length-short.zs", "ZS-ROOT-LENGTH"},
        {"root-is-data-block.zs", "ZS-ROOT-LEVEL"},
        {"root-offset-non-top-index.zs", "ZS-UNREACHABLE"},
        {"total-length-plus1.zs", "ZS-FILE-LENGTH"},
        {"sha256-mismatch.zs", "ZS-SHA256"},
        {"codec-bz2.zs", "ZS-CODEC"},
        {"codec-non-ascii.zs", "ZS-CODEC"},
        {"codec-wrong-known.zs", "ZS-DECOMPRESS"},
        {"metadata-not-object.zs", "ZS-METADATA-TYPE"},
        {"metadata-json-number.zs", "ZS-METADATA-TYPE"},
        {"truncated-1-byte.zs", "ZS-FILE-LENGTH"},
        {"truncated-mid-block-length-fixed.zs", "ZS-TRUNCATED"},
        {"trailing-zero-byte-length-fixed.zs", "ZS-BLOCK-LENGTH"},
        {"data-block-crc-wrong.zs", "ZS-BLOCK-CRC"},
        {"block-length-plus1.zs", "ZS-BLOCK-CRC"},
        {"block-length-nonshortest-root.zs", "ZS-ULEB128"},
        {"data-level-1.zs", "ZS-INDEX-LEVEL"},
        {"data-level-64.zs", "ZS-INDEX-LEVEL"},
        {"root-level-plus1.zs", "ZS-INDEX-LEVEL"},
        {"root-level-0.zs", "ZS-ROOT-LEVEL"},
        {"record-length-uleb-10-bytes.zs", "ZS-ULEB128"},
        {"empty-index-block.zs", "ZS-EMPTY-BLOCK"},
        {"index-key-gt-child-first.zs", "ZS-INDEX-KEY"},
        {"index-key-lt-prev-last.zs", "ZS-INDEX-KEY"},
        {"root-key-gt-child-first.zs", "ZS-INDEX-KEY"},
        {"index-keys-unsorted.zs", "ZS-INDEX-ORDER"},
        {"index-offset-mid-block.zs", "ZS-INDEX-TARGET"},
        {"index-offset-past-eof.zs", "ZS-INDEX-TARGET"},
        {"index-offset-self-cycle.zs", "ZS-INDEX-CYCLE"},
        {"index-length-wrong.zs", "ZS-INDEX-LENGTH"},
        {"data-blocks-swapped.zs", "ZS-RECORD-ORDER"},
        {"deflate-garbage-payload.zs", "ZS-DECOMPRESS"},
        {"deflate-trailing-junk-in-root.zs", "ZS-STREAM-TRAILING"},
        {"lzma-garbage-payload.zs", "ZS-DECOMPRESS"},
        {"lzma-trailing-junk-in-root.zs", "ZS-STREAM-TRAILING"},
        {"lzma-truncated-stream-in-root.zs", "ZS-DECOMPRESS"},
        {"writer-made-unsorted-across-blocks.zs", "ZS-RECORD-ORDER"},
        {"header-extension-bytes.zs", "ZS-HEADER-EXTENSION"},
        {"trailing-extension-block.zs", "ZS-EXTENSION-BLOCK"},
        {"index-before-children.zs", "ZS-INDEX-BEFORE-CHILD"},
    };
    for (const auto& [name, code] : expectations) {
        SCOPED_TRACE(name);
        const auto sink = validate(openZs(zsCorpus() / "corrupt" / name));
        EXPECT_TRUE(sink->hasCode(code)) << describe(*sink);
    }
}

TEST(ZsCorrupt, DiagnosticsCarryNodePaths) {
    STRATA_SKIP_WITHOUT_CORPUS();
    const auto sink = validate(openZs(zsCorpus() / "corrupt/data-block-crc-wrong.zs"));
    bool found = false;
    for (const auto& d : sink->diagnostics()) {
        if (d.code == "ZS-BLOCK-CRC") {
            found = true;
            EXPECT_EQ(d.nodePath, "data-block-crc-wrong.zs/blocks/data block @134");
            ASSERT_FALSE(d.regions.empty());
            EXPECT_TRUE(d.regions.front().valid());
        }
    }
    EXPECT_TRUE(found);
}

TEST(ZsCorrupt, IndexBeforeChildrenIsReadable) {
    STRATA_SKIP_WITHOUT_CORPUS();
    const auto file = openZs(zsCorpus() / "corrupt/index-before-children.zs");
    const auto base = openZs(zsCorpus() / "corrupt/base-none.zs");
    EXPECT_EQ(allRecords(file), allRecords(base));
    EXPECT_EQ(file->findPrefix("cat"), base->findPrefix("cat"));
}

TEST(ZsRefsuite, GoodAndBadAgreeWithTheReference) {
    STRATA_SKIP_WITHOUT_CORPUS();
    const auto results = readJson(zsCorpus() / "refsuite/results.json");
    ASSERT_GE(results.size(), 40u);
    for (const auto& r : results) {
        const std::string name = r["file"].get<std::string>();
        SCOPED_TRACE(name);
        const auto sink = validate(openZs(zsCorpus() / name));
        if (r["validate_exit"].get<int>() == 0) {
            EXPECT_EQ(sink->countOf(Severity::Error), 0u) << describe(*sink);
        } else {
            EXPECT_GT(sink->countOf(Severity::Error), 0u) << describe(*sink);
        }
    }
}

TEST(ZsRefsuite, SpecificCodes) {
    STRATA_SKIP_WITHOUT_CORPUS();
    const std::vector<std::pair<const char*, const char*>> expectations{
        {"bad-data-order.zs", "ZS-RECORD-ORDER"},   {"bad-index-key-1.zs", "ZS-INDEX-KEY"},
        {"bad-index-key-2.zs", "ZS-INDEX-KEY"},     {"bad-index-key-3.zs", "ZS-INDEX-KEY"},
        {"bad-index-order.zs", "ZS-INDEX-ORDER"},   {"bad-level-index-1.zs", "ZS-INDEX-LEVEL"},
        {"bad-level-root.zs", "ZS-ROOT-LEVEL"},     {"bad-ref-length.zs", "ZS-INDEX-LENGTH"},
        {"empty-data.zs", "ZS-EMPTY-BLOCK"},        {"empty-index.zs", "ZS-EMPTY-BLOCK"},
        {"incomplete-magic.zs", "ZS-INCOMPLETE"},   {"non-dict-metadata.zs", "ZS-METADATA-TYPE"},
        {"partial-data-1.zs", "ZS-RECORD-LENGTH"},  {"partial-data-2.zs", "ZS-RECORD-LENGTH"},
        {"partial-index-1.zs", "ZS-INDEX-ENTRY"},   {"post-header-junk.zs", "ZS-BLOCK-LENGTH"},
        {"repeated-index.zs", "ZS-INDEX-MULTIREF"}, {"root-checksum.zs", "ZS-BLOCK-CRC"},
        {"root-is-data.zs", "ZS-ROOT-LEVEL"},       {"short-root.zs", "ZS-ROOT-LENGTH"},
        {"truncated-data-1.zs", "ZS-TRUNCATED"},    {"truncated-root.zs", "ZS-TRUNCATED"},
        {"unref-data.zs", "ZS-UNREACHABLE"},        {"unref-index.zs", "ZS-ROOT-OFFSET"},
        {"wrong-root-offset.zs", "ZS-ROOT-OFFSET"},
    };
    for (const auto& [name, code] : expectations) {
        SCOPED_TRACE(name);
        const auto sink = validate(openZs(zsCorpus() / "refsuite" / name));
        EXPECT_TRUE(sink->hasCode(code)) << describe(*sink);
    }
}

}  // namespace
}  // namespace strata::zs
