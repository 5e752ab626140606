// The valid ZS corpus: headers, record counts, dumps, queries and validation.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "formats/common/checksums.h"
#include "zs_test_support.h"

namespace strata::zs {
namespace {

using namespace testing;

std::vector<nlohmann::json> manifestFiles() {
    const auto manifest = readJson(zsCorpus() / "manifest.json");
    return {manifest["files"].begin(), manifest["files"].end()};
}

// The dump framing a manifest entry asks for: "\n", a terminator, "uleb128" or "u64le".
std::pair<std::string, std::string> dumpFraming(const nlohmann::json& entry) {
    for (const auto& arg : entry["dump_args"]) {
        const std::string a = arg.get<std::string>();
        if (a == "--length-prefixed=uleb128") {
            return {"uleb128", ""};
        }
        if (a == "--length-prefixed=u64le") {
            return {"u64le", ""};
        }
        if (a == "--terminator=\\x00") {
            return {"terminator", std::string(1, '\0')};
        }
    }
    return {"terminator", "\n"};
}

TEST(ZsValidCorpus, HeadersMatchReferenceInfo) {
    STRATA_SKIP_WITHOUT_CORPUS();
    for (const auto& entry : manifestFiles()) {
        SCOPED_TRACE(entry["file"].get<std::string>());
        const auto file = openZs(zsCorpus() / entry["file"].get<std::string>());
        const Header& h = file->header();
        const auto& info = entry["info"];
        ASSERT_TRUE(h.problems.empty());
        EXPECT_EQ(h.rootIndexOffset, info["root_index_offset"].get<std::uint64_t>());
        EXPECT_EQ(h.rootIndexLength, info["root_index_length"].get<std::uint64_t>());
        EXPECT_EQ(h.totalFileLength, info["total_file_length"].get<std::uint64_t>());
        EXPECT_EQ(h.codecText, info["codec"].get<std::string>());
        EXPECT_EQ(toHex(h.dataSha256), info["data_sha256"].get<std::string>());
        ASSERT_TRUE(h.metadata.has_value());
        EXPECT_EQ(*h.metadata, info["metadata"]);
        EXPECT_EQ(h.headerLength, entry["structure"]["header_length"].get<std::uint64_t>());
        EXPECT_EQ(h.firstBlockOffset(),
                  entry["structure"]["first_block_offset"].get<std::uint64_t>());
        ASSERT_TRUE(file->rootBlock().has_value());
        EXPECT_EQ(file->rootBlock()->frame.frame.level,
                  info["statistics"]["root_index_level"].get<int>());
    }
}

TEST(ZsValidCorpus, RecordCountsAndDumpsMatch) {
    STRATA_SKIP_WITHOUT_CORPUS();
    for (const auto& entry : manifestFiles()) {
        const std::string name = entry["file"].get<std::string>();
        SCOPED_TRACE(name);
        const auto file = openZs(zsCorpus() / name);
        const auto records = allRecords(file);
        EXPECT_EQ(records.size(), entry["records"].get<std::size_t>());
        const auto [framing, terminator] = dumpFraming(entry);
        const std::string dump = dumpRecords(records, framing, terminator);
        if (entry.contains("dump_file") && entry["dump_file"].is_string()) {
            EXPECT_EQ(dump, readText(zsCorpus() / entry["dump_file"].get<std::string>()));
        }
        EXPECT_EQ(toHex(sha256(asBytes(dump))), entry["dump_sha256"].get<std::string>());
    }
}

TEST(ZsValidCorpus, BlockLayoutMatchesManifest) {
    STRATA_SKIP_WITHOUT_CORPUS();
    for (const auto& entry : manifestFiles()) {
        const std::string name = entry["file"].get<std::string>();
        SCOPED_TRACE(name);
        if (!entry["structure"].contains("blocks")) {
            continue;  // the big file lists block counts only
        }
        const auto file = openZs(zsCorpus() / name);
        std::uint64_t pos = file->blocksBegin();
        for (const auto& block : entry["structure"]["blocks"]) {
            const FrameRead frame = readFrame(file->source(), pos, file->source().size());
            ASSERT_TRUE(frame.usable());
            EXPECT_EQ(pos, block["offset"].get<std::uint64_t>());
            EXPECT_EQ(frame.frame.totalLength(), block["total_length"].get<std::uint64_t>());
            EXPECT_EQ(frame.frame.level, block["level"].get<int>());
            pos = frame.frame.end();
        }
        EXPECT_EQ(pos, file->source().size());
    }
}

TEST(ZsValidCorpus, EveryValidFileValidatesWithoutErrorsOrWarnings) {
    STRATA_SKIP_WITHOUT_CORPUS();
    for (const auto& entry : manifestFiles()) {
        const std::string name = entry["file"].get<std::string>();
        SCOPED_TRACE(name);
        const auto sink = validate(openZs(zsCorpus() / name));
        EXPECT_EQ(sink->countOf(Severity::Error), 0u) << describe(*sink);
        EXPECT_EQ(sink->countOf(Severity::Warning), 0u) << describe(*sink);
    }
}

// Linear filter over all records: what every query must return.
std::vector<std::string> expected(const std::vector<std::string>& all, const RecordQuery& q) {
    std::vector<std::string> out;
    for (const auto& r : all) {
        if (q.start && r < *q.start)
            continue;
        if (q.stop && !(r < *q.stop))
            continue;
        if (q.prefix && r.compare(0, q.prefix->size(), *q.prefix) != 0)
            continue;
        out.push_back(r);
    }
    return out;
}

std::vector<std::string> run(const ZsFile& file, const RecordQuery& q) {
    std::vector<std::string> out;
    file.search(q, [&](std::span<const std::uint8_t> r) {
        out.emplace_back(r.begin(), r.end());
        return true;
    });
    return out;
}

TEST(ZsValidCorpus, QueriesAgreeWithLinearScan) {
    STRATA_SKIP_WITHOUT_CORPUS();
    std::mt19937 random(1234);
    for (const char* name :
         {"valid/tiny.zs", "valid/multilevel-bf2.zs", "valid/multilevel-bf3-lzma.zs",
          "valid/duplicates.zs", "valid/binary-uleb128.zs", "valid/codec-deflate.zs",
          "valid/one-empty-record.zs", "valid/nul-terminated.zs"}) {
        SCOPED_TRACE(name);
        const auto file = openZs(zsCorpus() / name);
        const auto all = allRecords(file);
        ASSERT_FALSE(all.empty());
        std::vector<std::string> probes{"", "\xff", "\xff\xff", "a", "zzzz"};
        for (int i = 0; i < 40; ++i) {
            std::string r = all[random() % all.size()];
            probes.push_back(r);
            probes.push_back(r.substr(0, r.size() / 2));
            probes.push_back(r + '\0');
            if (!r.empty()) {
                r.back() = static_cast<char>(r.back() + 1);
                probes.push_back(r);
            }
        }
        for (const auto& p : probes) {
            const RecordQuery prefix{std::nullopt, std::nullopt, p};
            EXPECT_EQ(run(*file, prefix), expected(all, prefix)) << "prefix " << p;
            const RecordQuery from{p, std::nullopt, std::nullopt};
            EXPECT_EQ(run(*file, from), expected(all, from)) << "start " << p;
            const RecordQuery until{std::nullopt, p, std::nullopt};
            EXPECT_EQ(run(*file, until), expected(all, until)) << "stop " << p;
            const std::string& other = probes[random() % probes.size()];
            const RecordQuery range{p, other, std::nullopt};
            EXPECT_EQ(run(*file, range), expected(all, range)) << p << ".." << other;
        }
    }
}

TEST(ZsValidCorpus, PrefixQueryReadsOnlyAFewBlocks) {
    STRATA_SKIP_WITHOUT_CORPUS();
    const auto file = openZs(zsCorpus() / "valid/big-ngrams-1m.zs");
    const auto all = allRecords(file);
    ASSERT_EQ(all.size(), 1000000u);
    const std::string prefix = all[543210].substr(0, 6);
    const std::uint64_t before = file->blocksRead();
    const auto found = file->findPrefix(prefix);
    const std::uint64_t reads = file->blocksRead() - before;
    EXPECT_EQ(found, expected(all, {std::nullopt, std::nullopt, prefix}));
    // Root (already cached at open) + at most a few data blocks, never the 69-block scan.
    EXPECT_LE(reads, 4u);

    const auto deep = openZs(zsCorpus() / "valid/multilevel-bf2.zs");
    const auto deepAll = allRecords(deep);
    const std::uint64_t deepBefore = deep->blocksRead();
    const auto one = deep->findPrefix(deepAll[70]);
    EXPECT_EQ(one, expected(deepAll, {std::nullopt, std::nullopt, deepAll[70]}));
    // Six index levels below the cached root, then the data block, the index blocks written
    // after it and the next data block: O(depth), not the 202-block file.
    EXPECT_LE(deep->blocksRead() - deepBefore, 6u + 1u + 7u + 1u);
}

TEST(ZsValidCorpus, FindRecordsHonoursLimit) {
    STRATA_SKIP_WITHOUT_CORPUS();
    const auto file = openZs(zsCorpus() / "valid/codec-none.zs");
    EXPECT_EQ(file->findRecords(std::nullopt, std::nullopt, 5).size(), 5u);
    EXPECT_TRUE(file->findRecords(std::string("b"), std::string("a")).empty());
}

}  // namespace
}  // namespace strata::zs
