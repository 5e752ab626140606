#include "formats/common/node.h"

#include <gtest/gtest.h>

#include <atomic>

#include "formats/common/diagnostic.h"

namespace strata {
namespace {

// A node with `count` fixed-size lazily built children, counting how many were built.
class RecordsNode final : public Node {
public:
    RecordsNode(const ByteSource* source, std::uint64_t count, std::uint64_t recordSize)
        : Node("test.records", "records", {source, 0, count * recordSize}),
          count_(count),
          recordSize_(recordSize) {}

    mutable std::atomic<int> built{0};

protected:
    bool hasLazyChildren() const override { return count_ > 0; }
    std::uint64_t lazyChildCount() const override { return count_; }
    std::unique_ptr<Node> makeChild(std::uint64_t i) const override {
        ++built;
        auto node = std::make_unique<Node>("test.record", "record " + std::to_string(i),
                                           Region{region().source, i * recordSize_, recordSize_});
        node->addField("first byte", std::uint64_t{i}, Region{region().source, i * recordSize_, 1});
        return node;
    }

private:
    std::uint64_t count_;
    std::uint64_t recordSize_;
};

TEST(Node, EagerChildrenKnowParentAndRow) {
    Node root("test.root", "root");
    auto* a = root.appendChild(std::make_unique<Node>("test.a", "a"));
    auto* b = root.appendChild(std::make_unique<Node>("test.b", "b"));
    EXPECT_EQ(root.childCount(), 2u);
    EXPECT_EQ(root.child(1), b);
    EXPECT_EQ(b->row(), 1u);
    EXPECT_EQ(a->parent(), &root);
    EXPECT_EQ(b->path(), "root/b");
    EXPECT_EQ(root.child(2), nullptr);
}

TEST(Node, LazyChildrenAreBuiltOnDemandAndCached) {
    const auto source = makeBufferSource(std::vector<std::uint8_t>(4000));
    RecordsNode node(source.get(), 1000, 4);
    EXPECT_TRUE(node.hasChildren());
    EXPECT_EQ(node.childCount(), 1000u);
    EXPECT_EQ(node.built, 0);
    Node* c = node.child(500);
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->label(), "record 500");
    EXPECT_EQ(c->row(), 500u);
    EXPECT_EQ(node.child(500), c);
    EXPECT_EQ(node.built, 1);
    EXPECT_EQ(node.child(1000), nullptr);
}

TEST(Node, DeepestAtBinarySearchesWithoutEnumerating) {
    constexpr std::uint64_t kCount = 10'000'000;
    const auto source = makeBufferSource(std::vector<std::uint8_t>(16));
    // The regions are only numbers; the source's size does not limit them.
    Node root("test.root", "file", {source.get(), 0, kCount * 8});
    auto* records = static_cast<RecordsNode*>(
        root.appendChild(std::make_unique<RecordsNode>(source.get(), kCount, 8)));
    const Node* hit = root.deepestAt(8 * 7'654'321 + 3);
    ASSERT_NE(hit, nullptr);
    EXPECT_EQ(hit->label(), "record 7654321");
    EXPECT_LT(records->built, 64);
    EXPECT_EQ(root.deepestAt(kCount * 8), nullptr);
}

TEST(Node, DeepestAtStopsWhereNoChildCovers) {
    const auto source = makeBufferSource(std::vector<std::uint8_t>(100));
    Node root("test.root", "file", {source.get(), 0, 100});
    root.appendChild(std::make_unique<Node>("test.header", "header", Region{source.get(), 0, 16}));
    root.appendChild(std::make_unique<Node>("test.body", "body", Region{source.get(), 32, 16}));
    EXPECT_EQ(root.deepestAt(20)->label(), "file");
    EXPECT_EQ(root.deepestAt(40)->label(), "body");
    const auto other = makeBufferSource(std::vector<std::uint8_t>(100));
    EXPECT_EQ(root.deepestAt(40, other.get()), nullptr);
}

// An empty item shares its offset with the next one (an empty tensor before another): the node
// of a difference is found by its whole region, not by the offset alone.
TEST(Node, ExactlyAtTellsAnEmptyNodeFromTheOneAtItsOffset) {
    const auto source = makeBufferSource(std::vector<std::uint8_t>(100));
    for (const bool emptyFirst : {true, false}) {
        Node root("test.root", "file", {source.get(), 0, 100});
        root.appendChild(
            std::make_unique<Node>("test.header", "header", Region{source.get(), 0, 16}));
        const auto empty = [&] {
            root.appendChild(
                std::make_unique<Node>("test.item", "empty", Region{source.get(), 32, 0}));
        };
        if (emptyFirst) {
            empty();
        }
        auto* body = root.appendChild(
            std::make_unique<Node>("test.item", "body", Region{source.get(), 32, 16}));
        body->appendChild(std::make_unique<Node>("test.part", "part", Region{source.get(), 32, 4}));
        if (!emptyFirst) {
            empty();
        }
        EXPECT_EQ(root.deepestAt(32)->label(), "part");
        EXPECT_EQ(root.exactlyAt({source.get(), 32, 0})->label(), "empty");
        EXPECT_EQ(root.exactlyAt({source.get(), 32, 16})->label(), "body");
        EXPECT_EQ(root.exactlyAt({source.get(), 32, 4})->label(), "part");
        EXPECT_EQ(root.exactlyAt({source.get(), 0, 100})->label(), "file");
        EXPECT_EQ(root.exactlyAt({source.get(), 33, 1}), nullptr);
    }
}

TEST(Node, DeepestAtThroughAFolderNodeWithoutRegion) {
    const auto a = makeBufferSource(std::vector<std::uint8_t>(10), "a");
    const auto b = makeBufferSource(std::vector<std::uint8_t>(10), "b");
    Node folder("test.folder", "folder");
    folder.appendChild(std::make_unique<Node>("test.file", "a", Region{a.get(), 0, 10}));
    auto* fileB =
        folder.appendChild(std::make_unique<Node>("test.file", "b", Region{b.get(), 0, 10}));
    fileB->appendChild(std::make_unique<Node>("test.part", "part", Region{b.get(), 4, 2}));
    EXPECT_EQ(folder.deepestAt(5, b.get())->label(), "part");
    EXPECT_EQ(folder.deepestAt(5, a.get())->label(), "a");
    EXPECT_EQ(folder.deepestAt(5), nullptr);
    EXPECT_EQ(folder.deepestAt(10, a.get()), nullptr);
}

TEST(Node, FieldsFormatTheirValues) {
    Node node("test", "n");
    node.addField("count", std::uint64_t{42});
    node.addField("ratio", 0.5);
    node.addField("codec", std::string("lzma"), {}, "lzma (raw LZMA2)");
    EXPECT_EQ(node.fields()[0].text(), "42");
    EXPECT_EQ(node.fields()[1].text(), "0.5");
    EXPECT_EQ(node.fields()[2].text(), "lzma (raw LZMA2)");
}

TEST(Diagnostics, CollectingSinkTracksWorstSeverity) {
    CollectingSink sink;
    EXPECT_EQ(sink.worstSeverity(), Severity::Info);
    sink.report({Severity::Warning, "X-WARN", "careful", {}, {}, "f"});
    sink.report({Severity::Error, "X-ERR", "broken", {}, {}, "f"});
    EXPECT_EQ(sink.worstSeverity(), Severity::Error);
    EXPECT_TRUE(sink.hasCode("X-WARN"));
    EXPECT_EQ(sink.countOf(Severity::Error), 1u);
    EXPECT_EQ(sink.diagnostics()[1].fileName(), "f");
}

TEST(Diagnostics, CappedSinkForwardsUpToTheCapThenSummarises) {
    CollectingSink target;
    CappedSink capped(target, 2);
    for (int i = 0; i < 5; ++i) {
        capped.report({i == 4 ? Severity::Error : Severity::Warning, "X-MANY", "m", {}, {}, ""});
    }
    capped.report({Severity::Info, "X-ONE", "once", {}, {}, ""});
    capped.finish();
    ASSERT_EQ(target.diagnostics().size(), 4u);
    const Diagnostic& summary = target.diagnostics().back();
    EXPECT_EQ(summary.code, "X-MANY");
    EXPECT_EQ(summary.severity, Severity::Error);
    EXPECT_NE(summary.message.find("3 more"), std::string::npos);
}

}  // namespace
}  // namespace strata
