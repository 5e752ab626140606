// Roots of many shards: every file of a folder past 10,000 entries is seen, opening and
// validating thousands of shards holds no mapping per shard, a shard that is there but cannot be
// opened is an I/O error (not SL-MISSING), and routing finds the same shards a scan of all of
// them per centroid found.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <random>
#include <set>

#include <nlohmann/json.hpp>

#include "formats/common/checksums.h"
#include "formats/shardlake/shardlake_search.h"
#include "formats/shardlake/shardlake_tree.h"
#include "process_resources.h"
#include "sl_test_support.h"

namespace strata {
namespace {

using test::mappingCount;

namespace fs = std::filesystem;
using test::describe;

// Shards sort by their number; the unlisted one after all of them.
std::string shardName(std::size_t i) {
    char name[32];
    std::snprintf(name, sizeof name, "shard-%05zu.sidx", i);
    return name;
}
constexpr const char* kUnlisted = "shard-zzzzz.sidx";

void writeFile(const fs::path& path, const std::vector<std::uint8_t>& bytes) {
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()),
               static_cast<std::streamsize>(bytes.size()));
}

void writeText(const fs::path& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

// A root whose index v1 has `count` raw shards of one 2-dims record each (id i + 1), all listed
// with their fingerprints, and the dataset they hold; with `orphan`, one more shard in shards/
// that the manifest does not list, named to sort last.
void writeWideRoot(const fs::path& root, std::size_t count, bool orphan) {
    const fs::path shards = root / "indexes/v1/shards";
    fs::create_directories(shards);
    fs::create_directories(root / "datasets/ds");
    nlohmann::json list = nlohmann::json::array();
    std::string vectors;
    for (std::size_t i = 0; i < count; ++i) {
        const std::vector<std::uint8_t> bytes =
            test::makeRawShard(static_cast<std::uint32_t>(i), 2, 1, i + 1);
        writeFile(shards / shardName(i), bytes);
        char fingerprint[17];
        std::snprintf(fingerprint, sizeof fingerprint, "%016llx",
                      static_cast<unsigned long long>(fnv1a64(bytes)));
        list.push_back({{"shard_id", i},
                        {"artifact_key", "indexes/v1/shards/" + shardName(i)},
                        {"vector_count", 1},
                        {"sha256", fingerprint},
                        {"centroid", {0.5, 0.5}}});
        const double id = static_cast<double>(i + 1);
        vectors += nlohmann::json{{"id", i + 1}, {"data", {id, id + 0.125}}}.dump() + "\n";
    }
    if (orphan) {
        writeFile(shards / kUnlisted, test::makeRawShard(0, 2, 1, count + 1));
    }
    const nlohmann::json manifest{{"manifest_version", 4},
                                  {"dataset_version", "ds"},
                                  {"embedding_version", "e"},
                                  {"index_version", "v1"},
                                  {"alias", ""},
                                  {"total_vector_count", count},
                                  {"build_metadata",
                                   {{"built_at", "2026-11-22T20:02:28Z"},
                                    {"builder_version", "0.1.0"},
                                    {"num_kmeans_iters", 1},
                                    {"nprobe_default", 1},
                                    {"build_duration_secs", 0.5}}},
                                  {"dims", 2},
                                  {"distance_metric", "euclidean"},
                                  {"vectors_key", "datasets/ds/vectors.jsonl"},
                                  {"metadata_key", "datasets/ds/metadata.json"},
                                  {"shards", list}};
    writeText(root / "indexes/v1/manifest.json", manifest.dump());
    const nlohmann::json info{{"manifest_version", 1},
                              {"dataset_version", "ds"},
                              {"embedding_version", "e"},
                              {"dims", 2},
                              {"vector_count", count},
                              {"vectors_key", "datasets/ds/vectors.jsonl"},
                              {"metadata_key", "datasets/ds/metadata.json"}};
    writeText(root / "datasets/ds/info.json", info.dump());
    writeText(root / "datasets/ds/vectors.jsonl", vectors);
    writeText(root / "datasets/ds/metadata.json", "{}");
}

std::size_t countCode(const test::Findings& findings, std::string_view code) {
    return static_cast<std::size_t>(
        std::count_if(findings.diagnostics().begin(), findings.diagnostics().end(),
                      [&](const Diagnostic& d) { return d.code == code; }));
}

// Listings used to stop at 10,000 entries in the order the file system returned them, before
// sorting: which shards an orphan check, a tree or a diff saw was arbitrary.
TEST(ShardlakeScale, EveryShardOfAFolderPast10000EntriesIsSeen) {
    test::SlScratch scratch;
    const fs::path root = scratch.path() / "root";
    constexpr std::size_t kShards = 10050;
    writeWideRoot(root, kShards, true);

    const shardlake::Store store(root);
    const std::vector<std::string> files = store.files("indexes/v1/shards");
    ASSERT_EQ(files.size(), kShards + 1);
    EXPECT_TRUE(std::is_sorted(files.begin(), files.end()));
    EXPECT_EQ(files.front(), shardName(0));
    EXPECT_EQ(files.back(), kUnlisted);

    const test::Findings findings = test::validateShardlake(root);
    EXPECT_EQ(countCode(findings, "SL-MISSING"), 0u) << describe(findings);
    ASSERT_EQ(countCode(findings, "SL-ORPHAN"), 1u) << describe(findings);
    for (const Diagnostic& d : findings.diagnostics()) {
        if (d.code == "SL-ORPHAN") {
            EXPECT_NE(d.message.find(kUnlisted), std::string::npos) << d.message;
        }
    }
    // Every record was compared with the dataset and found equal; nothing else is wrong.
    EXPECT_EQ(findings.worstSeverity(), Severity::Warning) << describe(findings);
    EXPECT_EQ(findings.diagnostics().size(), 1u) << describe(findings);

    // The tree shows every shard: the manifest's and the unlisted one.
    const auto tree = shardlake::makeRootNode(store);
    const Node* indexes = tree->child(1);
    ASSERT_EQ(indexes->childCount(), 1u);
    std::size_t shardNodes = 0;
    for (std::uint64_t i = 0; i < indexes->child(0)->childCount(); ++i) {
        shardNodes += indexes->child(0)->child(i)->kind() == "shardlake.shard" ? 1 : 0;
    }
    EXPECT_EQ(shardNodes, kShards + 1);
}

// Every shard used to stay mapped for as long as its store: past the kernel's ~65,530 mappings
// the next shards were reported missing.
TEST(ShardlakeScale, OpeningAndValidatingARootAddsNoMappingPerShard) {
    test::SlScratch scratch;
    const fs::path root = scratch.path() / "root";
    constexpr std::size_t kShards = 3000;
    writeWideRoot(root, kShards, false);

    const std::size_t before = mappingCount();
    auto store = std::make_shared<const shardlake::Store>(root);
    const auto tree = shardlake::makeRootNode(*store);
    CollectingSink sink;
    ValidationOptions options;
    options.threads = 2;
    shardlake::makeShardlakeValidator(store, {})->run(sink, options);
    EXPECT_TRUE(sink.diagnostics().empty()) << describe(sink);
    EXPECT_GE(store->sources().size(), kShards);
    // The store, the tree and the report hold every shard; mapped, that would be 3,000 more.
    EXPECT_LT(mappingCount(), before + 200);

    const auto index = shardlake::loadIndex(*store, "v1");
    ASSERT_TRUE(index.index) << index.error;
    EXPECT_EQ(index.index->shards.size(), kShards);
    EXPECT_LT(mappingCount(), before + 200);
}

// Lowers the process's descriptor limit so that the next open fails (EMFILE) while it lives.
class NoFreeDescriptors {
public:
    NoFreeDescriptors() {
        ::getrlimit(RLIMIT_NOFILE, &saved_);
        const int lowest = ::dup(0);  // the lowest free descriptor
        ::close(lowest);
        rlimit lowered = saved_;
        lowered.rlim_cur = static_cast<rlim_t>(lowest);
        ok_ = ::setrlimit(RLIMIT_NOFILE, &lowered) == 0;
    }
    ~NoFreeDescriptors() { ::setrlimit(RLIMIT_NOFILE, &saved_); }
    NoFreeDescriptors(const NoFreeDescriptors&) = delete;
    NoFreeDescriptors& operator=(const NoFreeDescriptors&) = delete;
    bool ok() const { return ok_; }

private:
    rlimit saved_{};
    bool ok_ = false;
};

// Out of descriptors (or any failure to open a file that is there), a shard used to read as
// missing: SL-MISSING for a file on disk. It is an I/O error that names the file.
TEST(ShardlakeScale, AShardThatIsThereButCannotBeOpenedIsAnErrorNotMissing) {
    test::SlScratch scratch;
    const fs::path root = scratch.path() / "root";
    writeWideRoot(root, 3, false);
    const shardlake::Store store(root);
    const std::string key = "indexes/v1/shards/" + shardName(1);
    {
        NoFreeDescriptors limit;
        ASSERT_TRUE(limit.ok());
        EXPECT_TRUE(store.exists(key));  // looking needs no descriptor
        try {
            (void)store.source(key);
            ADD_FAILURE() << "opened without a descriptor";
        } catch (const SourceError& e) {
            EXPECT_NE(std::string(e.what()).find(shardName(1)), std::string::npos) << e.what();
        }
        // Not there: still missing, not an error.
        EXPECT_EQ(store.source("indexes/v1/shards/none.sidx"), nullptr);
    }
    // Nothing was cached from the failure.
    EXPECT_NE(store.source(key), nullptr);
}

// A FIFO where a shard belongs is not a file: missing, and opening it never waits for a writer.
TEST(ShardlakeScale, AFifoWhereAShardBelongsIsMissingAndNeverBlocks) {
    test::SlScratch scratch;
    const fs::path root = scratch.path() / "root";
    writeWideRoot(root, 2, false);
    const fs::path fifo = root / "indexes/v1/shards" / shardName(1);
    fs::remove(fifo);
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const shardlake::Store store(root);
    EXPECT_EQ(store.source("indexes/v1/shards/" + shardName(1)), nullptr);
    EXPECT_THROW(openFileOnDemand(fifo), SourceError);
    EXPECT_THROW(openMappedFile(fifo), SourceError);
    const test::Findings findings = test::validateShardlake(root);
    EXPECT_EQ(countCode(findings, "SL-MISSING"), 1u) << describe(findings);
}

// A symbolic link out of the root is still refused, for a file and for a folder on the way.
TEST(ShardlakeScale, LinksOutOfTheRootAreStillMissing) {
    test::SlScratch scratch;
    const fs::path root = scratch.path() / "root";
    writeWideRoot(root, 2, false);
    const fs::path outside = scratch.path() / "outside";
    fs::create_directories(outside / "shards");
    writeFile(outside / "x.sidx", test::makeRawShard(0, 2, 1));
    writeFile(outside / "shards/y.sidx", test::makeRawShard(0, 2, 1));
    fs::create_symlink(outside / "x.sidx", root / "indexes/v1/shards/x.sidx");
    fs::create_symlink(outside / "shards", root / "indexes/v1/linked");
    fs::create_symlink(root / "indexes/v1/shards" / shardName(0), root / "indexes/v1/inside.sidx");
    const shardlake::Store store(root);
    EXPECT_EQ(store.source("indexes/v1/shards/x.sidx"), nullptr);
    EXPECT_FALSE(store.exists("indexes/v1/shards/x.sidx"));
    EXPECT_EQ(store.source("indexes/v1/linked/y.sidx"), nullptr);
    EXPECT_NE(store.source("indexes/v1/inside.sidx"), nullptr);
    EXPECT_NE(store.source("indexes/v1/shards/" + shardName(1)), nullptr);
}

// Regions found while a file is mapped for a scan name the store's source, which outlives it.
TEST(ShardlakeScale, FindingsOfAScanPointIntoTheStoresSource) {
    test::SlScratch scratch;
    const fs::path root = scratch.path() / "root";
    writeWideRoot(root, 3, false);
    // Record 0 of shard 2 holds a NaN: reported at its bytes.
    const fs::path shard = root / "indexes/v1/shards" / shardName(2);
    std::vector<std::uint8_t> bytes = test::makeRawShard(2, 2, 1, 3);
    const std::size_t nan = bytes.size() - 4;
    bytes[nan + 0] = 0x00;
    bytes[nan + 1] = 0x00;
    bytes[nan + 2] = 0xc0;
    bytes[nan + 3] = 0x7f;
    writeFile(shard, bytes);
    auto store = std::make_shared<const shardlake::Store>(root);
    CollectingSink sink;
    ValidationOptions options;
    shardlake::makeShardlakeValidator(store, {})->run(sink, options);
    const ByteSourcePtr source = store->source("indexes/v1/shards/" + shardName(2));
    ASSERT_NE(source, nullptr);
    std::set<const ByteSource*> held;
    for (const ByteSourcePtr& s : store->sources()) {
        held.insert(s.get());
    }
    bool found = false;
    for (const Diagnostic& d : sink.diagnostics()) {
        for (const Region& region : d.regions) {
            // Not a mapping made for the scan and gone since.
            EXPECT_TRUE(region.source == nullptr || held.contains(region.source))
                << d.code << ": " << d.message;
        }
        if (d.code == "SL-NONFINITE") {
            found = true;
            ASSERT_FALSE(d.regions.empty());
            EXPECT_EQ(d.regions.front().source, source.get());
            EXPECT_EQ(d.regions.front().offset, nan);
        }
    }
    EXPECT_TRUE(found) << describe(sink);
}

// The shards a query is routed to: the naive scan of every shard per ranked centroid.
std::vector<std::size_t> naiveRoute(const shardlake::LoadedIndex& index,
                                    std::span<const float> query, std::size_t nprobe) {
    std::vector<std::pair<float, std::size_t>> ranked;
    for (std::size_t c = 0; c < index.centroids.size(); ++c) {
        ranked.emplace_back(shardlake::squaredL2(query, index.centroids[c]), c);
    }
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<std::size_t> order;
    for (const auto& [score, c] : ranked) {
        for (std::size_t s = 0; s < index.shards.size(); ++s) {
            if (index.shards[s].shardId == c) {
                order.push_back(s);
            }
        }
    }
    if (nprobe != 0 && order.size() > nprobe) {
        order.resize(nprobe);
    }
    return order;
}

TEST(ShardlakeScale, RoutingFindsTheShardsOfEachCentroidOnce) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> value(-1.0f, 1.0f);
    shardlake::LoadedIndex index;
    index.dims = 4;
    for (std::size_t c = 0; c < 300; ++c) {
        index.centroids.push_back({value(rng), value(rng), value(rng), value(rng)});
    }
    // Ids out of order, repeated, and without a centroid.
    std::uniform_int_distribution<std::uint64_t> id(0, 320);
    for (std::size_t s = 0; s < 400; ++s) {
        index.shards.push_back({id(rng), nullptr, {}});
    }
    for (int q = 0; q < 20; ++q) {
        const std::vector<float> query{value(rng), value(rng), value(rng), value(rng)};
        for (const std::size_t nprobe : {std::size_t{0}, std::size_t{1}, std::size_t{7},
                                         std::size_t{399}, std::size_t{1000}}) {
            EXPECT_EQ(shardlake::routeQuery(index, query, nprobe), naiveRoute(index, query, nprobe))
                << "query " << q << ", nprobe " << nprobe;
        }
    }
}

}  // namespace
}  // namespace strata
