// The OZDF tree through the format registry entry: node kinds, regions in the right files.
#include <gtest/gtest.h>

#include "formats/ozdf/ozdf_format.h"
#include "formats/ozdf/ozdf_probe.h"
#include "ozdf_test_support.h"

namespace strata {
namespace {

namespace fs = std::filesystem;

std::unique_ptr<OpenedDocument> openPath(const fs::path& path) {
    OzdfFormat format;
    const auto detection = format.probe(ProbeInput::fromPath(path));
    EXPECT_TRUE(detection.has_value());
    return format.open(path, detection.value_or(Detection{}));
}

TEST(OzdfTree, DirectoryDocumentPartsLiveInTheirOwnFiles) {
    STRATA_SKIP_WITHOUT_CORPUS();
    const fs::path path = ozdf::test::corpusDir() / "valid/handwritten/dirdocs/basic";
    const auto opened = openPath(path);
    ASSERT_NE(opened->root, nullptr);
    EXPECT_EQ(opened->root->kind(), "ozdf.document");
    const Node* external = nullptr;
    for (std::uint64_t i = 0; i < opened->root->childCount(); ++i) {
        if (opened->root->child(i)->kind() == "ozdf.external_list") {
            external = opened->root->child(i);
        }
    }
    ASSERT_NE(external, nullptr);
    ASSERT_GT(external->childCount(), 0U);
    const Node* part = external->child(0);
    EXPECT_EQ(part->kind(), "ozdf.part");
    ASSERT_NE(part->region().source, nullptr);
    EXPECT_NE(part->region().source, external->region().source);
    EXPECT_TRUE(part->region().source->name().ends_with(".ozdp"));
    ASSERT_EQ(part->childCount(), 1U);
    EXPECT_EQ(part->child(0)->kind(), "ozdf.item");
    EXPECT_EQ(part->child(0)->region().source, part->region().source);
    EXPECT_GE(opened->sources.size(), 2U);
    ASSERT_TRUE(opened->makeValidator);
    CollectingSink sink;
    EXPECT_EQ(opened->makeValidator()->run(sink, {}), JobOutcome::Completed);
    EXPECT_EQ(sink.countOf(Severity::Error), 0U);
}

TEST(OzdfTree, StandaloneDocumentNodesNestAndCoverTheirBytes) {
    STRATA_SKIP_WITHOUT_CORPUS();
    const fs::path path = ozdf::test::corpusDir() / "valid/handwritten/docs/list_named_items.ozdf";
    const auto opened = openPath(path);
    const Node* root = opened->root.get();
    ASSERT_NE(root, nullptr);
    const Node* list = nullptr;
    for (std::uint64_t i = 0; i < root->childCount(); ++i) {
        if (root->child(i)->kind() == "ozdf.list") {
            list = root->child(i);
        }
    }
    ASSERT_NE(list, nullptr);
    ASSERT_GT(list->childCount(), 0U);
    const Node* item = list->child(0);
    EXPECT_EQ(item->kind(), "ozdf.item");
    ASSERT_GT(item->childCount(), 0U);
    const Node* paragraph = item->child(0);
    EXPECT_EQ(paragraph->kind(), "ozdf.paragraph");
    EXPECT_TRUE(list->region().contains(item->region()));
    EXPECT_TRUE(item->region().contains(paragraph->region()));
    EXPECT_EQ(root->deepestAt(paragraph->region().offset), paragraph);
}

TEST(OzdfTree, CorpusHoldsItsDocuments) {
    STRATA_SKIP_WITHOUT_CORPUS();
    const auto opened = openPath(ozdf::test::corpusDir() / "valid/handwritten/corpora/mixed");
    EXPECT_EQ(opened->root->kind(), "ozdf.corpus");
    EXPECT_GT(opened->root->childCount(), 2U);
    for (std::uint64_t i = 0; i < opened->root->childCount(); ++i) {
        EXPECT_EQ(opened->root->child(i)->kind(), "ozdf.document");
    }
}

}  // namespace
}  // namespace strata
