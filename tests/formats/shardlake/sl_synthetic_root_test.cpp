// Damage the corpus does not cover, made on a scratch copy of corrupt/_base: unknown fields,
// escaping keys, ids repeated across shards, NaN vectors, the `fingerprint` alias and
// spec-style manifest_version 1 manifests.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>

#include <nlohmann/json.hpp>

#include "formats/builtin/builtin_formats.h"
#include "formats/common/checksums.h"
#include "formats/shardlake/shardlake_format.h"
#include "sl_test_support.h"

namespace strata {
namespace {

namespace fs = std::filesystem;
using test::describe;
using test::validateShardlake;

std::vector<std::uint8_t> readBytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

void writeBytes(const fs::path& path, const std::vector<std::uint8_t>& bytes) {
    std::ofstream(path, std::ios::binary | std::ios::trunc)
        .write(reinterpret_cast<const char*>(bytes.data()),
               static_cast<std::streamsize>(bytes.size()));
}

std::string fingerprint(const std::vector<std::uint8_t>& bytes) {
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(fnv1a64(bytes)));
    return text;
}

class SyntheticRoot : public ::testing::Test {
protected:
    void SetUp() override {
        STRATA_SKIP_WITHOUT_CORPUS();
        const fs::path base = test::slCorpusDir() / "corrupt/_base";
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
    fs::path shard(int n) const {
        char name[32];
        std::snprintf(name, sizeof name, "shards/shard-%04d.sidx", n);
        return root() / "indexes/idx-raw" / name;
    }
    // Rewrites shard n with `edit` and puts its new fingerprint in the manifest.
    template <typename Edit>
    void editShard(int n, Edit edit) const {
        std::vector<std::uint8_t> bytes = readBytes(shard(n));
        edit(bytes);
        writeBytes(shard(n), bytes);
        nlohmann::json m = manifest();
        m["shards"][static_cast<std::size_t>(n)]["sha256"] = fingerprint(bytes);
        writeManifest(m);
    }

    test::SlScratch scratch_;
};

TEST_F(SyntheticRoot, CopyOfTheBaseIsValid) {
    const auto sink = validateShardlake(root());
    EXPECT_TRUE(sink.diagnostics().empty()) << describe(sink);
}

TEST_F(SyntheticRoot, UnknownManifestFieldIsAWarning) {
    nlohmann::json m = manifest();
    m["future_field"] = 42;
    m["shards"][0]["shard_note"] = "x";
    writeManifest(m);
    const auto sink = validateShardlake(root());
    EXPECT_TRUE(sink.hasCode("SL-UNKNOWN-FIELD")) << describe(sink);
    EXPECT_EQ(sink.worstSeverity(), Severity::Warning) << describe(sink);
}

TEST_F(SyntheticRoot, KeysThatEscapeTheRootAreErrors) {
    nlohmann::json m = manifest();
    m["shards"][1]["artifact_key"] = "../outside/shard-0001.sidx";
    m["vectors_key"] = "/etc/passwd";
    m["metadata_key"] = "datasets\\ds-small\\metadata.json";
    writeManifest(m);
    const auto sink = validateShardlake(root());
    std::size_t escapes = 0;
    for (const Diagnostic& d : sink.diagnostics()) {
        escapes += d.code == "SL-KEY-ESCAPE" ? 1 : 0;
    }
    EXPECT_EQ(escapes, 3u) << describe(sink);
    EXPECT_EQ(sink.worstSeverity(), Severity::Error);
}

TEST_F(SyntheticRoot, AliasTargetThatEscapesIsAnError) {
    std::ofstream(root() / "aliases/latest.json", std::ios::trunc)
        << R"({"alias": "latest", "index_version": "../idx-raw"})";
    const auto sink = validateShardlake(root());
    EXPECT_TRUE(sink.hasCode("SL-KEY-ESCAPE")) << describe(sink);
}

TEST_F(SyntheticRoot, IdsRepeatedAcrossShardsAreErrors) {
    const std::vector<std::uint8_t> first = readBytes(shard(0));
    const std::uint64_t recordsOffset = 32 + 16 * 4;
    editShard(1, [&](std::vector<std::uint8_t>& bytes) {
        std::memcpy(bytes.data() + recordsOffset, first.data() + recordsOffset, 8);
    });
    const auto sink = validateShardlake(root());
    EXPECT_TRUE(sink.hasCode("SL-DUPLICATE-ID")) << describe(sink);
    EXPECT_EQ(sink.worstSeverity(), Severity::Error);
}

TEST_F(SyntheticRoot, NonFiniteVectorIsAnError) {
    editShard(2, [](std::vector<std::uint8_t>& bytes) {
        const std::uint32_t inf = 0x7f800000u;
        std::memcpy(bytes.data() + 32 + 64 + 8 + 4 * 3, &inf, 4);
    });
    const auto sink = validateShardlake(root());
    EXPECT_TRUE(sink.hasCode("SL-NONFINITE")) << describe(sink);
}

TEST_F(SyntheticRoot, FingerprintAliasIsAccepted) {
    nlohmann::json m = manifest();
    for (auto& entry : m["shards"]) {
        entry["fingerprint"] = entry["sha256"];
        entry.erase("sha256");
    }
    writeManifest(m);
    const auto sink = validateShardlake(root());
    EXPECT_TRUE(sink.diagnostics().empty()) << describe(sink);
}

TEST_F(SyntheticRoot, SpecStyleVersion1ManifestIsValid) {
    nlohmann::json m = manifest();
    m["manifest_version"] = 1;
    for (const char* key : {"algorithm", "shard_summary", "compression", "coarse_quantizer_key"}) {
        m.erase(key);
    }
    m["build_metadata"].erase("build_duration_secs");
    for (auto& entry : m["shards"]) {
        entry.erase("centroid");
        entry.erase("routing");
    }
    writeManifest(m);
    const auto sink = validateShardlake(root());
    EXPECT_TRUE(sink.diagnostics().empty()) << describe(sink);
}

TEST_F(SyntheticRoot, ManifestOpenedAloneValidatesItsIndex) {
    nlohmann::json m = manifest();
    m["total_vector_count"] = 1;
    writeManifest(m);
    const auto document = builtinFormats().open(manifestPath());
    ASSERT_EQ(document->format, kShardlakeFormat);
    EXPECT_EQ(document->root->kind(), "shardlake.manifest");
    ASSERT_TRUE(document->makeValidator);
    CollectingSink sink;
    document->makeValidator()->run(sink, {});
    EXPECT_TRUE(sink.hasCode("SL-TOTAL")) << describe(sink);
}

TEST_F(SyntheticRoot, SymlinkOutOfTheRootIsNotFollowed) {
    const fs::path outside = scratch_.path() / "outside.sidx";
    fs::copy_file(shard(1), outside);
    fs::remove(shard(1));
    fs::create_symlink(outside, shard(1));
    const auto sink = validateShardlake(root());
    EXPECT_TRUE(sink.hasCode("SL-MISSING")) << describe(sink);
}

TEST_F(SyntheticRoot, CountsOverflowing64BitsAreErrors) {
    nlohmann::json m = manifest();
    m["shards"][0]["vector_count"] = ~std::uint64_t{0};
    writeManifest(m);
    const auto sink = validateShardlake(root());
    EXPECT_TRUE(sink.hasCode("SL-TOTAL")) << describe(sink);
    EXPECT_TRUE(sink.hasCode("SL-COUNT")) << describe(sink);
}

TEST_F(SyntheticRoot, OrphanShardIsAWarning) {
    fs::copy_file(shard(0), root() / "indexes/idx-raw/shards/shard-0009.sidx");
    const auto sink = validateShardlake(root());
    EXPECT_TRUE(sink.hasCode("SL-ORPHAN")) << describe(sink);
    EXPECT_EQ(sink.worstSeverity(), Severity::Warning);
}

}  // namespace
}  // namespace strata
