// A sixth format added from outside: the test's FakeFormat (tests/support/fake_format.h) is
// registered beside built-in handlers and gets detection, opening, the tree, validation,
// compare and the registry's refusals through the handler interface alone.
#include <gtest/gtest.h>

#include "fake_format.h"
#include "formats/builtin/builtin_formats.h"
#include "formats/registry/raw_binary_format.h"
#include "formats/zs/zs_format.h"
#include "registry_test_support.h"

namespace strata {
namespace {

using test::FakeFormat;
using test::kFakeFormat;
using test::ScratchDir;

FormatRegistry withFake() {
    FormatRegistry r;
    r.add(std::make_unique<ZsFormat>());
    r.add(std::make_unique<FakeFormat>());
    r.add(std::make_unique<RawBinaryFormat>());
    return r;
}

class CollectingDiffSink final : public DiffSink {
public:
    bool add(Difference d) override {
        differences.push_back(std::move(d));
        return true;
    }
    std::vector<Difference> differences;
};

TEST(FakeFormat, IsDetectedOpenedAndValidatedThroughTheRegistry) {
    ScratchDir dir;
    const auto fake = dir.write("records.fake", "FAKE\nok one\nbroken\nok three\n");
    const auto other = dir.write("notes.txt", "FAKE? no: not the magic line\n");
    const FormatRegistry registry = withFake();

    const Detection d = registry.detect(fake);
    EXPECT_EQ(d.format, kFakeFormat);
    EXPECT_EQ(displayName(d), "Fake (fake record file)");
    EXPECT_EQ(registry.detect(other).format, kRawBinaryFormat);
    EXPECT_EQ(formatName(kFakeFormat), "Fake");

    const auto opened = registry.open(fake);
    ASSERT_NE(opened, nullptr);
    EXPECT_EQ(opened->format, kFakeFormat);
    ASSERT_EQ(opened->root->childCount(), 3u);
    const Node* broken = opened->root->child(1);
    EXPECT_EQ(broken->value(), "broken");
    EXPECT_EQ(broken->region().offset, 12u);  // "FAKE\nok one\n"
    EXPECT_EQ(opened->root->deepestAt(13), broken);

    CollectingSink sink;
    ASSERT_TRUE(opened->makeValidator);
    opened->makeValidator()->run(sink, ValidationOptions{});
    ASSERT_EQ(sink.diagnostics().size(), 1u);
    EXPECT_EQ(sink.diagnostics()[0].code, "FAKE-RECORD");
    EXPECT_EQ(sink.diagnostics()[0].regions.at(0), broken->region());
}

TEST(FakeFormat, ComparesThroughItsHandlerAndIsRefusedARepairByName) {
    ScratchDir dir;
    const FormatRegistry registry = withFake();
    const auto a = registry.open(dir.write("a.fake", "FAKE\nok one\nok two\n"));
    const auto b = registry.open(dir.write("b.fake", "FAKE\nok one\nok 2\nok three\n"));
    const FormatHandler& handler = registry.handler(kFakeFormat);

    CollectingDiffSink sink;
    auto differ = handler.makeDiffer(*a, *b);
    EXPECT_EQ(differ->run(sink, DiffOptions{}), JobOutcome::Completed);
    ASSERT_EQ(sink.differences.size(), 2u);
    EXPECT_EQ(sink.differences[0].kind, DiffKind::Changed);
    EXPECT_EQ(sink.differences[1].kind, DiffKind::Added);
    CollectingDiffSink same;
    handler.makeDiffer(*a, *a)->run(same, DiffOptions{});
    EXPECT_TRUE(same.differences.empty());

    // No repair registered: the interface's default refuses, naming the format.
    EXPECT_FALSE(handler.canRepair());
    try {
        handler.repair(dir.path() / "a.fake", dir.path() / "out.fake", RepairOptions{});
        FAIL() << "a format without a repair repaired";
    } catch (const RepairError& e) {
        EXPECT_NE(std::string(e.what()).find("repairing Fake is not supported"), std::string::npos)
            << e.what();
    }
    // The raw-binary fallback has no compare either, and says so by name.
    const auto raw = registry.open(dir.write("raw.bin", "\x01\x02"));
    EXPECT_THROW(registry.handler(kRawBinaryFormat).makeDiffer(*raw, *raw), DiffError);
}

// The built-in list does not know the fake format: adding one changed no shared file.
TEST(FakeFormat, IsNotInTheBuiltInList) {
    for (const FormatHandler* h : builtinFormats().handlers()) {
        EXPECT_NE(h->id(), kFakeFormat);
    }
    EXPECT_THROW(builtinFormats().handler(kFakeFormat), std::out_of_range);
}

// strata-cli clean-leftovers joins every format's scan: together they find every kind of
// leftover, as deep as a Shardlake root's shards, and keep out of a ZDS collection's docs/.
TEST(BuiltinFormats, LeftoverScansTogetherCoverEveryKind) {
    unsigned kinds = 0, depth = 0;
    bool intoDocs = true;
    for (const FormatHandler* h : builtinFormats().handlers()) {
        const LeftoverScan scan = h->leftoverScan();
        kinds |= scan.kinds;
        depth = std::max(depth, scan.depth);
        if (scan.descend) {
            intoDocs = intoDocs && scan.descend("collections/c/docs");
        }
    }
    EXPECT_EQ(kinds, kAllLeftoverKinds);
    EXPECT_EQ(depth, 3u);
    EXPECT_FALSE(intoDocs);
    EXPECT_EQ(FakeFormat().leftoverScan().kinds, 0u);  // a format that saves nothing
}

}  // namespace
}  // namespace strata
