// Writer conformance: roots written by Strata's ingest, build and alias edits are compared file
// by file with the corpus root the reference wrote from the same input (manifests and dataset
// info included, time stamps aside), and read back here by a reader written from the spec and
// REFERENCE.md (its own .sidx / .cq parsing and FNV-1a), record by record against the input.
#include <gtest/gtest.h>

#include "test_corpus.h"

#include <bit>
#include <cmath>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <sstream>

#include <nlohmann/json.hpp>

#include "formats/shardlake/shardlake_alias_edit.h"
#include "formats/shardlake/shardlake_builder.h"
#include "sl_test_support.h"

namespace strata::test {
namespace {

namespace fs = std::filesystem;
using namespace strata::shardlake;
using nlohmann::json;

std::string slurp(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
}

// ---- an independent reader of shards and quantizers -------------------------------------------

std::uint64_t le(const std::string& bytes, std::size_t at, int width) {
    std::uint64_t v = 0;
    for (int i = width - 1; i >= 0; --i) {
        v = (v << 8) | static_cast<unsigned char>(bytes.at(at + static_cast<std::size_t>(i)));
    }
    return v;
}

float f32At(const std::string& bytes, std::size_t at) {
    return std::bit_cast<float>(static_cast<std::uint32_t>(le(bytes, at, 4)));
}

std::string fnv1a(const std::string& bytes) {
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned char b : bytes) {
        h = (h ^ b) * 0x100000001b3ull;
    }
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h));
    return text;
}

struct Shard {
    std::uint32_t id = 0, dims = 0;
    std::vector<float> centroid;
    std::vector<std::pair<std::uint64_t, std::vector<float>>> records;
};

Shard readShard(const std::string& bytes) {
    Shard s;
    EXPECT_EQ(bytes.substr(0, 8), std::string("SLKIDX\0\0", 8));
    EXPECT_EQ(le(bytes, 8, 4), 1u) << "raw shards are version 1";
    s.id = static_cast<std::uint32_t>(le(bytes, 12, 4));
    s.dims = static_cast<std::uint32_t>(le(bytes, 16, 4));
    EXPECT_EQ(le(bytes, 20, 4), 1u) << "the reference writes one centroid per shard";
    const std::uint64_t n = le(bytes, 24, 8);
    EXPECT_EQ(bytes.size(), 32 + 4 * s.dims + n * (8 + 4 * s.dims)) << "exact size, no trailer";
    std::size_t at = 32;
    for (std::uint32_t d = 0; d < s.dims; ++d, at += 4) {
        s.centroid.push_back(f32At(bytes, at));
    }
    for (std::uint64_t i = 0; i < n && at < bytes.size(); ++i) {
        std::pair<std::uint64_t, std::vector<float>> record{le(bytes, at, 8), {}};
        at += 8;
        for (std::uint32_t d = 0; d < s.dims; ++d, at += 4) {
            record.second.push_back(f32At(bytes, at));
        }
        s.records.push_back(std::move(record));
    }
    return s;
}

std::vector<std::vector<float>> readQuantizer(const std::string& bytes) {
    EXPECT_EQ(bytes.substr(0, 8), std::string("SLKIVF\0\0", 8));
    EXPECT_EQ(le(bytes, 8, 4), 1u);
    const auto dims = le(bytes, 12, 4);
    const auto k = le(bytes, 16, 4);
    EXPECT_EQ(bytes.size(), 20 + 4 * k * dims);
    std::vector<std::vector<float>> out(k);
    for (std::uint64_t c = 0; c < k; ++c) {
        for (std::uint64_t d = 0; d < dims; ++d) {
            out[c].push_back(f32At(bytes, 20 + 4 * (c * dims + d)));
        }
    }
    return out;
}

bool sameBits(const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](float x, float y) {
               return std::bit_cast<std::uint32_t>(x) == std::bit_cast<std::uint32_t>(y);
           });
}

// The ingest input as the reference parses it: serde_json values, vectors as f64 cast to f32.
struct InputRecord {
    std::uint64_t id = 0;
    std::vector<float> vector;
    std::optional<json> metadata;  // present (even when null) when the key is there
};

std::vector<InputRecord> readInput(const std::string& text) {
    std::vector<InputRecord> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        if (line.find_first_not_of(" \t\r") == std::string::npos) {
            continue;
        }
        const json j = json::parse(line);
        InputRecord r;
        r.id = j["id"].get<std::uint64_t>();
        for (const json& v : j["vector"]) {
            r.vector.push_back(static_cast<float>(v.get<double>()));
        }
        if (j.contains("metadata")) {
            r.metadata = j["metadata"];
        }
        out.push_back(std::move(r));
    }
    return out;
}

// Checks an index written by Strata against its input, with nothing but the spec's layouts.
void expectIndexHoldsTheInput(const fs::path& root, const std::string& version,
                              const std::vector<InputRecord>& input) {
    const json manifest = json::parse(slurp(root / "indexes" / version / "manifest.json"));
    const auto dims = manifest["dims"].get<std::uint32_t>();
    const auto centroids =
        readQuantizer(slurp(root / manifest["coarse_quantizer_key"].get<std::string>()));
    ASSERT_EQ(centroids.size(), manifest["shards"].size());
    std::map<std::uint64_t, std::vector<float>> seen;
    std::uint64_t total = 0;
    for (const json& entry : manifest["shards"]) {
        const auto id = entry["shard_id"].get<std::uint32_t>();
        const std::string bytes = slurp(root / entry["artifact_key"].get<std::string>());
        EXPECT_EQ(entry["sha256"], fnv1a(bytes));
        const Shard shard = readShard(bytes);
        EXPECT_EQ(shard.id, id);
        EXPECT_EQ(shard.dims, dims);
        EXPECT_EQ(shard.records.size(), entry["vector_count"].get<std::uint64_t>());
        EXPECT_TRUE(sameBits(shard.centroid, centroids.at(id)));
        std::vector<float> listed;
        for (const json& v : entry["centroid"]) {
            listed.push_back(static_cast<float>(v.get<double>()));
        }
        EXPECT_TRUE(sameBits(shard.centroid, listed)) << "manifest centroid of shard " << id;
        for (const auto& [recordId, values] : shard.records) {
            EXPECT_TRUE(seen.emplace(recordId, values).second) << "id " << recordId << " twice";
        }
        total += shard.records.size();
    }
    EXPECT_EQ(manifest["total_vector_count"].get<std::uint64_t>(), total);
    ASSERT_EQ(seen.size(), input.size());
    for (const InputRecord& r : input) {
        ASSERT_TRUE(seen.contains(r.id)) << r.id;
        EXPECT_TRUE(sameBits(seen[r.id], r.vector)) << "vector of id " << r.id;
    }
}

// The dataset files against the input: vectors.jsonl line by line, metadata.json entry by entry.
void expectDatasetHoldsTheInput(const fs::path& root, const std::string& version,
                                const std::vector<InputRecord>& input) {
    std::istringstream lines(slurp(root / "datasets" / version / "vectors.jsonl"));
    std::size_t i = 0;
    for (std::string line; std::getline(lines, line); ++i) {
        ASSERT_LT(i, input.size());
        const json j = json::parse(line);
        EXPECT_EQ(j["id"].get<std::uint64_t>(), input[i].id);
        std::vector<float> data;
        for (const json& v : j["data"]) {
            data.push_back(static_cast<float>(v.get<double>()));
        }
        EXPECT_TRUE(sameBits(data, input[i].vector)) << "line " << i + 1;
        EXPECT_EQ(j["metadata"], input[i].metadata.value_or(nullptr)) << "line " << i + 1;
    }
    EXPECT_EQ(i, input.size());
    json expected = json::object();
    for (const InputRecord& r : input) {
        if (r.metadata) {
            expected[std::to_string(r.id)] = *r.metadata;
        }
    }
    EXPECT_EQ(json::parse(slurp(root / "datasets" / version / "metadata.json")), expected);
    const json info = json::parse(slurp(root / "datasets" / version / "info.json"));
    EXPECT_EQ(info["vector_count"].get<std::size_t>(), input.size());
    EXPECT_EQ(info["dims"].get<std::size_t>(), input.front().vector.size());
}

// The text with the values of the given keys (time stamps, durations) blanked.
std::string withoutValues(std::string text, const std::vector<std::string>& keys) {
    for (const std::string& key : keys) {
        text =
            std::regex_replace(text, std::regex("\"" + key + "\": [^,\n]+"), "\"" + key + "\": _");
    }
    return text;
}

TEST(ShardlakeWriterConformance, CorpusRootRebuiltFileByFileRecordByRecord) {
    STRATA_SKIP_WITHOUT_CORPUS();
    const fs::path corpus = slCorpusDir();
    SlScratch scratch;
    const fs::path root = scratch.path() / "root";
    IngestRequest in;
    in.root = root;
    in.input = corpus / "input/vectors.jsonl";
    in.datasetVersion = "ds-v1";
    in.embeddingVersion = "emb-v1";
    ASSERT_TRUE(ingestVectors(in).ok);
    const std::vector<InputRecord> input = readInput(slurp(in.input));

    struct Index {
        const char* version;
        Metric metric;
        std::uint32_t shards, nprobe;
    };
    for (const Index& index :
         {Index{"idx-cosine", Metric::Cosine, 4, 2}, Index{"idx-l2", Metric::Euclidean, 3, 3},
          Index{"idx-ip", Metric::InnerProduct, 4, 4}}) {
        SCOPED_TRACE(index.version);
        BuildRequest r;
        r.root = root;
        r.datasetVersion = "ds-v1";
        r.indexVersion = index.version;
        r.metric = index.metric;
        r.numShards = index.shards;
        r.nprobe = index.nprobe;
        r.threads = 2;
        const BuildOutcome built = buildIndex(r);
        ASSERT_TRUE(built.ok) << built.error;
        const fs::path mine = root / "indexes" / index.version;
        const fs::path theirs = corpus / "root/indexes" / index.version;
        std::size_t files = 0;
        for (const auto& entry : fs::recursive_directory_iterator(theirs)) {
            if (!entry.is_regular_file()) {
                continue;
            }
            const fs::path relative = fs::relative(entry.path(), theirs);
            SCOPED_TRACE(relative.string());
            ++files;
            const std::string expected = slurp(entry.path());
            const std::string written = slurp(mine / relative);
            if (relative == "manifest.json") {
                const std::vector<std::string> times{"built_at", "build_duration_secs"};
                EXPECT_EQ(withoutValues(written, times), withoutValues(expected, times));
            } else {
                EXPECT_TRUE(written == expected) << "differs from the reference's file";
            }
        }
        EXPECT_EQ(files,
                  static_cast<std::size_t>(std::distance(fs::recursive_directory_iterator(mine),
                                                         fs::recursive_directory_iterator()) -
                                           1))  // the shards/ folder
            << "the same files";
        expectIndexHoldsTheInput(root, index.version, input);
    }
    for (const char* file : {"vectors.jsonl", "metadata.json"}) {
        EXPECT_TRUE(slurp(root / "datasets/ds-v1" / file) ==
                    slurp(corpus / "root/datasets/ds-v1" / file))
            << file;
    }
    EXPECT_EQ(withoutValues(slurp(root / "datasets/ds-v1/info.json"), {"ingested_at"}),
              withoutValues(slurp(corpus / "root/datasets/ds-v1/info.json"), {"ingested_at"}));
    expectDatasetHoldsTheInput(root, "ds-v1", input);

    // Aliases published the way the reference's `publish` writes them.
    ASSERT_TRUE(writeAlias(root, "latest", "idx-cosine").ok);
    ASSERT_TRUE(writeAlias(root, "l2", "idx-l2").ok);
    for (const char* alias : {"latest.json", "l2.json"}) {
        EXPECT_EQ(slurp(root / "aliases" / alias), slurp(corpus / "root/aliases" / alias));
    }
}

// Metadata in every JSON shape, explicit nulls, unsorted keys, escapes, numbers that print
// differently in Rust, and vector values that need rounding to f32: the dataset and the index
// hold exactly what the reference would read from the same input.
TEST(ShardlakeWriterConformance, IngestKeepsEveryRecordAndMetadataValue) {
    std::string text;
    for (int i = 1; i <= 40; ++i) {
        text += "{\"id\": " + std::to_string(1000 - i) + ", \"vector\": [" + std::to_string(i % 4) +
                ".1, 1e-40, " + std::to_string(i) + ", 1e30, -0.30000001192092896]";
        switch (i % 8) {
            case 0:
                text += ", \"metadata\": null";
                break;
            case 1:
                text +=
                    R"(, "metadata": {"z": [1, 2.5, 1e16, 1e-7, 18446744073709551615, 123456789012345678901], "a": {"y": true, "b": "caf\u00e9 \"q\" \\ \n\t\u0001\u007f"}})";
                break;
            case 2:
                text += R"(, "metadata": "plain string")";
                break;
            case 3:
                text += R"(, "metadata": [])";
                break;
            case 4:
                text += R"(, "metadata": {})";
                break;
            case 5:
                text += R"(, "metadata": 1.0)";
                break;
            default:
                break;
        }
        text += "}\r\n";
        if (i % 10 == 0) {
            text += "   \n";
        }
    }
    SlScratch scratch;
    const fs::path root = scratch.path() / "root";
    scratch.write("input.jsonl", std::vector<std::uint8_t>(text.begin(), text.end()));
    IngestRequest in;
    in.root = root;
    in.input = scratch.path() / "input.jsonl";
    in.datasetVersion = "ds";
    in.timestamp = "2026-01-01T00:00:00Z";
    ASSERT_TRUE(ingestVectors(in).ok);
    const std::vector<InputRecord> input = readInput(text);
    ASSERT_EQ(input.size(), 40u);
    expectDatasetHoldsTheInput(root, "ds", input);
    const std::string vectors = slurp(root / "datasets/ds/vectors.jsonl");
    // serde_json's text: keys sorted, no spaces, f32 values shortest, f64 in Rust's layout.
    EXPECT_NE(
        vectors.find(
            R"({"id":999,"data":[1.1,1e-40,1.0,1e30,-0.3],"metadata":{"a":{"b":"café \"q\" \\ \n\t\u0001)"
            "\x7f"
            R"(","y":true},"z":[1,2.5,1e16,1e-7,18446744073709551615,1.2345678901234568e20]}})"),
        std::string::npos)
        << vectors.substr(0, 300);
    EXPECT_NE(vectors.find(R"({"id":992,"data":[0.1,1e-40,8.0,1e30,-0.3],"metadata":null})"),
              std::string::npos);

    BuildRequest r;
    r.root = root;
    r.datasetVersion = "ds";
    r.indexVersion = "idx";
    r.metric = Metric::Euclidean;
    r.numShards = 3;
    r.timestamp = "2026-01-01T00:00:00Z";
    ASSERT_TRUE(buildIndex(r).ok);
    expectIndexHoldsTheInput(root, "idx", input);
}

}  // namespace
}  // namespace strata::test
