// Comparing Shardlake storage roots: a root equals itself, and a known set of changes (a dataset
// added, an alias removed, a manifest field changed, a shard's bytes changed, vectors added,
// removed and moved by an L2 distance, JSON rewritten with other spacing) is reported exactly and
// mirrors when the sides swap.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <random>

#include "formats/shardlake/shardlake_answer_overlap.h"
#include "formats/shardlake/shardlake_builder.h"
#include "formats/shardlake/shardlake_diff.h"
#include "sl_test_support.h"

namespace strata {
namespace {

namespace fs = std::filesystem;

class Roots {
public:
    Roots()
        : dir_(fs::temp_directory_path() /
               ("strata_sl_diff_" + std::to_string(::getpid()) + "_" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name())) {
        fs::remove_all(dir_);
    }
    ~Roots() { fs::remove_all(dir_); }
    fs::path operator/(const std::string& p) const { return dir_ / p; }

private:
    fs::path dir_;
};

void write(const fs::path& path, const std::string& bytes) {
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << bytes;
}

void makeRoot(const fs::path& root) {
    write(root / "datasets/d1/info.json", R"({"dims": 2, "count": 3})");
    write(root / "datasets/d1/vectors.jsonl",
          "{\"id\": 1, \"data\": [0.0, 0.0]}\n{\"id\": 2, \"data\": [1.0, 1.0]}\n"
          "{\"id\": 3, \"data\": [2.0, 2.0]}\n");
    write(root / "indexes/v1/manifest.json", R"({"metric": "l2", "shards": [{"id": 0}]})");
    write(root / "indexes/v1/shards/shard-0000.sidx", std::string("SIDX\0\1\2\3", 8));
    write(root / "aliases/latest.json", R"({"alias": "latest", "target": "v1"})");
    write(root / "aliases/old.json", R"({"alias": "old", "target": "v1"})");
}

struct Collected final : DiffSink {
    std::map<std::string, Difference> byPath;
    bool add(Difference d) override {
        byPath[d.path] = d;
        return true;
    }
};

Collected diff(const fs::path& a, const fs::path& b, const DiffOptions& options = {}) {
    auto differ = makeShardlakeDiffer(std::make_shared<const shardlake::Store>(a),
                                      std::make_shared<const shardlake::Store>(b));
    Collected sink;
    EXPECT_EQ(differ->run(sink, options), JobOutcome::Completed);
    return sink;
}

// 600 vectors of 8 dimensions in a few clusters, ingested as dataset "ds" under `root`, and
// an index version `version` over them.
void builtRoot(const fs::path& root, const std::string& version, std::uint32_t shards,
               std::uint64_t seed) {
    fs::create_directories(root);
    std::string lines;
    std::uint64_t state = 12345;
    auto next = [&state] {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return double(state >> 11) / double(1ull << 53);
    };
    for (int id = 0; id < 600; ++id) {
        lines += "{\"id\": " + std::to_string(id) + ", \"vector\": [";
        for (int d = 0; d < 8; ++d) {
            lines += (d ? ", " : "") + std::to_string((id % 5) * 2.0 + next());
        }
        lines += "]}\n";
    }
    write(root / "input.jsonl", lines);
    shardlake::IngestRequest in;
    in.root = root;
    in.input = root / "input.jsonl";
    in.datasetVersion = "ds";
    in.timestamp = "2026-01-01T00:00:00Z";
    ASSERT_TRUE(shardlake::ingestVectors(in).ok);
    fs::remove(root / "input.jsonl");
    shardlake::BuildRequest r;
    r.root = root;
    r.datasetVersion = "ds";
    r.indexVersion = version;
    r.metric = shardlake::Metric::Euclidean;
    r.numShards = shards;
    r.nprobe = 1;
    r.kmeansSeed = seed;
    r.timestamp = "2026-01-01T00:00:00Z";
    const auto built = shardlake::buildIndex(r);
    ASSERT_TRUE(built.ok) << built.error;
}

TEST(ShardlakeDiff, ARootEqualsItself) {
    Roots dir;
    makeRoot(dir / "a");
    EXPECT_TRUE(diff(dir / "a", dir / "a").byPath.empty());
}

TEST(ShardlakeDiff, AKnownSetOfChangesIsReportedExactlyAndMirrors) {
    Roots dir;
    makeRoot(dir / "a");
    makeRoot(dir / "b");
    write(dir / "b/datasets/d2/info.json", R"({"dims": 2, "count": 0})");
    fs::remove(dir / "b/aliases/old.json");
    write(dir / "b/indexes/v1/manifest.json", R"({"metric": "ip", "shards": [{"id": 0}]})");
    write(dir / "b/indexes/v1/shards/shard-0000.sidx", std::string("SIDX\0\1\2\4", 8));
    write(dir / "b/datasets/d1/vectors.jsonl",
          "{\"id\": 2, \"data\": [1.0, 1.0]}\n{\"id\": 3, \"data\": [5.0, 6.0]}\n"
          "{\"id\": 4, \"data\": [0.0, 1.0]}\n");
    write(dir / "b/aliases/latest.json", "{ \"target\": \"v1\",\n  \"alias\": \"latest\" }\n");
    const auto ab = diff(dir / "a", dir / "b").byPath;
    const std::map<std::string, DiffKind> expected{
        {"datasets/d2", DiffKind::Added},
        {"aliases/old.json", DiffKind::Removed},
        {"aliases/latest.json", DiffKind::Encoding},
        {"indexes/v1/manifest.json", DiffKind::Changed},
        {"indexes/v1/shards/shard-0000.sidx", DiffKind::Changed},
        {"datasets/d1/vectors.jsonl/1", DiffKind::Removed},
        {"datasets/d1/vectors.jsonl/3", DiffKind::Changed},
        {"datasets/d1/vectors.jsonl/4", DiffKind::Added}};
    std::map<std::string, DiffKind> got;
    for (const auto& [path, d] : ab) {
        got[path] = d.kind;
    }
    EXPECT_EQ(got, expected);
    EXPECT_EQ(ab.at("indexes/v1/manifest.json").fields.at(0).path, "$.metric");
    EXPECT_EQ(ab.at("datasets/d1/vectors.jsonl/3").fields.at(0).b, "5");  // sqrt(9 + 16)

    const auto ba = diff(dir / "b", dir / "a").byPath;
    ASSERT_EQ(ba.size(), ab.size());
    EXPECT_EQ(ba.at("datasets/d2").kind, DiffKind::Removed);
    EXPECT_EQ(ba.at("datasets/d1/vectors.jsonl/4").kind, DiffKind::Removed);
    EXPECT_EQ(ba.at("datasets/d1/vectors.jsonl/3").fields.at(0).b, "5");
}

// JSON numbers compare exactly, and a vector's line is compared whole: the same values with
// other metadata is a change (with the JSON path), the same line spelt otherwise is not.
TEST(ShardlakeDiff, NumbersAndVectorMetadataCompareExactly) {
    Roots dir;
    makeRoot(dir / "a");
    makeRoot(dir / "b");
    write(dir / "a/indexes/v1/manifest.json", R"({"seed": 123456789012345678901234567890})");
    write(dir / "b/indexes/v1/manifest.json", R"({"seed": 123456789012345678901234567891})");
    write(dir / "a/datasets/d1/vectors.jsonl",
          "{\"id\": 1, \"data\": [0.0, 0.0], \"metadata\": {\"tag\": \"x\"}}\n"
          "{\"id\": 2, \"data\": [1.0, 1.0], \"metadata\": {\"n\": 0.5}}\n");
    write(dir / "b/datasets/d1/vectors.jsonl",
          "{\"id\": 1, \"data\": [0.0, 0.0], \"metadata\": {\"tag\": \"y\"}}\n"
          "{\"id\": 2, \"data\": [1, 1.0], \"metadata\": {\"n\": 5e-1}}\n");
    const auto ab = diff(dir / "a", dir / "b").byPath;
    ASSERT_EQ(ab.size(), 2u);
    EXPECT_EQ(ab.at("indexes/v1/manifest.json").fields.at(0).path, "$.seed");
    const Difference& v = ab.at("datasets/d1/vectors.jsonl/1");
    EXPECT_EQ(v.kind, DiffKind::Changed);
    ASSERT_EQ(v.fields.size(), 1u);
    EXPECT_EQ(v.fields[0].path, "$.metadata.tag");
    EXPECT_TRUE(diff(dir / "a", dir / "a").byPath.empty());
}

// What an interrupted save leaves beside a root's files is not part of its content.
TEST(ShardlakeDiff, LeftoversOfInterruptedSavesAreNotCompared) {
    Roots dir;
    makeRoot(dir / "a");
    makeRoot(dir / "b");
    write(dir / "a/indexes/v1/.manifest.json.strata-0123456789ab", "half a manifest");
    write(dir / "a/aliases/.latest.json.strata-0123456789ab", "{");
    write(dir / "a/datasets/.d9.strata-stage-42/info.json", "{}");
    EXPECT_TRUE(diff(dir / "a", dir / "b").byPath.empty());
}

TEST(ShardlakeDiff, RebuiltIndexesAreComparedByTheirAnswers) {
    Roots dir;
    builtRoot(dir / "a", "v1", 4, 1);
    builtRoot(dir / "b", "v1", 8, 2);
    const auto ab = diff(dir / "a", dir / "b").byPath;
    ASSERT_TRUE(ab.contains("answers/v1"));
    const Difference& d = ab.at("answers/v1");
    ASSERT_EQ(d.fields.size(), 2u);
    EXPECT_EQ(d.fields[0].path, "recall@10 of B against A");
    const double bAgainstA = std::stod(d.fields[0].b);
    EXPECT_GT(bAgainstA, 0.0);
    EXPECT_LE(bAgainstA, 1.0);
    EXPECT_NE(d.description.find("nprobe 1"), std::string::npos) << d.description;
    // Mirrors: the overlap of two top-10 lists is the same seen from either side.
    const auto ba = diff(dir / "b", dir / "a").byPath;
    ASSERT_TRUE(ba.contains("answers/v1"));
    EXPECT_EQ(ba.at("answers/v1").fields[0].b, d.fields[0].b);
    EXPECT_EQ(ba.at("answers/v1").fields[1].a, d.fields[1].b);
    EXPECT_EQ(ba.at("answers/v1").kind, d.kind);
    // Turned off, no answers are compared.
    DiffOptions off;
    off.answerQueries = 0;
    EXPECT_FALSE(diff(dir / "a", dir / "b", off).byPath.contains("answers/v1"));
}

TEST(ShardlakeDiff, ProbingEveryShardFindsTheExactAnswer) {
    Roots dir;
    builtRoot(dir / "a", "v1", 4, 1);
    builtRoot(dir / "b", "v2", 6, 3);
    shardlake::AnswerOverlapOptions options;
    options.nprobe = 0;
    options.queries = 50;
    const auto overlap = shardlake::compareIndexAnswers(shardlake::Store(dir / "a"), "v1",
                                                        shardlake::Store(dir / "b"), "v2", options);
    ASSERT_TRUE(overlap.error.empty()) << overlap.error;
    EXPECT_EQ(overlap.queries, 50u);
    EXPECT_TRUE(overlap.sameDataset);
    EXPECT_DOUBLE_EQ(overlap.aAgainstExact, 1.0);
    EXPECT_DOUBLE_EQ(overlap.bAgainstExact, 1.0);
    EXPECT_DOUBLE_EQ(overlap.bAgainstA, 1.0);
    // Versions found on one side only are paired by the dataset they index.
    DiffOptions all;
    all.answerNprobe = 0;
    const auto ab = diff(dir / "a", dir / "b", all).byPath;
    ASSERT_TRUE(ab.contains("answers/v1 vs v2"));
    EXPECT_EQ(ab.at("answers/v1 vs v2").kind, DiffKind::Encoding);
}

// Two index folders, named alike or not, of one root or of two: only their files (paths named
// by A's version) and their answers are compared; a version equals itself.
TEST(ShardlakeDiff, IndexFoldersAreComparedOnTheirOwn) {
    Roots dir;
    builtRoot(dir / "a", "v1", 4, 1);
    builtRoot(dir / "b", "v2", 6, 3);
    const auto store = [](const fs::path& root) {
        return std::make_shared<const shardlake::Store>(root);
    };
    const auto run = [](const shardlake::StoreIndex& x, const shardlake::StoreIndex& y) {
        Collected sink;
        EXPECT_EQ(makeShardlakeIndexDiffer(x, y)->run(sink, {}), JobOutcome::Completed);
        return sink.byPath;
    };
    const shardlake::StoreIndex a{store(dir / "a"), "v1"}, b{store(dir / "b"), "v2"};
    EXPECT_TRUE(run(a, a).empty());

    const auto ab = run(a, b);
    // Nothing of the datasets or aliases; the manifest by field (its index_version among
    // them), the shards by bytes or presence, the answers of v1 against v2.
    for (const auto& [path, d] : ab) {
        EXPECT_TRUE(path.starts_with("indexes/v1/") || path == "answers/v1 vs v2") << path;
    }
    ASSERT_TRUE(ab.contains("indexes/v1/manifest.json"));
    const auto& fields = ab.at("indexes/v1/manifest.json").fields;
    EXPECT_TRUE(std::any_of(fields.begin(), fields.end(),
                            [](const DiffField& f) { return f.path == "$.index_version"; }));
    EXPECT_EQ(ab.at("indexes/v1/shards/shard-0005.sidx").kind, DiffKind::Added);
    ASSERT_TRUE(ab.contains("answers/v1 vs v2"));

    // Mirrors: B's shards 4 and 5 are removed seen from B.
    const auto ba = run(b, a);
    EXPECT_EQ(ba.size(), ab.size());
    EXPECT_EQ(ba.at("indexes/v2/shards/shard-0005.sidx").kind, DiffKind::Removed);
}

// A shard holding `vectors` (id, values) in the given order, one centroid; PQ (v2) when `pqM` is
// set, the values then being the codes.
std::string shardBytes(std::uint32_t shardId, std::uint32_t dims,
                       const std::vector<std::pair<std::uint64_t, std::vector<float>>>& vectors,
                       std::uint32_t pqM = 0, float centroid = 0.5f) {
    test::Bytes b;
    b.raw(std::string_view("SLKIDX\0\0", 8))
        .u32(pqM ? 2 : 1)
        .u32(shardId)
        .u32(dims)
        .u32(1)
        .u64(vectors.size());
    if (pqM) {
        b.u32(pqM).u32(4);
    }
    for (std::uint32_t j = 0; j < dims; ++j) {
        b.f32(centroid);
    }
    for (const auto& [id, values] : vectors) {
        b.u64(id);
        for (float v : values) {
            if (pqM) {
                b.u8(static_cast<std::uint8_t>(v));
            } else {
                b.f32(v);
            }
        }
    }
    const auto bytes = b.take();
    return {bytes.begin(), bytes.end()};
}

std::map<std::string, DiffKind> kinds(const std::map<std::string, Difference>& byPath) {
    std::map<std::string, DiffKind> out;
    for (const auto& [path, d] : byPath) {
        out[path] = d.kind;
    }
    return out;
}

std::map<std::string, DiffKind> mirrored(const std::map<std::string, DiffKind>& ab) {
    std::map<std::string, DiffKind> out;
    for (const auto& [path, kind] : ab) {
        out[path] = kind == DiffKind::Added     ? DiffKind::Removed
                    : kind == DiffKind::Removed ? DiffKind::Added
                                                : kind;
    }
    return out;
}

std::map<std::string, Difference> runIndexes(const shardlake::StoreIndex& a,
                                             const shardlake::StoreIndex& b) {
    DiffOptions options;
    options.answerQueries = 0;
    Collected sink;
    EXPECT_EQ(makeShardlakeIndexDiffer(a, b)->run(sink, options), JobOutcome::Completed);
    return sink.byPath;
}

// The vectors an index's shards hold are matched by id across all its shards, whatever shard
// and order each is stored in: removed, added, changed with the L2 distance and the record's
// bytes on each side; the same vectors in other shards are no vector difference.
TEST(ShardlakeDiff, ShardVectorsAreMatchedByIdAcrossShards) {
    Roots dir;
    const std::string manifest = R"({"dims": 2})";
    write(dir / "a/indexes/v1/manifest.json", manifest);
    write(dir / "b/indexes/v1/manifest.json", manifest);
    write(dir / "c/indexes/v1/manifest.json", manifest);
    // A: ids 5, 1, 3 (out of order) in shard 0 and 2, 4 in shard 1.
    write(dir / "a/indexes/v1/shards/shard-0000.sidx",
          shardBytes(0, 2, {{5, {5, 5}}, {1, {1, 1}}, {3, {3, 3}}}));
    write(dir / "a/indexes/v1/shards/shard-0001.sidx",
          shardBytes(1, 2, {{2, {2, 2}}, {4, {4, 4}}}));
    // B: 5 removed, 6 added, 3 moved by (3, 4), spread over three shards.
    write(dir / "b/indexes/v1/shards/shard-0000.sidx",
          shardBytes(0, 2, {{1, {1, 1}}, {2, {2, 2}}}));
    write(dir / "b/indexes/v1/shards/shard-0001.sidx",
          shardBytes(1, 2, {{6, {6, 6}}, {3, {6, 7}}}));
    write(dir / "b/indexes/v1/shards/shard-0002.sidx", shardBytes(2, 2, {{4, {4, 4}}}));
    // C: A's vectors, stored in one shard in another order.
    write(dir / "c/indexes/v1/shards/shard-0000.sidx",
          shardBytes(0, 2, {{4, {4, 4}}, {3, {3, 3}}, {2, {2, 2}}, {1, {1, 1}}, {5, {5, 5}}}));

    const auto store = [&](const char* root) {
        return shardlake::StoreIndex{std::make_shared<const shardlake::Store>(dir / root), "v1"};
    };
    const auto a = store("a"), b = store("b"), c = store("c");
    EXPECT_TRUE(runIndexes(a, a).empty());
    const auto ab = runIndexes(a, b);
    const std::map<std::string, DiffKind> expected{
        {"indexes/v1/shards/shard-0000.sidx", DiffKind::Changed},
        {"indexes/v1/shards/shard-0001.sidx", DiffKind::Changed},
        {"indexes/v1/shards/shard-0002.sidx", DiffKind::Added},
        {"indexes/v1/vectors/3", DiffKind::Changed},
        {"indexes/v1/vectors/5", DiffKind::Removed},
        {"indexes/v1/vectors/6", DiffKind::Added}};
    EXPECT_EQ(kinds(ab), expected);
    const Difference& changed = ab.at("indexes/v1/vectors/3");
    ASSERT_EQ(changed.fields.size(), 1u);
    EXPECT_EQ(changed.fields[0].path, "l2_distance");
    EXPECT_EQ(changed.fields[0].b, "5");  // sqrt(3² + 4²)
    // The records' bytes: A's third record of shard 0, B's second of shard 1 (header 32 bytes,
    // one centroid of 8, records of 16).
    EXPECT_EQ(changed.a.region.offset, 32u + 8 + 2 * 16);
    EXPECT_EQ(changed.a.region.length, 16u);
    EXPECT_NE(changed.a.region.source->name().find("a/indexes/v1/shards/shard-0000.sidx"),
              std::string::npos);
    EXPECT_EQ(changed.b.region.offset, 32u + 8 + 16);
    EXPECT_NE(changed.b.region.source->name().find("b/indexes/v1/shards/shard-0001.sidx"),
              std::string::npos);
    EXPECT_NE(ab.at("indexes/v1/vectors/5").description.find("shards/shard-0000.sidx"),
              std::string::npos);
    EXPECT_EQ(kinds(runIndexes(b, a)), mirrored(expected));

    // The same vectors stored otherwise: only the shard files differ.
    const auto ac = kinds(runIndexes(a, c));
    const std::map<std::string, DiffKind> files{
        {"indexes/v1/shards/shard-0000.sidx", DiffKind::Changed},
        {"indexes/v1/shards/shard-0001.sidx", DiffKind::Removed}};
    EXPECT_EQ(ac, files);

    // Within storage roots, an index version of one name on both sides is compared alike.
    EXPECT_EQ(kinds(diff(dir / "a", dir / "b", {}).byPath), expected);
}

// Property: random vectors spread over a random number of shards in random order, with random
// edits (removed, added, changed by a known offset, moved to another shard or place, shards
// re-split), are reported exactly — every removed, added and changed id, each changed one with its
// L2 distance — diff(B, A) mirrors it and diff(A, A) is empty.
TEST(ShardlakeDiff, RandomShardVectorEditsAreReportedExactlyAndMirror) {
    std::mt19937 rng(20261127);
    const auto pick = [&](unsigned n) { return static_cast<unsigned>(rng() % n); };
    for (int round = 0; round < 20; ++round) {
        Roots dir;
        const std::uint32_t dims = 1 + pick(6);
        using Vectors = std::vector<std::pair<std::uint64_t, std::vector<float>>>;
        Vectors a, b;
        std::map<std::string, DiffKind> expected;
        std::map<std::string, double> distances;
        const auto vector = [&] {
            std::vector<float> v(dims);
            for (float& x : v) {
                x = float(pick(2000)) / 8.0f;
            }
            return v;
        };
        for (std::uint64_t id = 0, n = 1 + pick(200); id < n; ++id) {
            // Sparse, unordered ids.
            const std::uint64_t key = id * 7 + pick(7) + (pick(20) == 0 ? 1ull << 40 : 0);
            if (std::any_of(a.begin(), a.end(), [&](const auto& p) { return p.first == key; })) {
                continue;
            }
            const auto v = vector();
            a.emplace_back(key, v);
            const std::string path = "indexes/v1/vectors/" + std::to_string(key);
            switch (pick(6)) {
                case 0:
                    expected[path] = DiffKind::Removed;
                    break;
                case 1: {
                    auto w = v;
                    double sum = 0;
                    for (float& x : w) {
                        const float delta = float(1 + pick(16)) / 4.0f;
                        x += delta;
                        sum += double(delta) * delta;
                    }
                    b.emplace_back(key, w);
                    expected[path] = DiffKind::Changed;
                    distances[path] = std::sqrt(sum);
                    break;
                }
                default:
                    b.emplace_back(key, v);
                    break;
            }
        }
        for (unsigned n = pick(10); n > 0; --n) {
            const std::uint64_t key = (1ull << 50) + n;
            b.emplace_back(key, vector());
            expected["indexes/v1/vectors/" + std::to_string(key)] = DiffKind::Added;
        }
        // Each side shuffled and cut into its own number of shards.
        const auto store = [&](const char* root, Vectors v) {
            std::shuffle(v.begin(), v.end(), rng);
            write(dir / root / "indexes/v1/manifest.json", "{}");
            const unsigned shards = 1 + pick(5);
            for (unsigned s = 0; s < shards; ++s) {
                Vectors part;
                for (std::size_t i = s; i < v.size(); i += shards) {
                    part.push_back(v[i]);
                }
                if (pick(2) == 0) {
                    std::sort(part.begin(), part.end());  // in id order: walked in place
                }
                char name[32];
                std::snprintf(name, sizeof name, "shard-%04u.sidx", s);
                write(dir / root / "indexes/v1/shards" / name, shardBytes(s, dims, part));
            }
            return shardlake::StoreIndex{std::make_shared<const shardlake::Store>(dir / root),
                                         "v1"};
        };
        const auto sa = store("a", a), sb = store("b", b);
        EXPECT_TRUE(runIndexes(sa, sa).empty());
        const auto only = [](const std::map<std::string, Difference>& all) {
            std::map<std::string, Difference> out;
            for (const auto& [path, d] : all) {
                if (path.starts_with("indexes/v1/vectors/")) {
                    out.emplace(path, d);
                }
            }
            return out;
        };
        const auto ab = only(runIndexes(sa, sb));
        EXPECT_EQ(kinds(ab), expected) << "round " << round;
        for (const auto& [path, distance] : distances) {
            ASSERT_TRUE(ab.contains(path));
            EXPECT_NEAR(std::stod(ab.at(path).fields.at(0).b), distance, 1e-4 * (1 + distance));
        }
        const auto ba = only(runIndexes(sb, sa));
        EXPECT_EQ(kinds(ba), mirrored(expected)) << "round " << round;
        for (const auto& [path, d] : ab) {
            if (d.kind == DiffKind::Changed) {
                EXPECT_EQ(ba.at(path).fields.at(0).b, d.fields.at(0).b);
            }
        }
    }
}

// PQ shards: codes compared by id; with each side's codebook the distance between the vectors
// they reconstruct; raw on one side and PQ on the other are matched by id alone.
TEST(ShardlakeDiff, PqShardVectorsAreComparedByCodesAndCodebook) {
    Roots dir;
    // dims 2, m 2, k 4, one float per codeword: code c of sub s is the value 10 s + c.
    test::Bytes book;
    book.raw(std::string_view("SLKPQCB\0", 8)).u32(1).u32(2).u32(2).u32(4).u32(1);
    for (int s = 0; s < 2; ++s) {
        for (int c = 0; c < 4; ++c) {
            book.f32(float(10 * s + c));
        }
    }
    const auto bookBytes = book.take();
    for (const char* root : {"a", "b", "r"}) {
        write(dir / root / "indexes/v1/manifest.json", "{}");
    }
    write(dir / "a/indexes/v1/shards/shard-0000.sidx",
          shardBytes(0, 2, {{1, {0, 0}}, {2, {1, 1}}, {3, {2, 3}}}, 2));
    write(dir / "b/indexes/v1/shards/shard-0000.sidx",
          shardBytes(0, 2, {{1, {0, 0}}, {2, {1, 3}}, {3, {1, 0}}}, 2));
    write(dir / "r/indexes/v1/shards/shard-0000.sidx",
          shardBytes(0, 2, {{1, {0, 10}}, {2, {1, 11}}, {4, {2, 12}}}));
    const auto store = [&](const char* root) {
        return shardlake::StoreIndex{std::make_shared<const shardlake::Store>(dir / root), "v1"};
    };
    // Without codebooks: the codes that differ, no distance.
    auto ab = runIndexes(store("a"), store("b"));
    ASSERT_TRUE(ab.contains("indexes/v1/vectors/2"));
    EXPECT_EQ(ab.at("indexes/v1/vectors/2").fields.at(0).path, "codes");
    EXPECT_EQ(ab.at("indexes/v1/vectors/2").fields.at(0).b, "1 of 2 differ");
    EXPECT_EQ(ab.at("indexes/v1/vectors/3").fields.at(0).b, "2 of 2 differ");
    EXPECT_FALSE(ab.contains("indexes/v1/vectors/1"));
    // With them: vector 3 is (2, 13) in A and (1, 10) in B, sqrt(1 + 9).
    for (const char* root : {"a", "b"}) {
        write(dir / root / "indexes/v1/pq_codebook.bin",
              std::string(bookBytes.begin(), bookBytes.end()));
    }
    ab = runIndexes(store("a"), store("b"));
    ASSERT_TRUE(ab.contains("indexes/v1/vectors/3"));
    EXPECT_EQ(ab.at("indexes/v1/vectors/3").fields.at(0).path, "l2_distance");
    EXPECT_NEAR(std::stod(ab.at("indexes/v1/vectors/3").fields.at(0).b), std::sqrt(10.0), 1e-5);
    EXPECT_EQ(ab.at("indexes/v1/vectors/2").fields.at(0).b, "2");  // 11 against 13
    // Raw against PQ: ids only, one encoding difference for the values not compared.
    const auto ar = kinds(runIndexes(store("a"), store("r")));
    const std::map<std::string, DiffKind> expected{
        {"indexes/v1/pq_codebook.bin", DiffKind::Removed},
        {"indexes/v1/shards/shard-0000.sidx", DiffKind::Changed},
        {"indexes/v1/vectors", DiffKind::Encoding},
        {"indexes/v1/vectors/3", DiffKind::Removed},
        {"indexes/v1/vectors/4", DiffKind::Added}};
    EXPECT_EQ(ar, expected);
}

// Two single shards, opened on their own: the header by field, the centroids, the vectors by
// id; a shard that cannot be read is a clear error.
TEST(ShardlakeDiff, SingleShardsAreComparedAlone) {
    Roots dir;
    write(dir / "x/shard-0000.sidx", shardBytes(0, 2, {{1, {1, 1}}, {2, {2, 2}}, {3, {3, 3}}}));
    write(dir / "y/shard-0001.sidx",
          shardBytes(1, 2, {{3, {3, 3}}, {2, {2, 2.5f}}, {4, {4, 4}}}, 0, 0.25f));
    write(dir / "z/shard-0000.sidx", std::string("SLKIDY\0\0rest of it", 18));
    const auto shard = [&](const std::string& rel) {
        return shardlake::ShardFile{openMappedFile(dir / rel), fs::path(rel).filename().string()};
    };
    const auto run = [](const shardlake::ShardFile& p, const shardlake::ShardFile& q) {
        Collected sink;
        EXPECT_EQ(makeShardlakeShardDiffer(p, q)->run(sink, {}), JobOutcome::Completed);
        return sink.byPath;
    };
    const auto x = shard("x/shard-0000.sidx"), y = shard("y/shard-0001.sidx");
    EXPECT_TRUE(run(x, x).empty());
    const auto xy = run(x, y);
    const std::map<std::string, DiffKind> expected{{"header", DiffKind::Changed},
                                                   {"centroids", DiffKind::Changed},
                                                   {"vectors/1", DiffKind::Removed},
                                                   {"vectors/2", DiffKind::Changed},
                                                   {"vectors/4", DiffKind::Added}};
    EXPECT_EQ(kinds(xy), expected);
    ASSERT_EQ(xy.at("header").fields.size(), 1u);
    EXPECT_EQ(xy.at("header").fields[0].path, "shard_id");
    EXPECT_EQ(xy.at("centroids").description, "1 of 1 centroids differ");
    EXPECT_EQ(xy.at("vectors/2").fields.at(0).b, "0.5");
    EXPECT_EQ(xy.at("vectors/2").b.region.offset, 32u + 8 + 16);
    EXPECT_EQ(kinds(run(y, x)), mirrored(expected));
    EXPECT_THROW(makeShardlakeShardDiffer(x, shard("z/shard-0000.sidx")), DiffError);
}

// Two dataset folders, named alike or not: only their files, paths named by A's dataset.
TEST(ShardlakeDiff, DatasetFoldersAreComparedOnTheirOwn) {
    Roots dir;
    makeRoot(dir / "a");
    makeRoot(dir / "b");
    fs::rename(dir / "b/datasets/d1", dir / "b/datasets/d9");
    write(dir / "b/datasets/d9/vectors.jsonl",
          "{\"id\": 1, \"data\": [0.0, 0.0]}\n{\"id\": 2, \"data\": [1.0, 2.0]}\n");
    write(dir / "b/aliases/other.json", "{}");
    const auto ds = [&](const char* root, const char* name) {
        return shardlake::StoreDataset{std::make_shared<const shardlake::Store>(dir / root), name};
    };
    const auto run = [](const shardlake::StoreDataset& p, const shardlake::StoreDataset& q) {
        Collected sink;
        EXPECT_EQ(makeShardlakeDatasetDiffer(p, q)->run(sink, {}), JobOutcome::Completed);
        return kinds(sink.byPath);
    };
    EXPECT_TRUE(run(ds("a", "d1"), ds("a", "d1")).empty());
    const std::map<std::string, DiffKind> expected{
        {"datasets/d1/vectors.jsonl/2", DiffKind::Changed},
        {"datasets/d1/vectors.jsonl/3", DiffKind::Removed}};
    EXPECT_EQ(run(ds("a", "d1"), ds("b", "d9")), expected);
    const std::map<std::string, DiffKind> back{{"datasets/d9/vectors.jsonl/2", DiffKind::Changed},
                                               {"datasets/d9/vectors.jsonl/3", DiffKind::Added}};
    EXPECT_EQ(run(ds("b", "d9"), ds("a", "d1")), back);
}

TEST(ShardlakeDiff, AnIndexThatCannotBeSearchedSaysWhy) {
    Roots dir;
    builtRoot(dir / "a", "v1", 4, 1);
    makeRoot(dir / "b");
    const auto overlap = shardlake::compareIndexAnswers(shardlake::Store(dir / "a"), "v1",
                                                        shardlake::Store(dir / "b"), "v1", {});
    EXPECT_NE(overlap.error.find("B's index v1 cannot be searched"), std::string::npos)
        << overlap.error;
}

}  // namespace
}  // namespace strata
