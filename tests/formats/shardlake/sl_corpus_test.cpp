// The Shardlake corpus: the valid root and each of its files validate without errors, the
// manifests give the facts of root_summary.json, and every damaged root gets its verdict.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "formats/builtin/builtin_formats.h"
#include "formats/shardlake/shardlake_format.h"
#include "formats/shardlake/shardlake_json.h"
#include "formats/shardlake/shardlake_manifest.h"
#include "sl_test_support.h"

namespace strata {
namespace {

namespace fs = std::filesystem;
using shardlake::ValidationScope;
using test::describe;
using test::slCorpusDir;
using test::validateShardlake;

nlohmann::json readJson(const fs::path& path) {
    std::ifstream in(path);
    return nlohmann::json::parse(in);
}

class ShardlakeCorpus : public ::testing::Test {
protected:
    void SetUp() override {
        STRATA_SKIP_WITHOUT_CORPUS();
        corpus_ = slCorpusDir();
    }
    fs::path corpus_;
};

TEST_F(ShardlakeCorpus, RootValidatesWithoutFindings) {
    const test::Findings sink = validateShardlake(corpus_ / "root");
    EXPECT_TRUE(sink.diagnostics().empty()) << describe(sink);
}

TEST_F(ShardlakeCorpus, EveryIndexDatasetAndAliasValidatesAlone) {
    const fs::path root = corpus_ / "root";
    for (const char* index : {"idx-cosine", "idx-l2", "idx-ip", "idx-pq"}) {
        const test::Findings sink = validateShardlake(root, {ValidationScope::Index, index, {}});
        EXPECT_EQ(sink.countOf(Severity::Error), 0u) << index << "\n" << describe(sink);
    }
    EXPECT_EQ(validateShardlake(root, {ValidationScope::Dataset, "ds-v1", {}}).diagnostics().size(),
              0u);
    for (const char* alias : {"latest", "l2", "pq"}) {
        EXPECT_EQ(validateShardlake(root, {ValidationScope::Alias, alias, {}}).diagnostics().size(),
                  0u)
            << alias;
    }
}

// Every file of the valid root opened on its own through the registry: a Shardlake document
// whose validator (when it has one) finds no error.
TEST_F(ShardlakeCorpus, EveryValidFileOpensAndValidates) {
    std::size_t opened = 0;
    for (const auto& entry : fs::recursive_directory_iterator(corpus_ / "root")) {
        if (!entry.is_regular_file() || entry.path().extension() == ".jsonl" ||
            entry.path().filename() == "metadata.json") {
            continue;
        }
        SCOPED_TRACE(entry.path().string());
        const auto document = builtinFormats().open(entry.path());
        ASSERT_NE(document, nullptr);
        EXPECT_EQ(document->format, kShardlakeFormat);
        ASSERT_NE(document->root, nullptr);
        EXPECT_NE(document->root->status(), Status::Error);
        ASSERT_FALSE(document->sources.empty());
        if (document->makeValidator) {
            CollectingSink sink;
            document->makeValidator()->run(sink, {});
            EXPECT_EQ(sink.countOf(Severity::Error), 0u) << describe(sink);
        }
        ++opened;
    }
    EXPECT_GE(opened, 25u);
}

TEST_F(ShardlakeCorpus, ManifestsMatchRootSummary) {
    const nlohmann::json summary = readJson(corpus_ / "expected/root_summary.json");
    const auto store = std::make_shared<shardlake::Store>(corpus_ / "root");
    for (const auto& [version, facts] : summary.items()) {
        SCOPED_TRACE(version);
        const shardlake::JsonDoc doc =
            shardlake::loadJson(store->source("indexes/" + version + "/manifest.json"));
        ASSERT_TRUE(doc.parsed);
        std::vector<Diagnostic> found;
        const shardlake::IndexManifest m = shardlake::readIndexManifest(doc, found);
        EXPECT_TRUE(found.empty());
        EXPECT_EQ(m.dims, facts["dims"].get<std::uint64_t>());
        EXPECT_EQ(m.metric, facts["metric"].get<std::string>());
        EXPECT_EQ(m.totalVectorCount, facts["total"].get<std::uint64_t>());
        EXPECT_EQ(m.compression.codec, facts["compression"]["codec"].get<std::string>());
        EXPECT_EQ(m.compression.enabled, facts["compression"]["enabled"].get<bool>());
        EXPECT_EQ(m.algorithm, facts["algorithm"]["algorithm"].get<std::string>());
        ASSERT_EQ(m.shards.size(), facts["shards"].size());
        for (std::size_t i = 0; i < m.shards.size(); ++i) {
            const auto& expected = facts["shards"][i];
            EXPECT_EQ(m.shards[i].shardId, expected["shard_id"].get<std::uint64_t>());
            EXPECT_EQ(m.shards[i].artifactKey, expected["key"].get<std::string>());
            EXPECT_EQ(m.shards[i].vectorCount, expected["vector_count"].get<std::uint64_t>());
            EXPECT_EQ(m.shards[i].fingerprint, expected["fingerprint"].get<std::string>());
            EXPECT_EQ(m.shards[i].fingerprintField, "sha256");
            EXPECT_EQ(fs::file_size(store->pathOf(m.shards[i].artifactKey)),
                      expected["bytes"].get<std::uint64_t>());
        }
    }
}

struct Verdict {
    // Codes that must appear (with at least this severity).
    std::vector<std::string> codes;
    Severity worst = Severity::Error;
};

// Strata's verdict for each damaged root; an empty code list means "valid".
const std::map<std::string, Verdict>& verdicts() {
    static const std::map<std::string, Verdict> table = {
        {"ok_raw", {{}, Severity::Info}},
        {"ok_pq", {{}, Severity::Info}},
        {"manifest_version_1", {{}, Severity::Info}},
        {"shard_bad_magic", {{"SL-FINGERPRINT", "SL-MAGIC"}}},
        {"shard_truncated", {{"SL-FINGERPRINT", "SL-TRUNCATED"}}},
        {"shard_truncated_fp_fixed", {{"SL-TRUNCATED"}}},
        {"shard_truncated_header", {{"SL-TRUNCATED"}}},
        {"shard_trailing_bytes_fp_fixed", {{"SL-TRAILING"}}},
        {"shard_format_v2_in_raw_index", {{"SL-VERSION"}}},
        {"shard_format_v3", {{"SL-VERSION"}}},
        {"shard_header_shard_id_wrong", {{"SL-SHARD-ID"}}},
        {"shard_header_dims_8", {{"SL-DIMS", "SL-TRAILING"}}},
        {"shard_header_count_minus1", {{"SL-COUNT", "SL-TRAILING"}}},
        {"shard_header_centroid_count_0", {{"SL-CENTROIDS"}}},
        {"shard_centroid_value_changed", {{"SL-CENTROID-VALUE"}}},
        {"shard_vector_value_changed_fp_fixed", {{"SL-VECTOR-MISMATCH"}, Severity::Warning}},
        {"wrong_fingerprint", {{"SL-FINGERPRINT"}}},
        {"fingerprint_uppercase", {{"SL-FINGERPRINT"}}},
        {"fingerprint_real_sha256", {{"SL-FINGERPRINT"}}},
        {"manifest_dims_mismatch", {{"SL-DIMS"}}},
        {"manifest_dims_zero", {{"SL-DIMS"}}},
        {"manifest_vector_count_mismatch", {{"SL-COUNT"}}},
        {"manifest_total_count_mismatch", {{"SL-TOTAL"}}},
        {"manifest_centroid_short", {{"SL-CENTROID-VALUE"}}},
        {"manifest_centroid_changed", {{"SL-CENTROID-VALUE"}}},
        {"manifest_version_5", {{"SL-MANIFEST-VERSION"}}},
        {"manifest_index_version_mismatch", {{"SL-NAME"}}},
        {"manifest_missing_field_dims", {{"SL-MANIFEST"}}},
        {"manifest_no_shards", {{"SL-NO-SHARDS"}}},
        {"manifest_duplicate_shard", {{"SL-DUPLICATE-SHARD", "SL-SUMMARY"}}},
        {"manifest_unknown_codec", {{"SL-COMPRESSION"}}},
        {"manifest_unknown_field", {{"SL-UNKNOWN-FIELD"}, Severity::Warning}},
        {"manifest_bad_json", {{"SL-JSON"}}},
        {"manifest_missing", {{"SL-MISSING"}}},
        {"missing_vectors_jsonl", {{"SL-MISSING"}}},
        {"dataset_dims_mismatch", {{"SL-DIMS"}}},
        {"dataset_bad_json", {{"SL-JSON"}}},
        {"cq_wrong_length", {{"SL-TRAILING"}}},
        {"cq_truncated", {{"SL-TRUNCATED"}}},
        {"cq_bad_magic", {{"SL-MAGIC"}}},
        {"cq_centroid_changed", {{"SL-CENTROID-VALUE"}}},
        {"cq_missing", {{"SL-MISSING"}}},
        {"alias_to_missing_index", {{"SL-ALIAS"}}},
        {"alias_bad_json", {{"SL-JSON"}}},
        {"alias_missing", {{"SL-ALIAS"}, Severity::Warning}},
        {"alias_name_mismatch", {{"SL-ALIAS"}, Severity::Warning}},
        {"pq_codebook_garbage", {{"SL-MAGIC"}}},
        {"pq_code_out_of_range", {{"SL-PQ-CODE"}}},
        {"pq_m_mismatch", {{"SL-PQ"}}},
        {"pq_k_zero_in_shard", {{"SL-PQ"}}},
        {"pq_shard_v1_in_pq_index", {{"SL-VERSION"}}},
        {"pq_codec_disabled", {{"SL-COMPRESSION", "SL-VERSION"}}},
        {"pq_codebook_key_absent", {{"SL-COMPRESSION"}}},
    };
    return table;
}

TEST_F(ShardlakeCorpus, EveryDamagedRootGetsItsVerdict) {
    const nlohmann::json cases = readJson(corpus_ / "corrupt/cases.json");
    ASSERT_FALSE(cases.empty());
    for (const auto& entry : cases) {
        const std::string id = entry["id"].get<std::string>();
        SCOPED_TRACE(id);
        const auto it = verdicts().find(id);
        ASSERT_NE(it, verdicts().end()) << "no verdict for " << id;
        const test::Findings sink = validateShardlake(corpus_ / "corrupt" / id);
        if (std::getenv("STRATA_SL_VERBOSE") != nullptr) {
            std::printf("== %s\n%s", id.c_str(), describe(sink).c_str());
        }
        const Verdict& verdict = it->second;
        if (verdict.codes.empty()) {
            EXPECT_TRUE(sink.diagnostics().empty()) << describe(sink);
            continue;
        }
        EXPECT_EQ(sink.worstSeverity(), verdict.worst) << describe(sink);
        for (const std::string& code : verdict.codes) {
            EXPECT_TRUE(sink.hasCode(code)) << code << " missing\n" << describe(sink);
        }
        for (const Diagnostic& d : sink.diagnostics()) {
            if (d.severity != Severity::Info) {
                EXPECT_FALSE(d.fileName().empty()) << d.code << ": " << d.message;
            }
        }
    }
}

// The reference's exit code agrees with Strata wherever the README does not say otherwise.
TEST_F(ShardlakeCorpus, ReferenceFailuresAreStrataErrors) {
    const nlohmann::json cases = readJson(corpus_ / "corrupt/cases.json");
    for (const auto& entry : cases) {
        const std::string id = entry["id"].get<std::string>();
        const bool referenceFails =
            entry["validate"]["exit_code"].get<int>() != 0 ||
            (entry.contains("load_alias") && entry["load_alias"]["exit_code"].get<int>() != 0);
        if (!referenceFails || id == "alias_missing") {
            continue;  // alias_missing: a warning by Strata's choice
        }
        const test::Findings sink = validateShardlake(corpus_ / "corrupt" / id);
        EXPECT_EQ(sink.worstSeverity(), Severity::Error) << id << "\n" << describe(sink);
    }
}

TEST_F(ShardlakeCorpus, DiagnosticsPointAtTheBytes) {
    const test::Findings sink =
        validateShardlake(corpus_ / "corrupt/shard_trailing_bytes_fp_fixed");
    bool found = false;
    for (const Diagnostic& d : sink.diagnostics()) {
        if (d.code == "SL-TRAILING") {
            found = true;
            ASSERT_FALSE(d.regions.empty());
            const std::uint64_t size = d.regions[0].source->size();
            EXPECT_EQ(d.regions[0].length, 4u);
            EXPECT_EQ(d.regions[0].offset, size - 4);
            EXPECT_NE(d.fileName().find("shard-0000.sidx"), std::string::npos);
        }
    }
    EXPECT_TRUE(found);
}

}  // namespace
}  // namespace strata

namespace strata {
namespace {

// A large generated root named by STRATA_SL_LARGE_ROOT (for manual profiling): validates
// without findings. Skipped when the variable is not set.
TEST(ShardlakeLargeRoot, ValidatesWithoutFindings) {
    const char* path = std::getenv("STRATA_SL_LARGE_ROOT");
    if (path == nullptr) {
        GTEST_SKIP() << "STRATA_SL_LARGE_ROOT not set";
    }
    const test::Findings sink = test::validateShardlake(path);
    EXPECT_TRUE(sink.diagnostics().empty()) << test::describe(sink);
}

}  // namespace
}  // namespace strata
