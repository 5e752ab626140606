// Comparing ZDS datasets: diff(A, A) is empty, the same documents in another storage compare as
// the same content, and a known set of edits is reported exactly, no more and no fewer; random
// edits of random collections are reported exactly and mirror.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "formats/registry/format_diff.h"
#include "formats/registry/format_registry.h"
#include "formats/zds/zds_diff.h"
#include "formats/zds/zds_jobs.h"
#include "formats/zds/zds_reader.h"
#include "zds_test_support.h"

namespace strata {
namespace {

namespace fs = std::filesystem;
using zds_test::ScratchDir;
using zds_test::writeAll;

struct Collected final : DiffSink {
    std::vector<Difference> all;
    bool add(Difference d) override {
        all.push_back(std::move(d));
        return true;
    }
    std::map<std::string, DiffKind> byPath() const {
        std::map<std::string, DiffKind> out;
        for (const Difference& d : all) {
            out[d.path] = d.kind;
        }
        return out;
    }
};

Collected diff(const fs::path& a, const fs::path& b, DiffSummary* summary = nullptr) {
    auto differ = makeZdsDiffer(ZdsDataset::open(a), ZdsDataset::open(b));
    Collected sink;
    EXPECT_EQ(differ->run(sink, {}), DiffOutcome::Completed);
    if (summary != nullptr) {
        *summary = differ->summary();
    }
    return sink;
}

void writeData(const fs::path& ds, const std::string& collection, const std::string& lines) {
    writeAll(ds / "collections" / collection / "meta/data.jsonl", lines);
}

const std::string kBase = R"({"_id":"a","n":1,"m":{"k":[1,2]}})"
                          "\n"
                          R"({"_id":"b","s":"x"})"
                          "\n"
                          R"({"_id":"c","t":true})"
                          "\n";

TEST(ZdsDiff, ADatasetEqualsItself) {
    ScratchDir dir("diff_self");
    writeData(dir.path() / "a", "one", kBase);
    writeData(dir.path() / "a", "two",
              R"({"_id":"z"})"
              "\n");
    DiffSummary s;
    EXPECT_TRUE(diff(dir.path() / "a", dir.path() / "a", &s).all.empty());
    EXPECT_EQ(s.compared, 4u);
    EXPECT_TRUE(s.contentEqual());
}

TEST(ZdsDiff, TheSameDocumentsStoredDifferentlyAreTheSameContent) {
    ScratchDir dir("diff_storage");
    const fs::path a = dir.path() / "a";
    writeData(a, "one", kBase);
    // Packed, converted to docs/ and with whitespace and key order changed: no content change.
    packZds(a, dir.path() / "a.zds");
    fs::copy(a, dir.path() / "docs", fs::copy_options::recursive);
    convertZds(dir.path() / "docs", ZdsLayout::Docs);
    writeData(dir.path() / "spaced", "one",
              R"({ "m": {"k": [1, 2]}, "n": 1, "_id": "a" })"
              "\n"
              R"({"_id":"b","s":"x"})"
              "\n"
              R"({"_id":"c","t":true})"
              "\n");
    for (const char* other : {"a.zds", "docs", "spaced"}) {
        DiffSummary s;
        const Collected c = diff(a, dir.path() / other, &s);
        EXPECT_TRUE(s.contentEqual()) << other;
        EXPECT_GT(s.encoding, 0u) << other;
        for (const Difference& d : c.all) {
            EXPECT_EQ(d.kind, DiffKind::Encoding) << other << ": " << d.description;
        }
    }
}

TEST(ZdsDiff, AKnownSetOfEditsIsReportedExactly) {
    ScratchDir dir("diff_edits");
    writeData(dir.path() / "a", "one", kBase);
    writeData(dir.path() / "a", "gone",
              R"({"_id":"g"})"
              "\n");
    writeData(dir.path() / "b", "one",
              R"({"_id":"a","n":2,"m":{"k":[1]},"new":null})"
              "\n"
              R"({"_id":"c","t":true})"
              "\n"
              R"({"_id":"d","s":"y"})"
              "\n");
    writeData(dir.path() / "b", "fresh",
              R"({"_id":"f"})"
              "\n");
    DiffSummary s;
    const Collected c = diff(dir.path() / "a", dir.path() / "b", &s);
    const std::map<std::string, DiffKind> expected = {{"one/a", DiffKind::Changed},
                                                      {"one/b", DiffKind::Removed},
                                                      {"one/d", DiffKind::Added},
                                                      {"gone", DiffKind::Removed},
                                                      {"fresh", DiffKind::Added}};
    EXPECT_EQ(c.byPath(), expected);
    EXPECT_EQ(c.all.size(), expected.size());
    EXPECT_EQ(s.changed, 1u);
    EXPECT_EQ(s.added, 2u);
    EXPECT_EQ(s.removed, 2u);
    EXPECT_FALSE(s.contentEqual());
    const Difference& changed =
        *std::find_if(c.all.begin(), c.all.end(), [](auto& d) { return d.path == "one/a"; });
    std::map<std::string, std::pair<std::string, std::string>> fields;
    for (const DiffField& f : changed.fields) {
        fields[f.path] = {f.a, f.b};
    }
    const std::map<std::string, std::pair<std::string, std::string>> wantFields = {
        {"$.n", {"1", "2"}}, {"$.m.k[1]", {"2", ""}}, {"$.new", {"", "null"}}};
    EXPECT_EQ(fields, wantFields);
    EXPECT_TRUE(changed.a.region.valid());
    EXPECT_TRUE(changed.b.region.valid());
}

TEST(ZdsDiff, OtherFormatsAndUnreadableSidesAreClearErrors) {
    ScratchDir dir("diff_errors");
    writeData(dir.path() / "a", "one", kBase);
    writeAll(dir.path() / "raw.bin", "not a dataset");
    const auto a = FormatRegistry::builtin().open(dir.path() / "a");
    const auto raw = FormatRegistry::builtin().open(dir.path() / "raw.bin");
    EXPECT_THROW(makeDiffer(*a, *raw), DiffError);
    EXPECT_THROW(FormatRegistry::builtin().open(dir.path() / "missing"), SourceError);
}

TEST(ZdsDiff, StopsWhenTheSinkHasEnough) {
    ScratchDir dir("diff_stop");
    writeData(dir.path() / "a", "one", kBase);
    writeData(dir.path() / "b", "one", "");
    struct One final : DiffSink {
        int seen = 0;
        bool add(Difference) override { return ++seen <= 1; }
    } one;
    auto differ =
        makeZdsDiffer(ZdsDataset::open(dir.path() / "a"), ZdsDataset::open(dir.path() / "b"));
    EXPECT_EQ(differ->run(one, {}), DiffOutcome::Stopped);
    EXPECT_EQ(differ->summary().removed, 1u);
}

// Property: for random collections with random edits (documents removed, added, a field
// changed), diff(A, B) reports exactly those documents, diff(B, A) mirrors it, and diff(A, A)
// is empty.
TEST(ZdsDiff, RandomEditsAreReportedExactlyAndMirror) {
    std::mt19937 rng(20261125);
    for (int round = 0; round < 25; ++round) {
        ScratchDir dir("diff_random");
        std::string a, b;
        std::map<std::string, DiffKind> expected;
        auto document = [&](const std::string& id, unsigned n) {
            return R"({"_id":")" + id + R"(","n":)" + std::to_string(n) + R"(,"tag":"t)" +
                   std::to_string(n % 7) + "\"}\n";
        };
        for (unsigned d = 0, count = 1 + rng() % 30; d < count; ++d) {
            const std::string id = "d" + std::to_string(d);
            const unsigned n = rng() % 1000;
            a += document(id, n);
            switch (rng() % 5) {
                case 0:
                    expected["c/" + id] = DiffKind::Removed;
                    break;
                case 1:
                    b += document(id, n + 1 + rng() % 5);
                    expected["c/" + id] = DiffKind::Changed;
                    break;
                default:
                    b += document(id, n);
                    break;
            }
        }
        for (unsigned d = rng() % 4; d > 0; --d) {
            const std::string id = "new" + std::to_string(d);
            b += document(id, d);
            expected["c/" + id] = DiffKind::Added;
        }
        if (b.empty()) {
            b = document("only", 1);
            expected["c/only"] = DiffKind::Added;
        }
        writeData(dir.path() / "a", "c", a);
        writeData(dir.path() / "b", "c", b);
        EXPECT_TRUE(diff(dir.path() / "a", dir.path() / "a").all.empty());
        const auto ab = diff(dir.path() / "a", dir.path() / "b").byPath();
        EXPECT_EQ(ab, expected) << "round " << round;
        const auto ba = diff(dir.path() / "b", dir.path() / "a").byPath();
        ASSERT_EQ(ba.size(), ab.size()) << "round " << round;
        for (const auto& [path, kind] : ab) {
            const DiffKind mirrored = kind == DiffKind::Added     ? DiffKind::Removed
                                      : kind == DiffKind::Removed ? DiffKind::Added
                                                                  : kind;
            ASSERT_TRUE(ba.contains(path)) << path;
            EXPECT_EQ(ba.at(path), mirrored) << "round " << round << " " << path;
        }
    }
}

}  // namespace
}  // namespace strata
