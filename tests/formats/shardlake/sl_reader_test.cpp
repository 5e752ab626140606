// The reader: binary layouts, the lazy tree, and hostile headers that must give clear errors
// without crashing or allocating what the header claims.
#include <gtest/gtest.h>

#include <filesystem>

#include "formats/builtin/builtin_formats.h"
#include "formats/shardlake/shardlake_binary.h"
#include "formats/shardlake/shardlake_format.h"
#include "formats/shardlake/shardlake_json.h"
#include "formats/shardlake/shardlake_manifest.h"
#include "formats/shardlake/shardlake_tree.h"
#include "sl_test_support.h"

namespace strata {
namespace {

namespace fs = std::filesystem;
using namespace shardlake;
using test::Bytes;
using test::describe;
using test::makeRawShard;

bool hasProblem(const std::vector<BinaryProblem>& problems, std::string_view code) {
    for (const BinaryProblem& p : problems) {
        if (p.code == code) {
            return true;
        }
    }
    return false;
}

test::Findings validateShardBytes(const std::vector<std::uint8_t>& bytes) {
    auto source = makeBufferSource(bytes, "test.sidx");
    auto store = std::make_shared<const Store>(fs::temp_directory_path());
    CollectingSink sink;
    makeShardlakeValidator(store, {ValidationScope::Shard, "test.sidx", source})->run(sink, {});
    return test::Findings(sink, source);
}

const Node* childOfKind(const Node& node, std::string_view kind) {
    for (std::uint64_t i = 0; i < node.childCount(); ++i) {
        if (node.child(i)->kind() == kind) {
            return node.child(i);
        }
    }
    return nullptr;
}

TEST(ShardlakeReader, RawShardLayout) {
    const auto bytes = makeRawShard(3, 5, 7);
    auto source = makeBufferSource(bytes);
    const ShardParse parse = parseShard(*source);
    ASSERT_TRUE(parse.layout);
    EXPECT_TRUE(parse.problems.empty());
    EXPECT_EQ(parse.layout->shardId, 3u);
    EXPECT_EQ(parse.layout->recordsOffset, 32u + 20u);
    EXPECT_EQ(parse.layout->recordSize, 28u);
    EXPECT_EQ(parse.layout->recordsPresent(), 7u);
    EXPECT_EQ(*parse.layout->expectedSize, bytes.size());
    EXPECT_TRUE(validateShardBytes(bytes).diagnostics().empty());
}

TEST(ShardlakeReader, ShardTreeIsLazyAndRecordsSitAtComputedOffsets) {
    const auto bytes = makeRawShard(0, 3, 1000, 100);
    auto source = makeBufferSource(bytes);
    auto node = makeShardNode(source, "shard");
    EXPECT_EQ(node->kind(), "shardlake.shard");
    ASSERT_NE(childOfKind(*node, "shardlake.shard.header"), nullptr);
    const Node* records = childOfKind(*node, "shardlake.records");
    ASSERT_NE(records, nullptr);
    ASSERT_EQ(records->childCount(), 1000u);
    const Node* record = records->child(617);
    EXPECT_EQ(record->kind(), "shardlake.record");
    EXPECT_EQ(record->region().offset, 32u + 12u + 617u * 20u);
    EXPECT_EQ(record->region().length, 20u);
    ASSERT_FALSE(record->fields().empty());
    EXPECT_EQ(std::get<std::uint64_t>(record->fields().front().value), 717u);
    // A byte inside record 900's vector resolves to that record.
    const std::uint64_t inside = 32 + 12 + 900 * 20 + 10;
    EXPECT_EQ(node->deepestAt(inside)->label(), "record 900");
    const Node* centroids = childOfKind(*node, "shardlake.centroids");
    ASSERT_NE(centroids, nullptr);
    ASSERT_EQ(centroids->childCount(), 1u);
    EXPECT_EQ(centroids->child(0)->kind(), "shardlake.centroid");
}

TEST(ShardlakeReader, PqShardLayout) {
    Bytes b;
    b.raw(std::string_view("SLKIDX\0\0", 8)).u32(2).u32(0).u32(8).u32(1).u64(3).u32(4).u32(16);
    for (int j = 0; j < 8; ++j) {
        b.f32(0.0f);
    }
    for (std::uint64_t i = 0; i < 3; ++i) {
        b.u64(i + 1).u8(1).u8(2).u8(3).u8(15);
    }
    const auto bytes = b.take();
    auto source = makeBufferSource(bytes);
    const ShardParse parse = parseShard(*source);
    ASSERT_TRUE(parse.layout);
    EXPECT_TRUE(parse.problems.empty());
    EXPECT_EQ(parse.layout->headerSize, 40u);
    EXPECT_EQ(parse.layout->recordSize, 12u);
    EXPECT_TRUE(validateShardBytes(bytes).diagnostics().empty());
    auto node = makeShardNode(source, "pq");
    const Node* records = childOfKind(*node, "shardlake.records");
    ASSERT_NE(records, nullptr);
    EXPECT_EQ(records->child(2)->fields()[1].text(), "1 2 3 15");
}

TEST(ShardlakeHostile, HugeCountIsTruncationNotAllocation) {
    auto bytes = makeRawShard(0, 4, 2);
    bytes[24] = 0;
    bytes[25] = 0;
    bytes[26] = 0;
    bytes[27] = 0;
    bytes[28] = 0;
    bytes[29] = 1;  // vector_count = 2^40
    auto source = makeBufferSource(bytes);
    const ShardParse parse = parseShard(*source);
    ASSERT_TRUE(parse.layout);
    EXPECT_EQ(parse.layout->vectorCount, std::uint64_t{1} << 40);
    EXPECT_TRUE(hasProblem(parse.problems, "SL-TRUNCATED"));
    EXPECT_EQ(parse.layout->recordsPresent(), 2u);
    auto node = makeShardNode(source, "hostile");
    EXPECT_EQ(node->status(), Status::Error);
    EXPECT_EQ(childOfKind(*node, "shardlake.records")->childCount(), 2u);
    const test::Findings sink = validateShardBytes(bytes);
    EXPECT_TRUE(sink.hasCode("SL-TRUNCATED")) << describe(sink);
}

TEST(ShardlakeHostile, CountOverflowing64BitsIsReported) {
    Bytes b;
    b.raw(std::string_view("SLKIDX\0\0", 8)).u32(1).u32(0).u32(0xffffffffu).u32(0xffffffffu);
    b.u64(~std::uint64_t{0});
    auto source = makeBufferSource(b.take());
    const ShardParse parse = parseShard(*source);
    ASSERT_TRUE(parse.layout);
    EXPECT_FALSE(parse.layout->expectedSize.has_value());
    EXPECT_TRUE(hasProblem(parse.problems, "SL-TRUNCATED"));
    EXPECT_EQ(parse.layout->recordsPresent(), 0u);
    EXPECT_EQ(parse.layout->centroidsPresent(), 0u);
    auto node = makeShardNode(source, "hostile");
    EXPECT_EQ(node->status(), Status::Error);
    EXPECT_TRUE(validateShardBytes(b.take()).hasCode("SL-TRUNCATED"));
}

TEST(ShardlakeHostile, ZeroDimsIsAnError) {
    const auto bytes = makeRawShard(0, 0, 3);
    const test::Findings sink = validateShardBytes(bytes);
    EXPECT_TRUE(sink.hasCode("SL-DIMS")) << describe(sink);
    EXPECT_EQ(sink.worstSeverity(), Severity::Error);
}

TEST(ShardlakeHostile, HugeDimsIsAnError) {
    Bytes b;
    b.raw(std::string_view("SLKIDX\0\0", 8)).u32(1).u32(0).u32(0x40000000u).u32(1).u64(5);
    const test::Findings sink = validateShardBytes(b.take());
    EXPECT_TRUE(sink.hasCode("SL-TRUNCATED")) << describe(sink);
}

TEST(ShardlakeHostile, ShortFilesAndBadMagic) {
    EXPECT_TRUE(validateShardBytes(Bytes().raw("SLK").take()).hasCode("SL-TRUNCATED"));
    EXPECT_TRUE(validateShardBytes(Bytes().raw("garbage!!").take()).hasCode("SL-MAGIC"));
    auto header = makeRawShard(0, 4, 1);
    header.resize(20);
    EXPECT_TRUE(validateShardBytes(header).hasCode("SL-TRUNCATED"));
    Bytes v2;
    v2.raw(std::string_view("SLKIDX\0\0", 8)).u32(2).u32(0).u32(4).u32(1).u64(0);
    EXPECT_TRUE(validateShardBytes(v2.take()).hasCode("SL-TRUNCATED"));  // no pq_m/pq_k
}

TEST(ShardlakeHostile, PqParametersAndCodes) {
    Bytes b;
    b.raw(std::string_view("SLKIDX\0\0", 8)).u32(2).u32(0).u32(4).u32(1).u64(1).u32(2).u32(300);
    for (int j = 0; j < 4; ++j) {
        b.f32(0.0f);
    }
    b.u64(1).u8(0).u8(9);
    EXPECT_TRUE(validateShardBytes(b.take()).hasCode("SL-PQ"));
    Bytes c;
    c.raw(std::string_view("SLKIDX\0\0", 8)).u32(2).u32(0).u32(4).u32(1).u64(1).u32(2).u32(8);
    for (int j = 0; j < 4; ++j) {
        c.f32(0.0f);
    }
    c.u64(1).u8(0).u8(9);
    EXPECT_TRUE(validateShardBytes(c.take()).hasCode("SL-PQ-CODE"));
}

TEST(ShardlakeHostile, NonFiniteValuesAndDuplicateIds) {
    auto bytes = makeRawShard(0, 2, 3);
    // Record 1's second value := NaN; record 2's id := record 0's id.
    const std::size_t record1 = 32 + 8 + 1 * 16;
    bytes[record1 + 12 + 2] = 0xc0;
    bytes[record1 + 12 + 3] = 0x7f;
    const std::size_t record2 = 32 + 8 + 2 * 16;
    bytes[record2] = 1;
    const test::Findings sink = validateShardBytes(bytes);
    EXPECT_TRUE(sink.hasCode("SL-NONFINITE")) << describe(sink);
    EXPECT_TRUE(sink.hasCode("SL-DUPLICATE-ID")) << describe(sink);
}

TEST(ShardlakeHostile, CoarseQuantizerAndCodebook) {
    Bytes cq;
    cq.raw(std::string_view("SLKIVF\0\0", 8)).u32(1).u32(2).u32(0xffffffffu);
    auto source = makeBufferSource(cq.take());
    const CoarseParse parse = parseCoarseQuantizer(*source);
    ASSERT_TRUE(parse.layout);
    EXPECT_TRUE(hasProblem(parse.problems, "SL-TRUNCATED"));
    EXPECT_EQ(parse.layout->centroidsPresent(), 0u);
    Bytes cb;
    cb.raw(std::string_view("SLKPQCB\0", 8)).u32(1).u32(16).u32(4).u32(0).u32(3);
    auto codebook = makeBufferSource(cb.take());
    const CodebookParse pq = parseCodebook(*codebook);
    EXPECT_TRUE(hasProblem(pq.problems, "SL-PQ"));
    auto node = makeCodebookNode(codebook, "cb");
    EXPECT_EQ(node->status(), Status::Error);
}

TEST(ShardlakeKeys, EscapingKeysAreRejected) {
    EXPECT_EQ(keyProblem("indexes/a/shards/shard-0000.sidx"), "");
    for (const char* bad : {"../etc/passwd", "/abs/path", "a\\b", "a/../b", "a/./b", "a//b", ""}) {
        EXPECT_NE(keyProblem(bad), "") << bad;
    }
    Store store(fs::temp_directory_path());
    EXPECT_EQ(store.source("../../etc/passwd"), nullptr);
}

TEST(ShardlakeTree, CorpusRootTree) {
    STRATA_SKIP_WITHOUT_CORPUS();
    const fs::path root = test::slCorpusDir() / "root";
    const auto document = builtinFormats().open(root);
    ASSERT_EQ(document->format, kShardlakeFormat);
    const Node& top = *document->root;
    EXPECT_EQ(top.kind(), "shardlake.root");
    const Node* indexes = childOfKind(top, "shardlake.indexes");
    ASSERT_NE(indexes, nullptr);
    ASSERT_EQ(indexes->childCount(), 4u);
    const Node* index = indexes->child(0);
    EXPECT_EQ(index->kind(), "shardlake.index");
    ASSERT_NE(childOfKind(*index, "shardlake.manifest"), nullptr);
    ASSERT_NE(childOfKind(*index, "shardlake.coarse_quantizer"), nullptr);
    const Node* shard = childOfKind(*index, "shardlake.shard");
    ASSERT_NE(shard, nullptr);
    EXPECT_EQ(shard->status(), Status::Ok);
    EXPECT_EQ(shard->label(), "shards/shard-0000.sidx");
    // Every node region lies in the source of its own file, and that source is the document's:
    // shards open as the tree first shows them, and the document finds them then.
    ASSERT_TRUE(document->sourceOpenedLater);
    EXPECT_EQ(document->sourceOpenedLater(shard->region().source).get(), shard->region().source);
    EXPECT_EQ(document->sourceOpenedLater(nullptr), nullptr);
    const Node* aliases = childOfKind(top, "shardlake.aliases");
    ASSERT_NE(aliases, nullptr);
    EXPECT_EQ(aliases->childCount(), 3u);
    EXPECT_EQ(aliases->child(0)->kind(), "shardlake.alias");
    const Node* datasets = childOfKind(top, "shardlake.datasets");
    ASSERT_NE(datasets, nullptr);
    ASSERT_EQ(datasets->childCount(), 1u);
    EXPECT_NE(childOfKind(*datasets->child(0), "shardlake.dataset_info"), nullptr);
    const auto pq = builtinFormats().open(root / "indexes/idx-pq/shards/shard-0001.sidx");
    EXPECT_EQ(pq->root->kind(), "shardlake.shard");
    EXPECT_EQ(childOfKind(*pq->root, "shardlake.records")->childCount(), 750u);
}

}  // namespace
}  // namespace strata

namespace strata {
namespace {

// The quick check validation uses for metadata.json: true only for one JSON object; anything
// else goes to the full parse, which gives the verdict and the place.
TEST(ShardlakeJson, QuickObjectCheckSaysYesOnlyForOneObject) {
    using shardlake::holdsJsonObject;
    EXPECT_TRUE(holdsJsonObject(*makeBufferSource(R"({"1": {"n": 1}, "2": {}})")));
    EXPECT_TRUE(holdsJsonObject(*makeBufferSource(" {} \n")));
    for (const char* other : {"[]", "{} {}", R"({"a": )", "", "\"text\"", "{\"a\":\"\xff\"}"}) {
        EXPECT_FALSE(holdsJsonObject(*makeBufferSource(other))) << other;
        if (shardlake::loadJson(makeBufferSource(other)).parsed) {
            // What the quick check refuses but nlohmann reads is still read by the full parse.
            EXPECT_FALSE(shardlake::loadJson(makeBufferSource(other)).value.is_object()) << other;
        }
    }
}

}  // namespace
}  // namespace strata
