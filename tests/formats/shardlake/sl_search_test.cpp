// Search against the corpus's expected results: exact search over the dataset and index search
// over every index and metric, scores compared as f32 bit patterns; then IVF routing.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <fstream>

#include <nlohmann/json.hpp>

#include "formats/shardlake/shardlake_dataset.h"
#include "formats/shardlake/shardlake_search.h"
#include "sl_test_support.h"

namespace strata {
namespace {

namespace fs = std::filesystem;
using namespace shardlake;

std::string bitsOf(float value) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    char buffer[9];
    std::snprintf(buffer, sizeof buffer, "%08x", bits);
    return buffer;
}

class ShardlakeSearch : public ::testing::Test {
protected:
    void SetUp() override {
        STRATA_SKIP_WITHOUT_CORPUS();
        corpus_ = test::slCorpusDir();
        std::ifstream in(corpus_ / "expected/queries.json");
        expected_ = nlohmann::json::parse(in);
        store_ = std::make_shared<Store>(corpus_ / "root");
        for (const auto& q : expected_["queries"]) {
            queries_.push_back(q.get<std::vector<float>>());
        }
    }

    static void expectHits(const std::vector<Hit>& hits, const nlohmann::json& expected,
                           const std::string& what) {
        SCOPED_TRACE(what);
        ASSERT_EQ(hits.size(), expected.size());
        for (std::size_t i = 0; i < hits.size(); ++i) {
            EXPECT_EQ(hits[i].id, expected[i]["id"].get<std::uint64_t>()) << "rank " << i;
            EXPECT_EQ(bitsOf(hits[i].score), expected[i]["score_f32_bits"].get<std::string>())
                << "rank " << i;
        }
    }

    fs::path corpus_;
    nlohmann::json expected_;
    std::shared_ptr<Store> store_;
    std::vector<std::vector<float>> queries_;
};

TEST_F(ShardlakeSearch, ExactSearchMatchesBitForBit) {
    std::string error;
    const auto vectors =
        readDatasetVectors(*store_->source("datasets/ds-v1/vectors.jsonl"), &error);
    ASSERT_TRUE(error.empty()) << error;
    ASSERT_EQ(vectors.size(), 2000u);
    const std::size_t k = expected_["k"].get<std::size_t>();
    for (const auto& [name, perQuery] : expected_["exact"].items()) {
        const auto metric = metricFromName(name);
        ASSERT_TRUE(metric);
        for (std::size_t q = 0; q < queries_.size(); ++q) {
            const SearchResult result = exactSearch(vectors, queries_[q], *metric, k);
            ASSERT_TRUE(result.error.empty()) << result.error;
            expectHits(result.hits, perQuery[q], name + " query " + std::to_string(q));
        }
    }
}

TEST_F(ShardlakeSearch, IndexSearchMatchesEveryIndexAndMetric) {
    const std::size_t k = expected_["k"].get<std::size_t>();
    for (const auto& [version, spec] : expected_["index_search"].items()) {
        const IndexLoad load = loadIndex(*store_, version);
        ASSERT_TRUE(load.index) << version << ": " << load.error;
        EXPECT_EQ(metricName(load.index->metric), spec["index_metric"].get<std::string>());
        for (const auto& [name, perQuery] : spec["results"].items()) {
            for (std::size_t q = 0; q < queries_.size(); ++q) {
                SearchOptions options;
                options.k = k;
                options.metric = metricFromName(name);
                options.nprobe = spec["fanout"]["candidate_centroids"].get<std::size_t>();
                options.threads = 2;
                const SearchResult result = searchIndex(*load.index, queries_[q], options);
                const std::string what = version + " " + name + " query " + std::to_string(q);
                if (perQuery[q].is_object()) {
                    EXPECT_FALSE(result.error.empty()) << what;  // PQ with a non-L2 metric
                    continue;
                }
                ASSERT_TRUE(result.error.empty()) << what << ": " << result.error;
                expectHits(result.hits, perQuery[q], what);
            }
        }
    }
}

TEST_F(ShardlakeSearch, IvfRoutesToTheNearestCentroids) {
    const IndexLoad load = loadIndex(*store_, "idx-cosine");
    ASSERT_TRUE(load.index);
    const LoadedIndex& index = *load.index;
    ASSERT_EQ(index.centroids.size(), 4u);
    for (const auto& query : queries_) {
        const auto all = routeQuery(index, query, 0);
        ASSERT_EQ(all.size(), 4u);
        for (std::size_t i = 1; i < all.size(); ++i) {
            EXPECT_LE(squaredL2(query, index.centroids[index.shards[all[i - 1]].shardId]),
                      squaredL2(query, index.centroids[index.shards[all[i]].shardId]));
        }
        // nprobe = 1 searches exactly the nearest shard: its own top-k.
        SearchOptions one;
        one.nprobe = 1;
        one.k = 5;
        const SearchResult probed = searchIndex(index, query, one);
        ASSERT_TRUE(probed.error.empty());
        LoadedIndex single = index;
        single.shards = {index.shards[all[0]]};
        single.centroids.clear();
        const SearchResult direct = searchIndex(single, query, one);
        ASSERT_EQ(probed.hits.size(), direct.hits.size());
        for (std::size_t i = 0; i < probed.hits.size(); ++i) {
            EXPECT_EQ(probed.hits[i].id, direct.hits[i].id);
        }
        // More probes never make the best score worse.
        SearchOptions two = one;
        two.nprobe = 2;
        const SearchResult wider = searchIndex(index, query, two);
        EXPECT_LE(wider.hits.front().score, probed.hits.front().score);
    }
}

TEST_F(ShardlakeSearch, WrongQueryLengthIsAnError) {
    const IndexLoad load = loadIndex(*store_, "idx-l2");
    ASSERT_TRUE(load.index);
    const std::vector<float> query(3, 1.0f);
    EXPECT_FALSE(searchIndex(*load.index, query, {}).error.empty());
}

TEST(ShardlakeMetrics, DistancesFollowTheReference) {
    const std::vector<float> a{3.0f, 4.0f};
    const std::vector<float> b{0.0f, 0.0f};
    EXPECT_EQ(distance(Metric::Euclidean, a, b), 5.0f);
    EXPECT_EQ(distance(Metric::Cosine, a, b), 1.0f);  // a zero norm gives 1
    EXPECT_EQ(distance(Metric::Cosine, a, a), 0.0f);
    EXPECT_EQ(distance(Metric::InnerProduct, a, a), -25.0f);
}

TEST(ShardlakeMetrics, MergeSortsStablyAndDropsDuplicateIds) {
    std::vector<Hit> hits{{7, 2.0f}, {3, 1.0f}, {7, 0.5f}, {9, 1.0f}, {4, NAN}, {5, 3.0f}};
    mergeHits(hits, 4);
    ASSERT_EQ(hits.size(), 4u);
    EXPECT_EQ(hits[0].id, 7u);
    EXPECT_EQ(hits[0].score, 0.5f);
    EXPECT_EQ(hits[1].id, 3u);  // ties keep input order
    EXPECT_EQ(hits[2].id, 9u);
    EXPECT_EQ(hits[3].id, 5u);  // NaN sorts last
}

}  // namespace
}  // namespace strata
