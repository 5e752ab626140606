// The identity check every repair runs before it calls itself complete
// (formats/common/repair.h, listContentDifferences): each difference of content between the
// input and the output is a loss, storage differences are not, and a comparison that cannot be
// made is a loss too.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "formats/common/byte_source.h"
#include "formats/common/repair.h"

namespace strata {
namespace {

// A differ that reports the differences it was given, or throws.
class ScriptedDiffer final : public Differ {
public:
    explicit ScriptedDiffer(std::vector<Difference> differences, bool throws = false)
        : differences_(std::move(differences)), throws_(throws) {}
    JobOutcome run(DiffSink& sink, const DiffOptions&) override {
        if (throws_) {
            throw DiffError("B cannot be read");
        }
        for (Difference d : differences_) {
            if (!report(sink, std::move(d))) {
                return JobOutcome::Stopped;
            }
        }
        return JobOutcome::Completed;
    }

private:
    std::vector<Difference> differences_;
    bool throws_;
};

Difference difference(DiffKind kind, std::string path, const Region& a = {}) {
    Difference d;
    d.kind = kind;
    d.path = std::move(path);
    d.description = "described";
    d.a.region = a;
    d.fields.push_back({"$.x", DiffKind::Changed, "1", "2"});
    return d;
}

TEST(RepairIdentity, EachDifferenceOfContentIsALoss) {
    const auto input = makeBufferSource(std::string(100, 'x'), "in.file");
    ScriptedDiffer differ({difference(DiffKind::Encoding, "stored/otherwise"),
                           difference(DiffKind::Changed, "item/1", Region{input.get(), 10, 5}),
                           difference(DiffKind::Added, "item/2")});
    RepairReport report;
    listContentDifferences(differ, report, {}, {"in.file"});
    ASSERT_EQ(report.losses.size(), 2u);
    EXPECT_EQ(report.losses[0].description,
              "the output differs from the input: changed item/1: described ($.x: 1 → 2)");
    EXPECT_EQ(report.losses[0].bytes.offset, 10u);
    EXPECT_EQ(report.losses[0].bytes.length, 5u);
    EXPECT_EQ(report.losses[1].bytes.file, "in.file");  // only in the output: the input named
    EXPECT_FALSE(report.complete());
}

TEST(RepairIdentity, StorageDifferencesAloneKeepTheRepairComplete) {
    ScriptedDiffer differ(
        {difference(DiffKind::Encoding, "a"), difference(DiffKind::Encoding, "b")});
    RepairReport report;
    listContentDifferences(differ, report, {});
    EXPECT_TRUE(report.complete());
}

TEST(RepairIdentity, ManyDifferencesAreCountedAndAFailedComparisonIsALoss) {
    std::vector<Difference> many;
    for (std::size_t i = 0; i < kMaxListedDifferences + 7; ++i) {
        many.push_back(difference(DiffKind::Removed, "item/" + std::to_string(i)));
    }
    ScriptedDiffer differ(many);
    RepairReport report;
    listContentDifferences(differ, report, {});
    ASSERT_EQ(report.losses.size(), kMaxListedDifferences + 1);
    EXPECT_NE(report.losses.back().description.find("in 7 more places"), std::string::npos);

    ScriptedDiffer broken({}, true);
    RepairReport other;
    listContentDifferences(broken, other, {});
    ASSERT_EQ(other.losses.size(), 1u);
    EXPECT_NE(other.losses[0].description.find("B cannot be read"), std::string::npos);
}

TEST(RepairIdentity, ARepairThatAlreadyListsLossesIsLeftAsItIs) {
    ScriptedDiffer differ({difference(DiffKind::Changed, "item/1")});
    RepairReport report;
    report.losses.push_back({"a block is lost", Region{}});
    listContentDifferences(differ, report, {});
    EXPECT_EQ(report.losses.size(), 1u);
}

}  // namespace
}  // namespace strata
