// Comparing Shardlake storage roots: a root equals itself, and a known set of changes (a dataset
// added, an alias removed, a manifest field changed, a shard's bytes changed, vectors added,
// removed and moved by an L2 distance, JSON rewritten with other spacing) is reported exactly and
// mirrors when the sides swap.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <map>

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

Collected diff(const fs::path& a, const fs::path& b) {
    auto differ = makeShardlakeDiffer(std::make_shared<const shardlake::Store>(a),
                                      std::make_shared<const shardlake::Store>(b));
    Collected sink;
    EXPECT_EQ(differ->run(sink, {}), DiffOutcome::Completed);
    return sink;
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

}  // namespace
}  // namespace strata
