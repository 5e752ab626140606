// Comparing ZDS datasets: diff(A, A) is empty, the same documents in another storage compare as
// the same content, and a known set of edits is reported exactly, no more and no fewer; random
// edits of random collections are reported exactly and mirror.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <tuple>

#include "formats/builtin/builtin_formats.h"
#include "formats/builtin/format_diff.h"
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
    auto differ = zds::makeZdsDiffer(zds::ZdsDataset::open(a), zds::ZdsDataset::open(b));
    Collected sink;
    EXPECT_EQ(differ->run(sink, {}), JobOutcome::Completed);
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

// A note on how a side's storage is read (here: an index listing no documents, so the lines are
// read instead) is a difference only when the other side does not carry the same note.
TEST(ZdsDiff, TheSameStorageNoteOnBothSidesIsNoDifference) {
    ScratchDir dir("diff_notes");
    const fs::path a = dir.path() / "a";
    writeData(a, "one", kBase);
    std::string emptyIndex("ISDZ\x01\0\0\0", 8);
    emptyIndex.append(8, '\0');
    writeAll(a / "collections/one/meta/index.bin", emptyIndex);
    const Collected self = diff(a, a);
    EXPECT_TRUE(self.all.empty()) << self.all.front().description;

    writeData(dir.path() / "b", "one", kBase);
    const Collected c = diff(a, dir.path() / "b");
    // One row: the layouts differ (an index against none), and A's note says how it reads.
    ASSERT_EQ(c.all.size(), 1u);
    EXPECT_EQ(c.all[0].kind, DiffKind::Encoding);
    EXPECT_NE(c.all[0].description.find("; in A, "), std::string::npos) << c.all[0].description;
    EXPECT_EQ(c.all[0].description.find("in B, "), std::string::npos) << c.all[0].description;
}

// However many ways a collection's storage differs (its layout, several notes on how one side
// reads its index), it is one "stored differently" row: every corpus dataset against the valid
// one its collections were copied from, whose data.jsonl files are byte-identical.
TEST(ZdsDiff, EachCollectionIsListedOnceAsStoredDifferently) {
    const fs::path valid = zds_test::corpusDir() / "valid" / "jsonl_two_collections";
    if (!fs::exists(valid)) {
        GTEST_SKIP() << "corpus not present (STRATA_CORPUS_DIR)";
    }
    std::size_t compared = 0;
    for (const auto& entry : fs::directory_iterator(zds_test::corpusDir() / "corrupt")) {
        if (!entry.is_directory() || !entry.path().filename().string().starts_with("zdx_")) {
            continue;
        }
        std::unique_ptr<Differ> differ;
        try {
            differ = zds::makeZdsDiffer(zds::ZdsDataset::open(valid),
                                        zds::ZdsDataset::open(entry.path()));
        } catch (const std::exception&) {
            continue;  // not readable as a dataset at all
        }
        Collected sink;
        ASSERT_EQ(differ->run(sink, {}), JobOutcome::Completed);
        std::map<std::string, int> rows;
        for (const Difference& d : sink.all) {
            rows[d.path] += d.kind == DiffKind::Encoding ? 1 : 0;
        }
        for (const auto& [path, count] : rows) {
            EXPECT_LE(count, 1) << entry.path().filename() << ": " << path;
        }
        ++compared;
    }
    EXPECT_GT(compared, 5u);
}

// Numbers compare exactly: integers past 64 bits are not rounded to one double, and two
// spellings of one decimal number are the same value.
TEST(ZdsDiff, NumbersCompareExactly) {
    ScratchDir dir("diff_numbers");
    writeData(dir.path() / "a", "one",
              R"({"_id":"a","n":1234567890123456789012345678901234567890,"x":0.10})"
              "\n");
    writeData(dir.path() / "b", "one",
              R"({"_id":"a","n":1234567890123456789012345678901234567891,"x":1e-1})"
              "\n");
    const Collected c = diff(dir.path() / "a", dir.path() / "b");
    ASSERT_EQ(c.all.size(), 1u);
    EXPECT_EQ(c.all[0].kind, DiffKind::Changed);
    ASSERT_EQ(c.all[0].fields.size(), 1u);
    EXPECT_EQ(c.all[0].fields[0].path, "$.n");
    EXPECT_EQ(c.all[0].fields[0].b, "1234567890123456789012345678901234567891");
}

TEST(ZdsDiff, TheSameDocumentsStoredDifferentlyAreTheSameContent) {
    ScratchDir dir("diff_storage");
    const fs::path a = dir.path() / "a";
    writeData(a, "one", kBase);
    // Packed, converted to docs/ and with whitespace and key order changed: no content change.
    zds::packZds(a, dir.path() / "a.zds");
    fs::copy(a, dir.path() / "docs", fs::copy_options::recursive);
    zds::convertZds(dir.path() / "docs", zds::ZdsLayout::Docs);
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
    const auto a = builtinFormats().open(dir.path() / "a");
    const auto raw = builtinFormats().open(dir.path() / "raw.bin");
    EXPECT_THROW(makeDiffer(*a, *raw), DiffError);
    EXPECT_THROW(builtinFormats().open(dir.path() / "missing"), SourceError);
}

TEST(ZdsDiff, StopsWhenTheSinkHasEnough) {
    ScratchDir dir("diff_stop");
    writeData(dir.path() / "a", "one", kBase);
    writeData(dir.path() / "b", "one", "");
    struct One final : DiffSink {
        int seen = 0;
        bool add(Difference) override { return ++seen <= 1; }
    } one;
    auto differ = zds::makeZdsDiffer(zds::ZdsDataset::open(dir.path() / "a"),
                                     zds::ZdsDataset::open(dir.path() / "b"));
    EXPECT_EQ(differ->run(one, {}), JobOutcome::Stopped);
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

// Property: the same documents with each side's index in a random state (rebuilt, absent,
// listing nothing, cut short, not an index) differ only in storage, each collection in at most
// one "stored differently" row, and the same number of rows either way round.
TEST(ZdsDiff, RandomIndexStatesAreOneStorageRowPerCollection) {
    std::mt19937 rng(20261129);
    for (int round = 0; round < 12; ++round) {
        ScratchDir dir("diff_index_states");
        const unsigned collections = 1 + rng() % 3;
        for (unsigned c = 0; c < collections; ++c) {
            std::string lines;
            for (unsigned d = 0, count = 1 + rng() % 12; d < count; ++d) {
                lines += R"({"_id":"d)" + std::to_string(d) + R"(","n":)" +
                         std::to_string(rng() % 100) + "}\n";
            }
            for (const char* side : {"a", "b"}) {
                writeData(dir.path() / side, "c" + std::to_string(c), lines);
            }
        }
        for (const char* side : {"a", "b"}) {
            zds::reindexZds(dir.path() / side);
            for (unsigned c = 0; c < collections; ++c) {
                const fs::path index = dir.path() / side / "collections" /
                                       ("c" + std::to_string(c)) / "meta/index.bin";
                std::string bytes = zds_test::readAll(index);
                switch (rng() % 5) {
                    case 0:
                        break;  // as rebuilt
                    case 1:
                        fs::remove(index);
                        break;
                    case 2:
                        writeAll(index, bytes.substr(0, 8) + std::string(8, '\0'));
                        break;
                    case 3:
                        writeAll(index, bytes.substr(0, 20));
                        break;
                    default:
                        writeAll(index, "XXXX" + bytes.substr(4));
                        break;
                }
            }
        }
        const Collected ab = diff(dir.path() / "a", dir.path() / "b");
        const Collected ba = diff(dir.path() / "b", dir.path() / "a");
        std::map<std::string, int> rows;
        for (const Difference& d : ab.all) {
            EXPECT_EQ(d.kind, DiffKind::Encoding) << "round " << round << ": " << d.description;
            ++rows[d.path];
        }
        for (const auto& [path, count] : rows) {
            EXPECT_EQ(count, 1) << "round " << round << ": " << path;
        }
        EXPECT_EQ(ba.all.size(), ab.all.size()) << "round " << round;
    }
}

// Property: random datasets (several collections of nested JSON documents) with random edits —
// collections removed and added, documents removed, added, rewritten with other whitespace and
// key order, and changed at a random set of JSON paths (a value changed, a key removed, a key
// added, a nested value changed, an array element appended, an array element changed) — are
// reported exactly: every edited document and collection with its kind, every changed path with
// its kind and both values, no more and no fewer. diff(B, A) mirrors diff(A, B) (added and
// removed swapped, both values swapped), and diff(A, A) is empty.
using Field = std::tuple<std::string, DiffKind, std::string, std::string>;

struct Expected {
    DiffKind kind;
    std::set<Field> fields;
    bool operator==(const Expected&) const = default;
};

std::map<std::string, Expected> collect(const Collected& c) {
    std::map<std::string, Expected> out;
    for (const Difference& d : c.all) {
        Expected e{d.kind, {}};
        for (const DiffField& f : d.fields) {
            e.fields.insert({f.path, f.kind, f.a, f.b});
        }
        EXPECT_TRUE(out.emplace(d.path, e).second) << "reported twice: " << d.path;
    }
    return out;
}

DiffKind swapped(DiffKind kind) {
    return kind == DiffKind::Added     ? DiffKind::Removed
           : kind == DiffKind::Removed ? DiffKind::Added
                                       : kind;
}

std::map<std::string, Expected> mirror(const std::map<std::string, Expected>& ab) {
    std::map<std::string, Expected> out;
    for (const auto& [path, e] : ab) {
        Expected m{swapped(e.kind), {}};
        for (const auto& [p, kind, a, b] : e.fields) {
            m.fields.insert({p, swapped(kind), b, a});
        }
        out.emplace(path, m);
    }
    return out;
}

// The members of an object written in reverse key order with spaces: the same JSON value in
// other bytes.
std::string respaced(const nlohmann::json& doc) {
    std::string out = "{ ";
    std::vector<std::string> parts;
    for (const auto& [key, value] : doc.items()) {
        parts.push_back(nlohmann::json(key).dump() + " : " + value.dump(-1));
    }
    for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
        out += (it == parts.rbegin() ? "" : " ,  ") + *it;
    }
    return out + " }";
}

TEST(ZdsDiff, RandomDatasetsWithRandomFieldEditsAreReportedExactly) {
    std::mt19937 rng(20261127);
    const auto pick = [&](unsigned n) { return static_cast<unsigned>(rng() % n); };
    const auto render = [](const nlohmann::json& v) { return v.dump(); };
    for (int round = 0; round < 30; ++round) {
        ScratchDir dir("diff_random_fields");
        std::map<std::string, Expected> expected;
        const unsigned collections = 1 + pick(4);
        for (unsigned k = 0; k < collections; ++k) {
            const std::string name = "c" + std::to_string(k);
            std::string a, b;
            for (unsigned d = 0, count = 1 + pick(25); d < count; ++d) {
                const std::string id = "d" + std::to_string(d);
                nlohmann::json doc = {
                    {"_id", id},
                    {"n", pick(1000)},
                    {"s", "w" + std::to_string(pick(50))},
                    {"m", {{"lang", pick(2) ? "en" : "fr"}, {"k", {pick(9), pick(9)}}}},
                    {"tags", {"t" + std::to_string(pick(5)), "u" + std::to_string(pick(5))}}};
                a += doc.dump() + "\n";
                const std::string path = name + "/" + id;
                switch (pick(6)) {
                    case 0:  // removed
                        expected[path] = {DiffKind::Removed, {}};
                        continue;
                    case 1:  // the same value in other bytes
                        b += respaced(doc) + "\n";
                        expected[path] = {DiffKind::Encoding, {}};
                        continue;
                    case 2:
                    case 3:
                        break;  // changed, below
                    default:
                        b += doc.dump() + "\n";
                        continue;
                }
                nlohmann::json edited = doc;
                Expected e{DiffKind::Changed, {}};
                while (e.fields.empty()) {
                    for (unsigned edit = 0; edit < 6; ++edit) {
                        if (pick(3) != 0) {
                            continue;
                        }
                        switch (edit) {
                            case 0:
                                edited["n"] = doc["n"].get<unsigned>() + 1 + pick(5);
                                e.fields.insert({"$.n", DiffKind::Changed, render(doc["n"]),
                                                 render(edited["n"])});
                                break;
                            case 1:
                                edited.erase("s");
                                e.fields.insert({"$.s", DiffKind::Removed, render(doc["s"]), ""});
                                break;
                            case 2:
                                edited["extra"] = {{"x", pick(3)}};
                                e.fields.insert(
                                    {"$.extra", DiffKind::Added, "", render(edited["extra"])});
                                break;
                            case 3:
                                edited["m"]["lang"] = "de";
                                e.fields.insert({"$.m.lang", DiffKind::Changed,
                                                 render(doc["m"]["lang"]), "\"de\""});
                                break;
                            case 4:
                                edited["m"]["k"].push_back(100 + pick(9));
                                e.fields.insert(
                                    {"$.m.k[2]", DiffKind::Added, "", render(edited["m"]["k"][2])});
                                break;
                            default:
                                edited["tags"][1] = "changed";
                                e.fields.insert({"$.tags[1]", DiffKind::Changed,
                                                 render(doc["tags"][1]), "\"changed\""});
                                break;
                        }
                    }
                }
                b += edited.dump() + "\n";
                expected[path] = e;
            }
            for (unsigned d = pick(4); d > 0; --d) {
                const std::string id = "new" + std::to_string(d);
                b += nlohmann::json{{"_id", id}, {"n", d}}.dump() + "\n";
                expected[name + "/" + id] = {DiffKind::Added, {}};
            }
            writeData(dir.path() / "a", name, a);
            // A collection left out of B, or one whose documents were all removed.
            if (pick(6) == 0 || b.empty()) {
                std::erase_if(expected,
                              [&](const auto& item) { return item.first.starts_with(name + "/"); });
                expected[name] = {DiffKind::Removed, {}};
                continue;
            }
            writeData(dir.path() / "b", name, b);
        }
        if (pick(3) == 0) {
            writeData(dir.path() / "b", "fresh",
                      R"({"_id":"f"})"
                      "\n");
            expected["fresh"] = {DiffKind::Added, {}};
        }
        if (!fs::exists(dir.path() / "b")) {
            writeData(dir.path() / "b", "only",
                      R"({"_id":"o"})"
                      "\n");
            expected["only"] = {DiffKind::Added, {}};
        }
        EXPECT_TRUE(diff(dir.path() / "a", dir.path() / "a").all.empty()) << "round " << round;
        EXPECT_TRUE(diff(dir.path() / "b", dir.path() / "b").all.empty()) << "round " << round;
        const auto ab = collect(diff(dir.path() / "a", dir.path() / "b"));
        EXPECT_EQ(ab, expected) << "round " << round;
        const auto ba = collect(diff(dir.path() / "b", dir.path() / "a"));
        EXPECT_EQ(ba, mirror(expected)) << "round " << round;
    }
}

}  // namespace
}  // namespace strata
