// Building and editing Shardlake roots: the serde-style JSON text, the seeded RNG, alias
// repointing, ingest + build round trips (including the corpus root byte for byte), and hostile
// inputs to the builder and the search loader.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "formats/common/byte_source.h"
#include "formats/shardlake/shardlake_alias_edit.h"
#include "formats/shardlake/shardlake_builder.h"
#include "formats/shardlake/shardlake_dataset.h"
#include "formats/shardlake/shardlake_json_writer.h"
#include "formats/shardlake/shardlake_kmeans.h"
#include "formats/shardlake/shardlake_rng.h"
#include "formats/shardlake/shardlake_search.h"
#include "sl_test_support.h"

namespace strata::test {

namespace {

namespace fs = std::filesystem;
using namespace strata::shardlake;

std::string readText(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
}

void writeText(const fs::path& path, const std::string& text) {
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
}

// n vectors of `dims` values in a few well separated groups, ids 1..n, every 3rd with metadata.
std::string syntheticInput(std::size_t n, std::size_t dims) {
    std::string out;
    std::uint32_t state = 12345;
    for (std::size_t i = 0; i < n; ++i) {
        out += "{\"id\": " + std::to_string(i + 1) + ", \"vector\": [";
        for (std::size_t j = 0; j < dims; ++j) {
            state = state * 1664525u + 1013904223u;
            const float noise = static_cast<float>(state >> 8) / 16777216.0f - 0.5f;
            const float centre = static_cast<float>((i % 4) * 10 + (j % 3));
            out += (j == 0 ? "" : ", ") + formatF32(centre + noise);
        }
        out += "]";
        if (i % 3 == 0) {
            out += ", \"metadata\": {\"z\": 1, \"a\": [true, null, 2.5]}";
        }
        out += "}\n";
    }
    return out;
}

class ShardlakeBuild : public ::testing::Test {
protected:
    BuildRequest request(const std::string& version, Metric metric, std::uint32_t shards) {
        BuildRequest r;
        r.root = scratch.path() / "root";
        r.datasetVersion = "ds";
        r.indexVersion = version;
        r.metric = metric;
        r.numShards = shards;
        r.timestamp = "2026-01-01T00:00:00Z";
        return r;
    }
    BuildOutcome ingest(const std::string& text) {
        writeText(scratch.path() / "input.jsonl", text);
        IngestRequest r;
        r.root = scratch.path() / "root";
        r.input = scratch.path() / "input.jsonl";
        r.datasetVersion = "ds";
        r.replace = true;
        return ingestVectors(r);
    }
    SlScratch scratch;
};

}  // namespace

TEST(ShardlakeJsonText, FloatsPrintLikeRust) {
    EXPECT_EQ(formatF32(1.0f), "1.0");
    EXPECT_EQ(formatF32(0.1f), "0.1");
    EXPECT_EQ(formatF32(-0.0f), "-0.0");
    EXPECT_EQ(formatF32(1.0144f), "1.0144");
    EXPECT_EQ(formatF32(1e-7f), "1e-7");
    EXPECT_EQ(formatF32(0.00001f), "0.00001");
    EXPECT_EQ(formatF32(1.5e20f), "1.5e20");
    EXPECT_EQ(formatF32(123456.0f), "123456.0");
    EXPECT_EQ(formatF64(0.002025081), "0.002025081");
    EXPECT_EQ(formatF64(1e16), "1e16");
    EXPECT_EQ(formatF64(1e15), "1000000000000000.0");
    EXPECT_EQ(quoteJson("a\"b\\c\n\x01"), "\"a\\\"b\\\\c\\n\\u0001\"");
}

TEST(ShardlakeJsonText, PrettyLayoutHasNoTrailingNewline) {
    nlohmann::ordered_json doc = {{"b", 1}, {"a", nlohmann::ordered_json::array()}};
    EXPECT_EQ(prettyJson(doc), "{\n  \"b\": 1,\n  \"a\": []\n}");
}

TEST(ShardlakeRng, SameSeedSameStreamAndBoundedDraws) {
    ChaCha12Rng a(0xdeadbeef);
    ChaCha12Rng b(0xdeadbeef);
    ChaCha12Rng c(42);
    bool differs = false;
    for (int i = 0; i < 100; ++i) {
        const std::uint32_t x = a.nextU32();
        EXPECT_EQ(x, b.nextU32());
        differs = differs || x != c.nextU32();
        EXPECT_LT(c.belowU32(7), 7u);
        EXPECT_EQ(c.index(1), 0u);
    }
    EXPECT_TRUE(differs);
    std::vector<std::uint64_t> items{0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
    shuffle(items, a);
    std::vector<std::uint64_t> sorted = items;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(sorted, (std::vector<std::uint64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
}

TEST(ShardlakeKMeans, NearestCentroidPrefersTheFirstOfEqualDistances) {
    const std::vector<float> vectors{0.0f, 0.0f, 10.0f, 10.0f, 5.0f, 5.0f};
    const std::vector<float> centroids{0.0f, 0.0f, 10.0f, 10.0f};
    std::vector<std::uint32_t> out(3);
    assignNearest({vectors, 2}, {centroids, 2}, out, 2);
    EXPECT_EQ(out, (std::vector<std::uint32_t>{0, 1, 0}));
}

TEST_F(ShardlakeBuild, CorpusInputRebuildsTheCorpusRootByteForByte) {
    STRATA_SKIP_WITHOUT_CORPUS();
    const fs::path corpus = slCorpusDir();
    IngestRequest in;
    in.root = scratch.path() / "root";
    in.input = corpus / "input/vectors.jsonl";
    in.datasetVersion = "ds-v1";
    in.embeddingVersion = "emb-v1";
    ASSERT_TRUE(ingestVectors(in).ok);
    BuildRequest r = request("idx-l2", Metric::Euclidean, 3);
    r.datasetVersion = "ds-v1";
    r.nprobe = 3;
    r.threads = 2;
    const BuildOutcome built = buildIndex(r);
    ASSERT_TRUE(built.ok) << built.error;
    EXPECT_EQ(built.shards, 3u);
    for (const char* file :
         {"indexes/idx-l2/coarse_quantizer.cq", "indexes/idx-l2/shards/shard-0000.sidx",
          "indexes/idx-l2/shards/shard-0002.sidx", "datasets/ds-v1/vectors.jsonl",
          "datasets/ds-v1/metadata.json"}) {
        EXPECT_EQ(readText(r.root / file), readText(corpus / "root" / file)) << file;
    }
    const Findings findings = validateShardlake(r.root);
    EXPECT_EQ(findings.countOf(Severity::Error), 0u) << describe(findings);
}

TEST_F(ShardlakeBuild, BuildThenReadAndSearch) {
    ASSERT_TRUE(ingest(syntheticInput(300, 8)).ok);
    const std::string metadata = readText(scratch.path() / "root/datasets/ds/metadata.json");
    EXPECT_NE(metadata.find("\"1\": {\n    \"a\": [\n      true,\n      null,\n      2.5\n    ],\n"
                            "    \"z\": 1\n  }"),
              std::string::npos)
        << metadata;
    BuildRequest r = request("idx", Metric::Euclidean, 5);
    r.kmeansSampleSize = 100;
    double lastProgress = -1;
    r.progress = [&](double fraction, const std::string&) {
        EXPECT_GE(fraction, 0.0);
        EXPECT_LE(fraction, 1.0);
        lastProgress = fraction;
    };
    const BuildOutcome built = buildIndex(r);
    ASSERT_TRUE(built.ok) << built.error;
    EXPECT_EQ(lastProgress, 1.0);
    EXPECT_EQ(built.vectors, 300u);
    const std::string manifest = readText(r.root / "indexes/idx/manifest.json");
    EXPECT_NE(manifest.find("\"kmeans_sample_size\": 100"), std::string::npos);
    EXPECT_NE(manifest.find("\"built_at\": \"2026-01-01T00:00:00Z\""), std::string::npos);
    EXPECT_EQ(manifest.back(), '}');

    const Findings findings = validateShardlake(r.root);
    EXPECT_EQ(findings.countOf(Severity::Error), 0u) << describe(findings);

    const Store store(r.root);
    const IndexLoad load = loadIndex(store, "idx");
    ASSERT_TRUE(load.index) << load.error;
    const std::vector<float> query{20.0f, 21.0f, 22.0f, 20.0f, 21.0f, 22.0f, 20.0f, 21.0f};
    SearchOptions options;
    options.k = 5;
    options.threads = 2;
    const SearchResult all = searchIndex(*load.index, query, options);
    ASSERT_EQ(all.hits.size(), 5u);
    for (const Hit& hit : all.hits) {
        EXPECT_EQ(hit.id % 4, 3u) << "the nearest vectors are in the group around 20";
    }
    options.threads = 1;
    const SearchResult single = searchIndex(*load.index, query, options);
    ASSERT_EQ(single.hits.size(), all.hits.size());
    for (std::size_t i = 0; i < all.hits.size(); ++i) {
        EXPECT_EQ(single.hits[i].id, all.hits[i].id);
        EXPECT_EQ(single.hits[i].shardId, all.hits[i].shardId);
    }
}

TEST_F(ShardlakeBuild, SameInputSameBytes) {
    ASSERT_TRUE(ingest(syntheticInput(200, 6)).ok);
    BuildRequest one = request("a", Metric::Cosine, 4);
    one.threads = 1;
    BuildRequest two = request("b", Metric::Cosine, 4);
    two.threads = 3;
    ASSERT_TRUE(buildIndex(one).ok);
    ASSERT_TRUE(buildIndex(two).ok);
    EXPECT_EQ(readText(one.root / "indexes/a/coarse_quantizer.cq"),
              readText(two.root / "indexes/b/coarse_quantizer.cq"));
}

TEST_F(ShardlakeBuild, CancelledBuildLeavesNoIndex) {
    ASSERT_TRUE(ingest(syntheticInput(50, 4)).ok);
    CancelToken cancel;
    cancel.cancel();
    BuildRequest r = request("idx", Metric::Euclidean, 2);
    r.cancel = &cancel;
    const BuildOutcome built = buildIndex(r);
    EXPECT_FALSE(built.ok);
    EXPECT_TRUE(built.cancelled);
    EXPECT_FALSE(fs::exists(r.root / "indexes/idx"));
}

TEST_F(ShardlakeBuild, BadInputsAreRefusedWithReasons) {
    EXPECT_NE(ingest("{\"id\": 1, \"vector\": []}\n").error.find("must not be empty"),
              std::string::npos);
    EXPECT_NE(ingest("{\"id\": 1, \"vector\": [1, 2]}\n{\"id\": 2, \"vector\": [3]}\n")
                  .error.find("dimension mismatch for id 2"),
              std::string::npos);
    EXPECT_NE(ingest("{\"id\": -1, \"vector\": [1]}\n").error.find("line 1"), std::string::npos);
    EXPECT_NE(ingest("\n\n").error.find("No records"), std::string::npos);
    EXPECT_NE(ingest("{\"id\": 1, \"vector\": [1, \"x\"]}\n").error.find("not a number"),
              std::string::npos);

    ASSERT_TRUE(ingest(syntheticInput(20, 4)).ok);
    BuildRequest r = request("idx", Metric::Euclidean, 0);
    EXPECT_NE(buildIndex(r).error.find("num_shards"), std::string::npos);
    r = request("../escape", Metric::Euclidean, 2);
    EXPECT_NE(buildIndex(r).error.find("index version"), std::string::npos);
    r = request("idx", Metric::Euclidean, 2);
    ASSERT_TRUE(buildIndex(r).ok);
    EXPECT_NE(buildIndex(r).error.find("already exists"), std::string::npos);
    r.replace = true;
    EXPECT_TRUE(buildIndex(r).ok);
}

// An input of several 4 MiB blocks (parsed on pool threads): lines numbered across blocks, the
// first parse error in the file wins over an earlier dimension mismatch (as the checks always
// ran: parse, then dimensions), and a failed ingest leaves no folder behind.
TEST_F(ShardlakeBuild, LargeInputKeepsLineNumbersAndErrorOrder) {
    std::string text;
    std::size_t lines = 0;
    while (text.size() < (13u << 20)) {
        ++lines;
        text += "{\"id\": " + std::to_string(lines) + ", \"vector\": [";
        for (int k = 0; k < 32; ++k) {
            text += std::to_string((lines * 7 + k) % 1000) + ".5, ";
        }
        text += "1]}\n";
    }
    const BuildOutcome good = ingest(text);
    ASSERT_TRUE(good.ok) << good.error;
    EXPECT_EQ(good.vectors, lines);
    std::string error;
    const auto vectors = readDatasetVectors(
        *openMappedFile(scratch.path() / "root/datasets/ds/vectors.jsonl"), &error);
    ASSERT_EQ(vectors.size(), lines) << error;
    EXPECT_EQ(vectors.back().id, lines);
    fs::remove_all(scratch.path() / "root");

    std::string bad = text;
    bad.insert(bad.find('\n') + 1, "{\"id\": 999999999, \"vector\": [1]}\n");  // line 2
    const std::size_t late = bad.find('\n', 10u << 20) + 1;
    const std::size_t lateLine =
        static_cast<std::size_t>(std::count(bad.begin(), bad.begin() + late, '\n')) + 1;
    bad.insert(late, "{\"id\": 5, \"vector\": [1, oops]}\n");
    const BuildOutcome refused = ingest(bad);
    EXPECT_FALSE(refused.ok);
    EXPECT_EQ(refused.error.rfind("line " + std::to_string(lateLine) + ": ", 0), 0u)
        << refused.error;
    EXPECT_FALSE(fs::exists(scratch.path() / "root")) << "a failed ingest left folders";
}

TEST_F(ShardlakeBuild, HostileDatasetInfoIsRefused) {
    ASSERT_TRUE(ingest(syntheticInput(20, 4)).ok);
    const fs::path info = scratch.path() / "root/datasets/ds/info.json";
    const std::string original = readText(info);
    for (const char* dims : {"0", "2147483648", "18446744073709551615"}) {
        std::string text = original;
        text.replace(text.find("\"dims\": 4"), 9, std::string("\"dims\": ") + dims);
        writeText(info, text);
        const BuildOutcome built = buildIndex(request("idx", Metric::Euclidean, 2));
        EXPECT_FALSE(built.ok) << dims;
        EXPECT_NE(built.error.find("dims"), std::string::npos) << built.error;
    }
    std::string text = original;
    text.replace(text.find("\"dims\": 4"), 9, "\"dims\": 5");
    writeText(info, text);
    EXPECT_NE(buildIndex(request("idx", Metric::Euclidean, 2)).error.find("dimension mismatch"),
              std::string::npos);
}

TEST_F(ShardlakeBuild, SearchLoaderSurvivesHostileQuantizerAndShards) {
    ASSERT_TRUE(ingest(syntheticInput(40, 4)).ok);
    ASSERT_TRUE(buildIndex(request("idx", Metric::Euclidean, 2)).ok);
    const fs::path root = scratch.path() / "root";
    // A quantizer claiming 2^31 centroids of 2^31 dims (far beyond 10 GB) in a few bytes.
    Bytes cq;
    cq.raw(std::string_view("SLKIVF\0\0", 8)).u32(1).u32(0x80000000u).u32(0x80000000u);
    scratch.write("root/indexes/idx/coarse_quantizer.cq", cq.take());
    {
        const Store store(root);
        const IndexLoad load = loadIndex(store, "idx");
        ASSERT_TRUE(load.index) << load.error;
        EXPECT_TRUE(load.index->centroids.empty());
        EXPECT_TRUE(validateShardlake(root).countOf(Severity::Error) > 0);
    }
    // A shard header claiming 2^40 records.
    std::string shard = readText(root / "indexes/idx/shards/shard-0000.sidx");
    shard[24] = 0;
    shard[25] = 0;
    shard[26] = 0;
    shard[27] = 0;
    shard[28] = 0;
    shard[29] = 1;
    writeText(root / "indexes/idx/shards/shard-0000.sidx", shard);
    const Store store(root);
    const IndexLoad load = loadIndex(store, "idx");
    EXPECT_FALSE(load.index);
    EXPECT_NE(load.error.find("shard-0000.sidx"), std::string::npos) << load.error;
}

TEST_F(ShardlakeBuild, AliasRepointsAtomicallyAndRefusesBadTargets) {
    ASSERT_TRUE(ingest(syntheticInput(30, 4)).ok);
    ASSERT_TRUE(buildIndex(request("one", Metric::Euclidean, 2)).ok);
    ASSERT_TRUE(buildIndex(request("two", Metric::Euclidean, 3)).ok);
    const fs::path root = scratch.path() / "root";

    AliasWrite first = writeAlias(root, "latest", "one");
    ASSERT_TRUE(first.ok) << first.error;
    EXPECT_TRUE(first.previousVersion.empty());
    AliasWrite second = writeAlias(root, "latest", "two", AliasMode::ReplaceOnly);
    ASSERT_TRUE(second.ok) << second.error;
    EXPECT_EQ(second.previousVersion, "one");
    EXPECT_EQ(readText(root / "aliases/latest.json"),
              "{\n  \"alias\": \"latest\",\n  \"index_version\": \"two\"\n}");
    EXPECT_EQ(validateShardlake(root).countOf(Severity::Error), 0u);

    // Refusals leave the alias as it was.
    EXPECT_NE(writeAlias(root, "latest", "three").error.find("no index version"),
              std::string::npos);
    EXPECT_NE(writeAlias(root, "latest", "../one").error.find("index version"), std::string::npos);
    EXPECT_NE(writeAlias(root, "latest", "latest").error.find("no index version"),
              std::string::npos)
        << "an alias cannot point at another alias (no cycles)";
    for (const char* bad : {"", ".", "..", "../x", "a/b", "a\\b", "/abs"}) {
        EXPECT_FALSE(writeAlias(root, bad, "one").ok) << bad;
    }
    EXPECT_FALSE(writeAlias(root, "fresh", "one", AliasMode::ReplaceOnly).ok);
    EXPECT_NE(readText(root / "aliases/latest.json").find("\"two\""), std::string::npos);
    EXPECT_FALSE(fs::exists(root.parent_path() / "x.json"));

    // A manifest that names another version is not a valid target.
    std::string manifest = readText(root / "indexes/one/manifest.json");
    manifest.replace(manifest.find("\"index_version\": \"one\""), 23, "\"index_version\": \"two\"");
    writeText(root / "indexes/one/manifest.json", manifest);
    EXPECT_FALSE(writeAlias(root, "latest", "one").ok);
    EXPECT_EQ(indexVersions(Store(root)), std::vector<std::string>{"two"});
}

}  // namespace strata::test
