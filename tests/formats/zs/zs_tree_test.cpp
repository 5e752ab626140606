// The lazy ZS structure tree.
#include <gtest/gtest.h>

#include "formats/zs/zs_tree.h"
#include "zs_test_support.h"

namespace strata::zs {
namespace {

using namespace testing;

const Node* childOfKind(const Node& node, const std::string& kind) {
    for (std::uint64_t i = 0; i < node.childCount(); ++i) {
        if (node.child(i)->kind() == kind) {
            return node.child(i);
        }
    }
    return nullptr;
}

TEST(ZsTree, TopLevelShape) {
    STRATA_SKIP_WITHOUT_CORPUS();
    const auto file = openZs(zsCorpus() / "valid/tiny.zs");
    auto tree = buildZsTree(file);
    EXPECT_EQ(tree->kind(), "zs.file");
    EXPECT_EQ(tree->label(), "tiny.zs");
    ASSERT_EQ(tree->childCount(), 4u);
    EXPECT_EQ(tree->child(0)->kind(), "zs.magic");
    EXPECT_EQ(tree->child(1)->kind(), "zs.header");
    EXPECT_EQ(tree->child(2)->kind(), "zs.index_block");
    EXPECT_EQ(tree->child(2)->label(), "root index");
    EXPECT_EQ(tree->child(3)->kind(), "zs.blocks");
    EXPECT_EQ(tree->status(), Status::Ok);
}

TEST(ZsTree, HeaderFieldsHaveRegions) {
    STRATA_SKIP_WITHOUT_CORPUS();
    const auto file = openZs(zsCorpus() / "valid/tiny.zs");
    auto tree = buildZsTree(file);
    const Node* header = tree->child(1);
    bool sawCodec = false;
    for (const auto& field : header->fields()) {
        EXPECT_TRUE(field.region.valid()) << field.name;
        if (field.name == "codec") {
            sawCodec = true;
            EXPECT_EQ(field.region.offset, 72u);
            EXPECT_EQ(field.region.length, 16u);
            EXPECT_EQ(field.text(), "lzma2;dsize=2^20");
        }
    }
    EXPECT_TRUE(sawCodec);
    ASSERT_GT(header->childCount(), 8u);
    EXPECT_EQ(header->child(0)->kind(), "zs.header.field");
    EXPECT_EQ(header->child(0)->path(), "tiny.zs/header/header length");
}

TEST(ZsTree, OpeningReadsOnlyHeaderAndRoot) {
    STRATA_SKIP_WITHOUT_CORPUS();
    const auto file = openZs(zsCorpus() / "valid/big-ngrams-1m.zs");
    EXPECT_EQ(file->blocksRead(), 1u);
    auto tree = buildZsTree(file);
    EXPECT_EQ(file->blocksRead(), 1u);  // the root index node reuses the block read at open
    Node* root = tree->child(2);
    EXPECT_EQ(root->childCount(), 69u);
    EXPECT_EQ(file->blocksRead(), 1u);
    Node* block = root->child(10);
    EXPECT_EQ(block->kind(), "zs.data_block");
    EXPECT_EQ(file->blocksRead(), 1u);  // made, not yet expanded
    EXPECT_GT(block->childCount(), 1000u);
    EXPECT_EQ(file->blocksRead(), 2u);
    EXPECT_EQ(block->child(5)->kind(), "zs.record");
}

TEST(ZsTree, RecordsOfACompressedBlock) {
    STRATA_SKIP_WITHOUT_CORPUS();
    const auto file = openZs(zsCorpus() / "valid/tiny.zs");
    auto tree = buildZsTree(file);
    Node* data = tree->child(2)->child(0);
    ASSERT_EQ(data->kind(), "zs.data_block");
    ASSERT_EQ(data->childCount(), 3u);
    EXPECT_EQ(data->child(0)->value(), "apple");
    EXPECT_EQ(data->child(2)->value(), "cherry");
    // Regions of compressed records point into the decoded payload.
    EXPECT_NE(data->child(1)->region().source, &file->source());
    EXPECT_EQ(data->child(1)->region().length, 7u);  // uleb128 6 + "banana"
}

TEST(ZsTree, ClickingARecordByteFindsTheRecord) {
    STRATA_SKIP_WITHOUT_CORPUS();
    const auto file = openZs(zsCorpus() / "valid/codec-none.zs");
    const auto records = allRecords(file);
    auto tree = buildZsTree(file);
    const std::string text = readText(zsCorpus() / "valid/codec-none.zs");
    const auto at = text.find(records[100]);
    ASSERT_NE(at, std::string::npos);
    const Node* node = tree->deepestAt(at + 1);
    ASSERT_NE(node, nullptr);
    EXPECT_EQ(node->kind(), "zs.record");
    EXPECT_EQ(node->value(), records[100]);
}

TEST(ZsTree, BlocksListInFileOrder) {
    STRATA_SKIP_WITHOUT_CORPUS();
    const auto file = openZs(zsCorpus() / "valid/multilevel-bf2.zs");
    auto tree = buildZsTree(file);
    const Node* blocks = childOfKind(*tree, "zs.blocks");
    ASSERT_NE(blocks, nullptr);
    EXPECT_EQ(blocks->childCount(), 202u);  // 100 + 50 + 25 + 13 + 7 + 4 + 2 + 1
    EXPECT_EQ(blocks->child(0)->label(), "data block @106");
}

TEST(ZsTree, DamageShowsAsErrorStatus) {
    STRATA_SKIP_WITHOUT_CORPUS();
    const auto file = openZs(zsCorpus() / "corrupt/data-block-crc-wrong.zs");
    auto tree = buildZsTree(file);
    const Node* blocks = childOfKind(*tree, "zs.blocks");
    ASSERT_NE(blocks, nullptr);
    bool sawError = false;
    for (std::uint64_t i = 0; i < blocks->childCount(); ++i) {
        Node* block = blocks->child(i);
        block->childCount();  // expanding checks the CRC
        if (block->region().offset == 134) {
            EXPECT_EQ(block->status(), Status::Error);
            sawError = true;
        }
    }
    EXPECT_TRUE(sawError);

    const auto bad = openZs(zsCorpus() / "corrupt/magic-bad.zs");
    auto badTree = buildZsTree(bad);
    EXPECT_EQ(badTree->status(), Status::Error);
    EXPECT_EQ(badTree->child(0)->status(), Status::Error);
}

}  // namespace
}  // namespace strata::zs
