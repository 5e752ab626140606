// Comparing Shardlake storage roots: a root equals itself, and a known set of changes (a dataset
// added, an alias removed, a manifest field changed, a shard's bytes changed, vectors added,
// removed and moved by an L2 distance, JSON rewritten with other spacing) is reported exactly and
// mirrors when the sides swap.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <map>

#include "formats/shardlake/shardlake_answer_overlap.h"
#include "formats/shardlake/shardlake_builder.h"
#include "formats/shardlake/shardlake_diff.h"

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
    EXPECT_EQ(differ->run(sink, options), DiffOutcome::Completed);
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
        EXPECT_EQ(makeShardlakeIndexDiffer(x, y)->run(sink, {}), DiffOutcome::Completed);
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
