// Rules of the format document the corpus has no case for: the manifest's build_metadata
// (the reference cannot read a manifest without it), shard ids as zero-based indexes of the
// coarse quantizer's clusters, and one entry per non-empty shard.
#include <gtest/gtest.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "sl_test_support.h"

namespace strata {
namespace {

namespace fs = std::filesystem;
using test::describe;
using test::validateShardlake;

class SpecRules : public ::testing::Test {
protected:
    void SetUp() override {
        const fs::path base = test::slCorpusDir() / "corrupt/_base";
        if (!fs::exists(base)) {
            GTEST_SKIP() << "Shardlake corpus not found (STRATA_CORPUS_DIR)";
        }
        fs::copy(base, root(), fs::copy_options::recursive);
        for (const auto& entry : fs::recursive_directory_iterator(root())) {
            fs::permissions(entry.path(), fs::perms::owner_write, fs::perm_options::add);
        }
    }
    fs::path root() const { return scratch_.path() / "root"; }
    fs::path manifestPath() const { return root() / "indexes/idx-raw/manifest.json"; }
    nlohmann::json manifest() const {
        std::ifstream in(manifestPath());
        return nlohmann::json::parse(in);
    }
    void writeManifest(const nlohmann::json& m) const {
        std::ofstream(manifestPath(), std::ios::trunc) << m.dump(2);
    }
    std::size_t count(const test::Findings& f, std::string_view code, Severity severity) const {
        std::size_t n = 0;
        for (const Diagnostic& d : f.diagnostics()) {
            n += d.code == code && d.severity == severity ? 1 : 0;
        }
        return n;
    }

    test::SlScratch scratch_;
};

TEST_F(SpecRules, TheBaseHasNoneOfThese) {
    const test::Findings f = validateShardlake(root());
    EXPECT_TRUE(f.diagnostics().empty()) << describe(f);
}

TEST_F(SpecRules, BuildMetadataIsRequired) {
    nlohmann::json m = manifest();
    m.erase("build_metadata");
    writeManifest(m);
    test::Findings f = validateShardlake(root());
    EXPECT_EQ(count(f, "SL-MANIFEST", Severity::Error), 1U) << describe(f);

    m = manifest();
    m["build_metadata"] = {
        {"built_at", "last tuesday"}, {"builder_version", "0.1.0"}, {"num_kmeans_iters", "20"}};
    writeManifest(m);
    f = validateShardlake(root());
    // built_at not RFC 3339, num_kmeans_iters not an integer, nprobe_default missing.
    EXPECT_EQ(count(f, "SL-MANIFEST", Severity::Error), 3U) << describe(f);

    for (const char* builtAt :
         {"2026-03-10T17:44:00Z", "2026-11-22T20:02:28.652233275Z", "2026-03-10t17:44:00+02:00"}) {
        m["build_metadata"] = {{"built_at", builtAt},
                               {"builder_version", "0.1.0"},
                               {"num_kmeans_iters", 20},
                               {"nprobe_default", 2}};
        writeManifest(m);
        f = validateShardlake(root());
        EXPECT_EQ(count(f, "SL-MANIFEST", Severity::Error), 0U) << builtAt << "\n" << describe(f);
    }
}

TEST_F(SpecRules, AShardIdPastTheQuantizersClustersIsNeverSearched) {
    nlohmann::json m = manifest();
    const std::size_t last = m["shards"].size() - 1;
    m["shards"][last]["shard_id"] = 7;
    writeManifest(m);
    const test::Findings f = validateShardlake(root());
    EXPECT_EQ(count(f, "SL-SHARD-RANGE", Severity::Error), 1U) << describe(f);
}

TEST_F(SpecRules, AnEmptyShardEntryIsAWarning) {
    nlohmann::json m = manifest();
    m["shards"][0]["vector_count"] = 0;
    writeManifest(m);
    const test::Findings f = validateShardlake(root());
    EXPECT_EQ(count(f, "SL-EMPTY-SHARD", Severity::Warning), 1U) << describe(f);
}

}  // namespace
}  // namespace strata
