// The Shardlake repair (formats/shardlake/shardlake_repair.h): every damaged corpus root with
// recoverable content comes back as a root that validates, holds only records the damaged root
// held, answers k-NN queries over its intact records as the undamaged root does, and reports
// exactly the damage; random damage to generated roots keeps exactly the intact records; dry
// runs write nothing; an existing output is never replaced; fingerprints are recomputed for
// bytes nothing vouches for only when asked.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "formats/builtin/format_repair.h"
#include "formats/common/le_reader.h"
#include "formats/shardlake/shardlake_builder.h"
#include "formats/shardlake/shardlake_dataset.h"
#include "formats/shardlake/shardlake_diff.h"
#include "formats/shardlake/shardlake_format.h"
#include "formats/shardlake/shardlake_repair.h"
#include "formats/shardlake/shardlake_search.h"
#include "sl_test_support.h"

namespace strata {
namespace {

namespace fs = std::filesystem;
using namespace shardlake;
using test::describe;
using test::SlScratch;
using test::validateShardlake;

// id → the record's bytes after the id (f32 values or PQ codes).
using Records = std::map<std::uint64_t, std::string>;

// Every record of an index's shards that a header reader accepts, read from the files the
// manifest lists (nothing when the index cannot be loaded).
std::optional<Records> indexRecords(const fs::path& root, const std::string& version) {
    Store store(root);
    const IndexLoad load = loadIndex(store, version);
    if (!load.index) {
        return std::nullopt;
    }
    Records records;
    for (const LoadedIndex::Shard& shard : load.index->shards) {
        const ShardLayout& l = shard.layout;
        for (std::uint64_t i = 0; i < l.recordsPresent(); ++i) {
            const ByteView view = shard.source->view(l.recordOffset(i), l.recordSize);
            const std::uint64_t id = decodeLe<std::uint64_t>(view.data());
            records[id] =
                std::string(reinterpret_cast<const char*>(view.data()) + 8, view.size() - 8);
        }
    }
    return records;
}

std::vector<std::string> indexVersionsOf(const fs::path& root) {
    std::vector<std::string> out;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(root / "indexes", ec)) {
        out.push_back(entry.path().filename().string());
    }
    std::sort(out.begin(), out.end());
    return out;
}

// Hits of a full search (every shard, every record), keeping only the ids in `keep`.
std::vector<Hit> filteredSearch(const fs::path& root, const std::string& version,
                                std::span<const float> query, const std::set<std::uint64_t>& keep,
                                std::size_t k) {
    Store store(root);
    const IndexLoad load = loadIndex(store, version);
    EXPECT_TRUE(load.index.has_value()) << load.error;
    if (!load.index) {
        return {};
    }
    SearchOptions options;
    options.k = 100000;
    options.threads = 1;
    const SearchResult result = searchIndex(*load.index, query, options);
    EXPECT_TRUE(result.error.empty()) << result.error;
    std::vector<Hit> hits;
    for (const Hit& h : result.hits) {
        if (keep.contains(h.id) && hits.size() < k) {
            hits.push_back(h);
        }
    }
    return hits;
}

std::vector<std::vector<float>> queriesFor(const fs::path& root, std::uint32_t dims) {
    std::vector<std::vector<float>> queries;
    const ByteSourcePtr source = openMappedFile(root / "datasets/ds-small/vectors.jsonl");
    std::string error;
    const std::vector<DatasetVector> vectors = readDatasetVectors(*source, &error);
    for (std::size_t i = 0; i < vectors.size() && queries.size() < 4; i += 73) {
        queries.push_back(vectors[i].values);
    }
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> value(-1.0f, 1.0f);
    for (int q = 0; q < 3; ++q) {
        std::vector<float> v(dims);
        for (float& x : v) {
            x = value(rng);
        }
        queries.push_back(v);
    }
    return queries;
}

struct Expected {
    Expected(std::uint64_t r = 600, std::uint64_t l = 0, std::string t = {}, std::string f = {},
             std::uint64_t o = 0, std::uint64_t n = 0)
        : recovered(r), lost(l), text(std::move(t)), file(std::move(f)), offset(o), length(n) {}
    std::uint64_t recovered = 600;
    std::uint64_t lost = 0;
    // A loss: a part of its text, the end of its file name, its bytes (none: the repair is
    // complete, the output holding what the input held).
    std::string text;
    std::string file;
    std::uint64_t offset = 0;
    std::uint64_t length = 0;
};

// What each damaged corpus root gives: the vectors kept and lost, and a loss it lists. Every
// case whose output differs from its input lists what differs (the manifest's values, the files
// rewritten); only the valid ones and those whose damage is a warning come back complete.
const std::map<std::string, Expected>& expectations() {
    static const std::map<std::string, Expected> table = {
        {"ok_raw", {}},
        {"ok_pq", {}},
        {"manifest_version_1", {}},
        {"alias_missing", {}},
        {"alias_name_mismatch", {}},
        {"shard_vector_value_changed_fp_fixed", {}},
        {"alias_bad_json",
         {600, 0,
          "aliases: the output's files differ from the input's: "
          "latest.json (written with other content)",
          "aliases/latest.json", 0, 17}},
        {"alias_to_missing_index", {600, 0, "alias ghost removed", "aliases/ghost.json", 0, 56}},
        {"cq_missing", {600, 0, "coarse_quantizer.cq (only in the output)"}},
        {"dataset_bad_json", {600, 0, "info.json (written with other content)"}},
        {"fingerprint_uppercase",
         {600, 0, "$.shards[0].sha256: \"712D491D23C90B02\" → \"712d491d23c90b02\"",
          "idx-raw/manifest.json"}},
        {"manifest_bad_json",
         {600, 0, "manifest.json is written without `build_metadata.built_at`",
          "idx-raw/manifest.json"}},
        {"manifest_centroid_changed",
         {600, 0,
          "1 value other than the one read: $.shards[0].centroid[0]: 0.4017851 → "
          "-0.5982149"}},
        {"manifest_missing", {300, 300, "distance metric", "", 0, 0}},
        {"manifest_version_5", {600, 0, "$.manifest_version: 5 → 4"}},
        {"missing_vectors_jsonl", {600, 0, "vectors.jsonl (only in the output)"}},
        {"pq_code_out_of_range",
         {599, 1, "record 0 holds a PQ code not below pq_k 16", "idx-pq/shards/shard-0000.sidx",
          104, 12}},
        {"pq_codebook_garbage",
         {300, 300, "PQ codebook (indexes/idx-pq/pq_codebook.bin) is unreadable", "", 0, 0}},
        {"shard_bad_magic", {600, 0, "shards/shard-0000.sidx (written with other content)"}},
        {"shard_truncated",
         {499, 101, "records 12 to 112 (101 vectors) are lost", "idx-raw/shards/shard-0000.sidx",
          960, 40}},
        {"shard_truncated_fp_fixed",
         {499, 101, "records 12 to 112 (101 vectors) are lost", "idx-raw/shards/shard-0000.sidx",
          960, 40}},
        {"shard_truncated_header",
         {487, 113, "shorter than a shard header", "idx-raw/shards/shard-0000.sidx", 0, 20}},
        {"wrong_fingerprint",
         {600, 0, "$.shards[0].sha256: \"012d491d23c90b02\" → \"712d491d23c90b02\""}},
    };
    return table;
}

// The output of a repair that is not complete differs (some mend, some loss): every case but
// the complete ones of the table above.
bool expectedComplete(const std::string& name) {
    const auto found = expectations().find(name);
    return found != expectations().end() && found->second.text.empty();
}

// Whether Strata's comparison finds the same content in two roots.
bool sameContent(const fs::path& a, const fs::path& b) {
    auto differ =
        makeShardlakeDiffer(std::make_shared<const Store>(a), std::make_shared<const Store>(b));
    struct Sink final : DiffSink {
        bool add(Difference) override { return true; }
    } sink;
    DiffOptions options;
    options.answerQueries = 0;
    differ->run(sink, options);
    return differ->summary().contentEqual();
}

// Each kind of damage the corpus holds and the action its repair must report ("" = none at all).
const std::map<std::string, std::string>& expectedActions() {
    static const std::map<std::string, std::string> table = {
        {"ok_raw", ""},
        {"ok_pq", ""},
        {"manifest_version_1", ""},
        {"alias_missing", ""},
        {"alias_bad_json", "repointed to idx-pq, the newest of the 2 indexes"},
        {"alias_name_mismatch", ""},
        {"cq_bad_magic", "coarse quantizer indexes/idx-raw/coarse_quantizer.cq is unreadable"},
        {"cq_centroid_changed", "coarse quantizer rewritten with the centroids of the 3 shards"},
        {"cq_missing", "coarse quantizer indexes/idx-raw/coarse_quantizer.cq is missing"},
        {"cq_truncated", "coarse quantizer indexes/idx-raw/coarse_quantizer.cq is unreadable"},
        {"cq_wrong_length", "coarse quantizer indexes/idx-raw/coarse_quantizer.cq is unreadable"},
        {"dataset_bad_json", "datasets/ds-small/info.json rebuilt from the dataset's 300 vectors"},
        {"dataset_dims_mismatch", "dims 8 → 16"},
        {"fingerprint_real_sha256", "each of its 113 records kept equals the dataset's vector"},
        {"fingerprint_uppercase", "fingerprint 712D491D23C90B02 written in lower case"},
        {"manifest_bad_json", "10 fields were read member by member"},
        {"manifest_centroid_changed", "centroid rewritten from the shard file and the quantizer"},
        {"manifest_centroid_short", "centroid rewritten from the shard file and the quantizer"},
        {"manifest_dims_mismatch", "dims 8 → 16"},
        {"manifest_dims_zero", "dims 0 → 16"},
        {"manifest_missing_field_dims", "dims (absent) → 16"},
        {"manifest_duplicate_shard", "a second time; the duplicate entry is dropped"},
        {"manifest_index_version_mismatch", "index_version \"idx-other\" → \"idx-raw\""},
        {"manifest_no_shards", "added to the manifest as shard 2"},
        {"manifest_total_count_mismatch", "total_vector_count 305 → 300"},
        {"manifest_unknown_codec", "\"codec\":\"none\"} (the shards hold raw vectors)"},
        {"manifest_vector_count_mismatch", "vector_count 114 → 113"},
        {"manifest_version_5", "manifest_version 5 → 4"},
        {"missing_vectors_jsonl", "vectors.jsonl is missing: rebuilt from the 300 records"},
        {"pq_codebook_key_absent", "\"codebook_key\":\"indexes/idx-pq/pq_codebook.bin\""},
        {"pq_codec_disabled", "\"enabled\":true"},
        {"pq_k_zero_in_shard", "pq_k 0 → 16"},
        {"pq_m_mismatch", "\"pq_num_subspaces\":4"},
        {"pq_shard_v1_in_pq_index", "format_version 1 → 2"},
        {"shard_bad_magic", "magic restored to SLKIDX"},
        {"shard_centroid_value_changed", "centroid rewritten (it differed"},
        {"shard_format_v2_in_raw_index", "format_version 2 → 1"},
        {"shard_format_v3", "format_version 3 → 1"},
        {"shard_header_centroid_count_0", "centroid_count 0 → 1"},
        {"shard_header_count_minus1", "vector_count 112 → 113"},
        {"shard_header_dims_8", "dims 8 → 16"},
        {"shard_header_shard_id_wrong", "shard_id 7 → 0"},
        {"shard_trailing_bytes_fp_fixed", "4 bytes after the last record dropped"},
        {"shard_vector_value_changed_fp_fixed", "kept although 1 record differs"},
        {"wrong_fingerprint", "012d491d23c90b02 does not match the file's 712d491d23c90b02"},
        {"shard_truncated", "records kept equals the dataset's vector"},
        {"shard_truncated_header", "shards renumbered so their ids run from 0"},
        {"manifest_missing", "repointed to idx-pq"},
        {"shard_truncated_fp_fixed",
         "rewritten; its fingerprint 78d374a14f82ed0a matched the file"},
        {"pq_code_out_of_range", "rewritten; its fingerprint b6f26d6750002cc0 matched the file"},
        {"alias_to_missing_index", ""},
        {"pq_codebook_garbage", ""},
    };
    return table;
}

// Cases whose damaged shard-0000 of idx-raw (or idx-pq) comes back as the undamaged file.
const std::map<std::string, std::string>& restoredShards() {
    static const std::map<std::string, std::string> table = {
        {"shard_bad_magic", "idx-raw"},
        {"shard_centroid_value_changed", "idx-raw"},
        {"shard_format_v2_in_raw_index", "idx-raw"},
        {"shard_format_v3", "idx-raw"},
        {"shard_header_centroid_count_0", "idx-raw"},
        {"shard_header_count_minus1", "idx-raw"},
        {"shard_header_dims_8", "idx-raw"},
        {"shard_header_shard_id_wrong", "idx-raw"},
        {"shard_trailing_bytes_fp_fixed", "idx-raw"},
        {"pq_k_zero_in_shard", "idx-pq"},
        {"pq_shard_v1_in_pq_index", "idx-pq"},
    };
    return table;
}

std::string fileBytes(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

class ShardlakeRepairCorpus : public ::testing::Test {
protected:
    void SetUp() override {
        STRATA_SKIP_WITHOUT_CORPUS();
        corrupt_ = test::slCorpusDir() / "corrupt";
    }
    fs::path corrupt_;
    SlScratch scratch_;
};

// The output validates, but for required manifest fields left out because they could not be
// read (each listed as a loss, which readers need set before they load that manifest).
void expectValidButForAbsentFields(const fs::path& out, const RepairReport& report) {
    std::string losses;
    for (const RepairStep& l : report.losses) {
        losses += l.description + "\n";
    }
    const test::Findings findings = validateShardlake(out);
    for (const Diagnostic& d : findings.diagnostics()) {
        if (d.severity != Severity::Error) {
            continue;
        }
        const std::size_t tick = d.message.find('`');
        const std::string field =
            tick == std::string::npos ? d.message : d.message.substr(tick + 1);
        EXPECT_TRUE(d.message.starts_with("missing field `") &&
                    losses.find(field + ": it could not be read") != std::string::npos)
            << d.code << " " << d.message << "\n"
            << losses;
    }
}

TEST_F(ShardlakeRepairCorpus, EveryDamagedRootWithContentRepairsToAValidRoot) {
    const fs::path base = corrupt_ / "_base";
    std::size_t repaired = 0;
    for (const auto& entry : fs::directory_iterator(corrupt_)) {
        const std::string name = entry.path().filename().string();
        if (!entry.is_directory() || name.starts_with("_")) {
            continue;
        }
        SCOPED_TRACE(name);
        const fs::path out = scratch_.path() / name;
        RepairReport report;
        ASSERT_NO_THROW(report = repairPath(entry.path(), out)) << name;
        ++repaired;
        const auto found = expectations().find(name);
        const Expected expected =
            found == expectations().end() ? Expected{600, 0, "?"} : found->second;
        std::string losses;
        for (const RepairStep& s : report.losses) {
            losses += s.description + " [" + s.bytes.file + " " + std::to_string(s.bytes.offset) +
                      "+" + std::to_string(s.bytes.length) + "]\n";
        }
        EXPECT_TRUE(report.written);
        EXPECT_EQ(report.itemName, "vectors");
        EXPECT_EQ(report.recovered, expected.recovered) << losses;
        EXPECT_EQ(report.lostKnown, expected.lost) << losses;
        // Complete exactly when Strata's comparison of input and output finds the same content.
        EXPECT_EQ(report.complete(), expectedComplete(name)) << losses;
        EXPECT_EQ(report.complete(), sameContent(entry.path(), out)) << losses;
        if (!expected.text.empty() && expected.text != "?") {
            const auto loss =
                std::find_if(report.losses.begin(), report.losses.end(), [&](const RepairStep& l) {
                    return l.description.find(expected.text) != std::string::npos;
                });
            ASSERT_NE(loss, report.losses.end()) << expected.text << "\n" << losses;
            if (!expected.file.empty()) {
                EXPECT_TRUE(loss->bytes.file.ends_with(expected.file)) << losses;
                if (expected.length > 0) {
                    EXPECT_EQ(loss->bytes.offset, expected.offset) << losses;
                    EXPECT_EQ(loss->bytes.length, expected.length) << losses;
                }
            }
        }
        std::string actions;
        for (const RepairStep& s : report.actions) {
            actions += s.description + "\n";
        }
        const auto action = expectedActions().find(name);
        ASSERT_NE(action, expectedActions().end()) << "a case without an expectation";
        if (action->second.empty()) {
            EXPECT_TRUE(report.actions.empty()) << actions;
        } else {
            EXPECT_NE(actions.find(action->second), std::string::npos) << actions;
        }
        if (const auto restored = restoredShards().find(name); restored != restoredShards().end()) {
            const std::string shard = "indexes/" + restored->second + "/shards/shard-0000.sidx";
            EXPECT_EQ(fileBytes(out / shard), fileBytes(base / shard)) << shard;
        }
        expectValidButForAbsentFields(out, report);

        // Only records the damaged root held; k-NN over the intact ones as the undamaged root.
        std::uint64_t total = 0;
        for (const std::string& version : indexVersionsOf(out)) {
            SCOPED_TRACE(version);
            const auto outRecords = indexRecords(out, version);
            const auto baseRecords = indexRecords(base, version);
            const auto inRecords = indexRecords(entry.path(), version);
            ASSERT_TRUE(outRecords && baseRecords);
            std::set<std::uint64_t> intact;
            for (const auto& [id, bytes] : *outRecords) {
                const auto b = baseRecords->find(id);
                const bool fromBase = b != baseRecords->end() && b->second == bytes;
                const bool fromInput =
                    inRecords && inRecords->contains(id) && inRecords->at(id) == bytes;
                EXPECT_TRUE(fromBase || fromInput) << "record " << id << " was in no input";
                if (fromBase) {
                    intact.insert(id);
                }
            }
            total += outRecords->size();
            const std::size_t changed = outRecords->size() - intact.size();
            EXPECT_EQ(changed, name == "shard_vector_value_changed_fp_fixed" && version == "idx-raw"
                                   ? 1u
                                   : 0u);
            for (const std::vector<float>& q : queriesFor(base, 16)) {
                const auto got = filteredSearch(out, version, q, intact, 10);
                const auto want = filteredSearch(base, version, q, intact, 10);
                ASSERT_EQ(got.size(), want.size());
                for (std::size_t i = 0; i < got.size(); ++i) {
                    EXPECT_EQ(got[i].id, want[i].id) << "hit " << i;
                    EXPECT_EQ(std::memcmp(&got[i].score, &want[i].score, 4), 0) << "hit " << i;
                }
            }
        }
        EXPECT_EQ(total, report.recovered);
    }
    EXPECT_GE(repaired, 50u);
}

TEST_F(ShardlakeRepairCorpus, IntactRootIsCopiedByteForByte) {
    const fs::path out = scratch_.path() / "ok";
    const RepairReport report = repairShardlakeRoot(corrupt_ / "ok_raw", out);
    EXPECT_TRUE(report.complete());
    EXPECT_TRUE(report.actions.empty());
    std::size_t files = 0;
    for (const auto& entry : fs::recursive_directory_iterator(corrupt_ / "ok_raw")) {
        if (entry.is_regular_file()) {
            const fs::path copy = out / fs::relative(entry.path(), corrupt_ / "ok_raw");
            std::ifstream a(entry.path(), std::ios::binary);
            std::ifstream b(copy, std::ios::binary);
            std::stringstream sa;
            std::stringstream sb;
            sa << a.rdbuf();
            sb << b.rdbuf();
            EXPECT_EQ(sa.str(), sb.str()) << copy;
            ++files;
        }
    }
    EXPECT_GT(files, 10u);
}

std::vector<std::string> sortedLines(const fs::path& file) {
    std::ifstream in(file);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) {
        lines.push_back(line);
    }
    std::sort(lines.begin(), lines.end());
    return lines;
}

TEST_F(ShardlakeRepairCorpus, MissingVectorsAreRebuiltFromARawIndexThatHoldsThemAll) {
    const fs::path out = scratch_.path() / "vectors";
    const RepairReport report = repairShardlakeRoot(corrupt_ / "missing_vectors_jsonl", out);
    // The dataset now holds a file the input lacked: the output's content differs, and says so.
    ASSERT_EQ(report.losses.size(), 1u);
    EXPECT_NE(report.losses[0].description.find("vectors.jsonl (only in the output)"),
              std::string::npos);
    ASSERT_EQ(report.actions.size(), 1u);
    EXPECT_NE(report.actions[0].description.find("rebuilt from the 300 records of index idx-raw"),
              std::string::npos);
    // The same lines as the undamaged dataset, in id order.
    const fs::path rebuilt = out / "datasets/ds-small/vectors.jsonl";
    EXPECT_EQ(sortedLines(rebuilt),
              sortedLines(corrupt_ / "_base/datasets/ds-small/vectors.jsonl"));

    // Without a raw index whose fingerprints all match, nothing vouches for the vectors: the
    // dataset is lost, and with it every index that names it.
    const fs::path in = scratch_.path() / "in";
    fs::copy(corrupt_ / "missing_vectors_jsonl", in, fs::copy_options::recursive);
    fs::permissions(in / "indexes/idx-raw/shards/shard-0002.sidx", fs::perms::owner_write,
                    fs::perm_options::add);
    std::ofstream(in / "indexes/idx-raw/shards/shard-0002.sidx", std::ios::app) << "x";
    EXPECT_THROW(repairShardlakeRoot(in, scratch_.path() / "none"), RepairError);
    EXPECT_FALSE(fs::exists(scratch_.path() / "none"));
}

TEST_F(ShardlakeRepairCorpus, HeaderFaultsAreMendedFromTheOtherSources) {
    const fs::path out = scratch_.path() / "dims";
    const RepairReport report = repairShardlakeRoot(corrupt_ / "shard_header_dims_8", out);
    EXPECT_FALSE(report.complete());  // the shard's bytes and fingerprint differ from the input's
    bool mended = false;
    for (const RepairStep& s : report.actions) {
        mended = mended || (s.description.find("dims 8 → 16") != std::string::npos &&
                            s.bytes.file.ends_with("shard-0000.sidx") && s.bytes.length == 32);
    }
    EXPECT_TRUE(mended);
    // The mended shard is the undamaged one, byte for byte.
    std::ifstream a(corrupt_ / "_base/indexes/idx-raw/shards/shard-0000.sidx", std::ios::binary);
    std::ifstream b(out / "indexes/idx-raw/shards/shard-0000.sidx", std::ios::binary);
    std::stringstream sa;
    std::stringstream sb;
    sa << a.rdbuf();
    sb << b.rdbuf();
    EXPECT_EQ(sa.str(), sb.str());
}

TEST_F(ShardlakeRepairCorpus, DryRunWritesNothing) {
    const fs::path out = scratch_.path() / "dry";
    RepairOptions options;
    options.dryRun = true;
    const RepairReport report = repairShardlakeRoot(corrupt_ / "shard_truncated", out, options);
    EXPECT_FALSE(report.written);
    EXPECT_EQ(report.recovered, 499u);
    EXPECT_EQ(report.losses.size(), 2u);  // the records cut off, the manifest values changed
    EXPECT_TRUE(fs::is_empty(scratch_.path()));
    // The plan says what the repair then does.
    const RepairReport done = repairShardlakeRoot(corrupt_ / "shard_truncated", out);
    ASSERT_EQ(done.losses.size(), report.losses.size());
    for (std::size_t i = 0; i < done.losses.size(); ++i) {
        EXPECT_EQ(done.losses[i].description, report.losses[i].description);
    }
}

TEST_F(ShardlakeRepairCorpus, AnExistingOutputIsNeverReplaced) {
    const fs::path out = scratch_.path() / "taken";
    fs::create_directories(out);
    std::ofstream(out / "mine.txt") << "keep";
    EXPECT_THROW(repairShardlakeRoot(corrupt_ / "ok_raw", out), RepairError);
    EXPECT_TRUE(fs::exists(out / "mine.txt"));
    EXPECT_FALSE(fs::exists(out / "indexes"));
    // A dry run may name a taken path: it writes nothing.
    RepairOptions dry;
    dry.dryRun = true;
    EXPECT_NO_THROW(repairShardlakeRoot(corrupt_ / "ok_raw", out, dry));
    // No stage is left beside it.
    std::size_t entries = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(scratch_.path())) {
        ++entries;
    }
    EXPECT_EQ(entries, 1u);
}

TEST_F(ShardlakeRepairCorpus, OnlyAStorageRootIsRepaired) {
    EXPECT_THROW(repairShardlakeRoot(corrupt_ / "ok_raw/indexes/idx-raw", scratch_.path() / "a"),
                 RepairError);
    EXPECT_THROW(repairShardlakeRoot(corrupt_ / "ok_raw/indexes/idx-raw/shards/shard-0000.sidx",
                                     scratch_.path() / "b"),
                 RepairError);
    EXPECT_THROW(repairShardlakeRoot(corrupt_ / "ok_raw", corrupt_ / "ok_raw/inside"), RepairError);
    EXPECT_TRUE(canRepair(kShardlakeFormat));
}

// Copies a corpus root into the scratch folder so it can be damaged further.
fs::path copyRoot(const fs::path& from, const fs::path& to) {
    fs::copy(from, to, fs::copy_options::recursive);
    for (const auto& entry : fs::recursive_directory_iterator(to)) {
        fs::permissions(entry.path(), fs::perms::owner_write, fs::perm_options::add);
    }
    return to;
}

void replaceInFile(const fs::path& file, const std::string& from, const std::string& to) {
    std::ifstream in(file, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    std::string s = text.str();
    const auto at = s.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    s.replace(at, from.size(), to);
    in.close();
    std::ofstream(file, std::ios::binary | std::ios::trunc) << s;
}

// A manifest that is not JSON because of one flipped byte: every other field is read (member by
// member, nested objects too) and kept as it was, the unreadable one is a loss with its bytes
// and is not made up (no build time or builder version the repair did not read).
TEST_F(ShardlakeRepairCorpus, AManifestWithAFlippedByteKeepsEveryFieldItCanRead) {
    const fs::path in = copyRoot(corrupt_ / "ok_raw", scratch_.path() / "in");
    const fs::path file = in / "indexes/idx-raw/manifest.json";
    const nlohmann::json before = nlohmann::json::parse(std::ifstream(file));
    const std::string text = fileBytes(file);
    const std::size_t at = text.find("\"builder_version\": \"0.1.0\"");
    ASSERT_NE(at, std::string::npos);
    replaceInFile(file, "\"builder_version\": \"0.1.0\"", "\"builder_version\": \"0.1.0\x02");
    const nlohmann::json seed = before["algorithm"]["params"]["kmeans_seed"];
    replaceInFile(file, "\"kmeans_seed\": " + seed.dump(), "\"kmeans_seed\": " + seed.dump() + "}");

    const RepairReport report = repairShardlakeRoot(in, scratch_.path() / "out");
    EXPECT_EQ(report.recovered, 600u);
    std::string losses;
    for (const RepairStep& l : report.losses) {
        losses += l.description + "\n";
    }
    const auto lossAbout = [&](const std::string& said) {
        return std::find_if(report.losses.begin(), report.losses.end(), [&](const RepairStep& l) {
            return l.description.find(said) != std::string::npos;
        });
    };
    const auto builder = lossAbout("`build_metadata.builder_version` cannot be read");
    ASSERT_NE(builder, report.losses.end()) << losses;
    EXPECT_EQ(builder->bytes.offset, text.rfind('\n', at) + 1);
    ASSERT_NE(lossAbout("`algorithm.params.kmeans_seed` cannot be read"), report.losses.end())
        << losses;
    ASSERT_NE(lossAbout("written without `build_metadata.builder_version`"), report.losses.end())
        << losses;

    const nlohmann::json after =
        nlohmann::json::parse(std::ifstream(scratch_.path() / "out/indexes/idx-raw/manifest.json"));
    for (const char* key : {"compression", "shard_summary", "coarse_quantizer_key", "shards",
                            "total_vector_count", "dims", "alias", "embedding_version"}) {
        EXPECT_EQ(after.value(key, nlohmann::json()), before.value(key, nlohmann::json())) << key;
    }
    EXPECT_EQ(after["algorithm"]["algorithm"], before["algorithm"]["algorithm"]);
    EXPECT_EQ(after["algorithm"]["params"]["kmeans_iters"],
              before["algorithm"]["params"]["kmeans_iters"]);
    EXPECT_FALSE(after["algorithm"]["params"].contains("kmeans_seed"));
    EXPECT_EQ(after["build_metadata"]["built_at"], before["build_metadata"]["built_at"]);
    EXPECT_EQ(after["build_metadata"]["build_duration_secs"],
              before["build_metadata"]["build_duration_secs"]);
    EXPECT_EQ(after["build_metadata"]["nprobe_default"],
              before["build_metadata"]["nprobe_default"]);
    EXPECT_FALSE(after["build_metadata"].contains("builder_version"));
}

// A shard file no entry lists beside an undamaged list: readers ignore it (a warning), and the
// copy keeps it as it is, so the repair is complete.
TEST_F(ShardlakeRepairCorpus, AStrayShardFileBesideAnIntactListIsCopiedAsItIs) {
    const fs::path in = copyRoot(corrupt_ / "ok_raw", scratch_.path() / "in");
    fs::copy_file(in / "indexes/idx-raw/shards/shard-0002.sidx",
                  in / "indexes/idx-raw/shards/shard-0007.sidx");
    const RepairReport report = repairShardlakeRoot(in, scratch_.path() / "out");
    EXPECT_TRUE(report.complete());
    EXPECT_EQ(report.recovered, 600u);
    ASSERT_EQ(report.actions.size(), 1u);
    EXPECT_NE(report.actions[0].description.find("copied as it is"), std::string::npos);
    EXPECT_EQ(fileBytes(scratch_.path() / "out/indexes/idx-raw/shards/shard-0007.sidx"),
              fileBytes(in / "indexes/idx-raw/shards/shard-0007.sidx"));
}

TEST_F(ShardlakeRepairCorpus, ADamagedDatasetKeepsItsUsableLines) {
    // Line 2 is garbage, metadata.json is gone, and the raw index cannot stand in for the
    // vectors (a fingerprint of it was altered).
    const fs::path in = copyRoot(corrupt_ / "ok_raw", scratch_.path() / "in");
    const fs::path vectors = in / "datasets/ds-small/vectors.jsonl";
    std::vector<std::string> lines;
    {
        std::ifstream text(vectors);
        for (std::string line; std::getline(text, line);) {
            lines.push_back(line);
        }
    }
    ASSERT_EQ(lines.size(), 300u);
    const std::uint64_t offset = lines[0].size() + 1;
    const std::uint64_t length = lines[1].size();
    lines[1] = std::string(length, '#');
    {
        std::ofstream text(vectors, std::ios::trunc);
        for (const std::string& line : lines) {
            text << line << '\n';
        }
    }
    fs::remove(in / "datasets/ds-small/metadata.json");
    const nlohmann::json manifest =
        nlohmann::json::parse(std::ifstream(in / "indexes/idx-raw/manifest.json"));
    replaceInFile(in / "indexes/idx-raw/manifest.json", manifest["shards"][2]["sha256"],
                  "0000000000000000");

    const fs::path out = scratch_.path() / "out";
    const RepairReport report = repairShardlakeRoot(in, out);
    std::string losses;
    for (const RepairStep& l : report.losses) {
        losses += l.description + "\n";
    }
    ASSERT_FALSE(report.losses.empty());
    const RepairStep& line = report.losses.front();
    EXPECT_NE(line.description.find("line 2 dropped"), std::string::npos) << losses;
    EXPECT_TRUE(line.bytes.file.ends_with("vectors.jsonl"));
    EXPECT_EQ(line.bytes.offset, offset);
    EXPECT_EQ(line.bytes.length, length);
    EXPECT_EQ(sortedLines(out / "datasets/ds-small/vectors.jsonl").size(), 299u);
    const nlohmann::json info =
        nlohmann::json::parse(std::ifstream(out / "datasets/ds-small/info.json"));
    EXPECT_EQ(info["vector_count"], 299);
    // metadata.json comes back from the lines' metadata, as ingest wrote it (but for line 2's).
    EXPECT_EQ(fileBytes(out / "datasets/ds-small/metadata.json"),
              fileBytes(corrupt_ / "ok_raw/datasets/ds-small/metadata.json"));
    const test::Findings findings = validateShardlake(out);
    EXPECT_EQ(findings.countOf(Severity::Error), 0u) << describe(findings);
    // Shard 2 of idx-raw is vouched for by the dataset, record by record: id 2 is no longer in
    // it, so a record with id 2 there is a loss; every other record comes back.
    const auto records = indexRecords(out, "idx-raw");
    ASSERT_TRUE(records);
    EXPECT_EQ(report.recovered, 300 + records->size());
    EXPECT_GE(records->size(), 299u);
}

TEST_F(ShardlakeRepairCorpus, PqFingerprintsAreRecomputedOnlyWhenAsked) {
    // A PQ shard's records cannot be compared with the dataset: a wrong fingerprint leaves
    // nothing that vouches for them.
    const fs::path in = copyRoot(corrupt_ / "ok_pq", scratch_.path() / "in");
    const nlohmann::json manifest =
        nlohmann::json::parse(std::ifstream(in / "indexes/idx-pq/manifest.json"));
    const std::string fp = manifest["shards"][1]["sha256"];
    const std::uint64_t count = manifest["shards"][1]["vector_count"];
    replaceInFile(in / "indexes/idx-pq/manifest.json", fp, "0123456789abcdef");

    const RepairReport refused = repairShardlakeRoot(in, scratch_.path() / "out1");
    ASSERT_EQ(refused.losses.size(), 3u);  // the shard, then the manifest and the files after
    EXPECT_NE(refused.losses[0].description.find("--recompute-digests"), std::string::npos);
    EXPECT_TRUE(refused.losses[0].bytes.file.ends_with("idx-pq/shards/shard-0001.sidx"));
    EXPECT_EQ(refused.lostKnown, count);
    EXPECT_EQ(refused.recovered, 600 - count);
    EXPECT_EQ(validateShardlake(scratch_.path() / "out1").countOf(Severity::Error), 0u);
    // Shard 2 became shard 1: ids run from 0 again.
    const auto records = indexRecords(scratch_.path() / "out1", "idx-pq");
    ASSERT_TRUE(records);
    EXPECT_EQ(records->size(), 300 - count);

    RepairOptions recompute;
    recompute.recomputeDigests = true;
    const RepairReport kept = repairShardlakeRoot(in, scratch_.path() / "out2", recompute);
    ASSERT_EQ(kept.losses.size(), 1u);  // only the new fingerprint differs from the input
    EXPECT_NE(kept.losses[0].description.find("$.shards[1].sha256"), std::string::npos);
    EXPECT_EQ(kept.recovered, 600u);
    bool said = false;
    for (const RepairStep& s : kept.actions) {
        said = said || s.description.find("vouches for bytes no fingerprint protected") !=
                           std::string::npos;
    }
    EXPECT_TRUE(said);
    EXPECT_EQ(validateShardlake(scratch_.path() / "out2").countOf(Severity::Error), 0u);
}

TEST_F(ShardlakeRepairCorpus, AnAliasIsRepointedOnlyToAnIndexPublishedUnderItsName) {
    const fs::path in = copyRoot(corrupt_ / "ok_raw", scratch_.path() / "in");
    // Two indexes would match: one says it was published as "other".
    replaceInFile(in / "indexes/idx-pq/manifest.json", "\"alias\": \"latest\"",
                  "\"alias\": \"other\"");
    std::ofstream(in / "aliases/latest.json", std::ios::trunc)
        << "{\n  \"alias\": \"latest\",\n  \"index_version\": \"idx-gone\"\n}";
    const RepairReport report = repairShardlakeRoot(in, scratch_.path() / "out");
    bool repointed = false;
    for (const RepairStep& s : report.actions) {
        repointed = repointed || s.description.find("repointed to idx-raw") != std::string::npos;
    }
    EXPECT_TRUE(repointed);
    const nlohmann::json alias =
        nlohmann::json::parse(std::ifstream(scratch_.path() / "out/aliases/latest.json"));
    EXPECT_EQ(alias["index_version"], "idx-raw");
}

// --- random damage on generated roots --------------------------------------------------------

class ShardlakeRepairRandom : public ::testing::Test {
protected:
    static constexpr std::uint32_t kDims = 8;
    static constexpr std::uint64_t kVectors = 240;

    void SetUp() override {
        std::mt19937 rng(11);
        std::uniform_real_distribution<float> value(-2.0f, 2.0f);
        std::string text;
        for (std::uint64_t id = 1; id <= kVectors; ++id) {
            text += "{\"id\":" + std::to_string(id) + ",\"vector\":[";
            for (std::uint32_t j = 0; j < kDims; ++j) {
                char number[32];
                std::snprintf(number, sizeof number, "%.4f", static_cast<double>(value(rng)));
                text += (j ? "," : "") + std::string(number);
            }
            text += "]}\n";
        }
        std::ofstream(scratch_.path() / "input.jsonl") << text;
        root_ = scratch_.path() / "root";
        IngestRequest ingest;
        ingest.root = root_;
        ingest.input = scratch_.path() / "input.jsonl";
        ingest.datasetVersion = "ds";
        ingest.timestamp = "2026-01-01T00:00:00Z";
        ASSERT_TRUE(ingestVectors(ingest).ok);
        BuildRequest build;
        build.root = root_;
        build.datasetVersion = "ds";
        build.indexVersion = "idx";
        build.metric = Metric::Euclidean;
        build.numShards = 4;
        build.timestamp = "2026-01-01T00:00:00Z";
        build.threads = 1;
        const BuildOutcome built = buildIndex(build);
        ASSERT_TRUE(built.ok) << built.error;
        ASSERT_EQ(built.shards, 4u);
        ASSERT_EQ(validateShardlake(root_).countOf(Severity::Error), 0u);
    }

    SlScratch scratch_;
    fs::path root_;
};

std::string readBytes(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

void writeBytes(const fs::path& file, const std::string& bytes) {
    std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes;
}

TEST_F(ShardlakeRepairRandom, WhatIsRecoveredIsExactlyWhatWasIntact) {
    const Records original = *indexRecords(root_, "idx");
    ASSERT_EQ(original.size(), kVectors);
    const std::uint64_t recordSize = 8 + 4 * kDims;
    const std::uint64_t recordsOffset = 32 + 4 * kDims;
    std::mt19937 rng(2026);
    int lossy = 0;
    for (int round = 0; round < 40; ++round) {
        SCOPED_TRACE("round " + std::to_string(round));
        const fs::path in = scratch_.path() / ("in" + std::to_string(round));
        fs::copy(root_, in, fs::copy_options::recursive);
        const fs::path shards = in / "indexes/idx/shards";
        std::vector<fs::path> files;
        for (const auto& e : fs::directory_iterator(shards)) {
            files.push_back(e.path());
        }
        std::sort(files.begin(), files.end());
        std::shuffle(files.begin(), files.end(), rng);
        // Records (by id) whose bytes stay whole in their file.
        std::set<std::uint64_t> intact;
        for (const auto& [id, bytes] : original) {
            intact.insert(id);
        }
        auto idAt = [](const std::string& bytes, std::uint64_t offset) {
            return decodeLe<std::uint64_t>(reinterpret_cast<const std::uint8_t*>(bytes.data()) +
                                           offset);
        };
        const int damages = 1 + static_cast<int>(rng() % 3);
        std::string what;
        for (int d = 0; d < damages; ++d) {
            const fs::path file = files[static_cast<std::size_t>(d)];
            std::string bytes = readBytes(file);
            const std::string before = bytes;
            const std::uint64_t count = (bytes.size() - recordsOffset) / recordSize;
            const int kind = static_cast<int>(rng() % 5);
            what += file.filename().string() + " kind " + std::to_string(kind) + "; ";
            if (kind == 0) {  // flipped bytes anywhere in the file
                const int flips = 1 + static_cast<int>(rng() % 3);
                for (int f = 0; f < flips; ++f) {
                    const std::uint64_t at = rng() % bytes.size();
                    if (at >= recordsOffset) {
                        intact.erase(idAt(before, recordsOffset + (at - recordsOffset) /
                                                                      recordSize * recordSize));
                    }
                    bytes[at] = static_cast<char>(bytes[at] ^ (1 + rng() % 255));
                }
            } else if (kind == 1) {  // cut anywhere
                const std::uint64_t size = rng() % bytes.size();
                for (std::uint64_t i = 0; i < count; ++i) {
                    const std::uint64_t end = recordsOffset + (i + 1) * recordSize;
                    if (end > size || size < recordsOffset) {
                        intact.erase(idAt(bytes, recordsOffset + i * recordSize));
                    }
                }
                bytes.resize(size);
            } else if (kind == 2) {  // deleted
                for (std::uint64_t i = 0; i < count; ++i) {
                    intact.erase(idAt(bytes, recordsOffset + i * recordSize));
                }
                fs::remove(file);
                continue;
            } else if (kind == 3) {  // junk appended
                bytes += std::string(1 + rng() % 20, 'j');
            } else {  // the manifest's fingerprint of this shard altered
                const std::string manifest = readBytes(in / "indexes/idx/manifest.json");
                const std::string key = "shards/" + file.filename().string() + "\",";
                std::string m = manifest;
                const auto at = m.find("\"sha256\": \"", m.find(key));
                ASSERT_NE(at, std::string::npos);
                char& digit = m[at + 11];
                digit = digit == '0' ? '1' : '0';
                writeBytes(in / "indexes/idx/manifest.json", m);
                continue;
            }
            writeBytes(file, bytes);
        }
        SCOPED_TRACE(what);
        const fs::path out = scratch_.path() / ("out" + std::to_string(round));
        RepairReport report;
        ASSERT_NO_THROW(report = repairShardlakeRoot(in, out));
        lossy += intact.size() < kVectors ? 1 : 0;
        EXPECT_EQ(report.recovered, intact.size());
        EXPECT_EQ(report.lostKnown, kVectors - intact.size());
        if (intact.size() < kVectors) {
            EXPECT_FALSE(report.complete());
        }
        EXPECT_EQ(report.complete(), sameContent(in, out));
        const test::Findings findings = validateShardlake(out);
        EXPECT_EQ(findings.countOf(Severity::Error), 0u) << describe(findings);
        const auto records = indexRecords(out, "idx");
        ASSERT_TRUE(records);
        std::set<std::uint64_t> got;
        for (const auto& [id, bytes] : *records) {
            got.insert(id);
            EXPECT_EQ(bytes, original.at(id)) << "record " << id;
        }
        EXPECT_EQ(got, intact);
        fs::remove_all(in);
        fs::remove_all(out);
    }
    // Both kinds of round happened.
    EXPECT_GT(lossy, 10);
    EXPECT_LT(lossy, 35);
}

// Damage anywhere (manifests, aliases, dataset files, quantizer, shards): the repair either
// refuses with a RepairError and writes nothing, or writes a root that validates and holds only
// records of the undamaged root.
TEST_F(ShardlakeRepairRandom, DamageAnywhereNeverYieldsForeignRecords) {
    const Records original = *indexRecords(root_, "idx");
    std::vector<fs::path> files;
    for (const auto& e : fs::recursive_directory_iterator(root_)) {
        if (e.is_regular_file()) {
            files.push_back(fs::relative(e.path(), root_));
        }
    }
    std::sort(files.begin(), files.end());
    std::mt19937 rng(99);
    int written = 0;
    for (int round = 0; round < 60; ++round) {
        SCOPED_TRACE("round " + std::to_string(round));
        const fs::path in = scratch_.path() / ("any" + std::to_string(round));
        fs::copy(root_, in, fs::copy_options::recursive);
        std::string what;
        for (int d = 0, n = 1 + static_cast<int>(rng() % 3); d < n; ++d) {
            const fs::path file = in / files[rng() % files.size()];
            if (!fs::exists(file)) {
                continue;
            }
            std::string bytes = readBytes(file);
            const int kind = static_cast<int>(rng() % 3);
            what += fs::relative(file, in).string() + " kind " + std::to_string(kind) + "; ";
            if (kind == 0 && !bytes.empty()) {
                for (int f = 0; f < 4; ++f) {
                    const std::size_t at = rng() % bytes.size();
                    bytes[at] = static_cast<char>(bytes[at] ^ (1 + rng() % 255));
                }
                writeBytes(file, bytes);
            } else if (kind == 1 && !bytes.empty()) {
                bytes.resize(rng() % bytes.size());
                writeBytes(file, bytes);
            } else {
                fs::remove(file);
            }
        }
        SCOPED_TRACE(what);
        const fs::path out = scratch_.path() / ("anyout" + std::to_string(round));
        try {
            const RepairReport report = repairShardlakeRoot(in, out);
            ++written;
            expectValidButForAbsentFields(out, report);
            // Complete exactly when the output holds what the input held.
            EXPECT_EQ(report.complete(), sameContent(in, out));
            if (const auto records = indexRecords(out, "idx")) {
                EXPECT_EQ(records->size(), report.recovered);
                for (const auto& [id, bytes] : *records) {
                    ASSERT_TRUE(original.contains(id)) << "record " << id;
                    EXPECT_EQ(bytes, original.at(id)) << "record " << id;
                }
            }
        } catch (const RepairError& e) {
            if (std::getenv("SL_REPAIR_VERBOSE") != nullptr) {
                std::fprintf(stderr, "refused: %s [%s]\n", e.what(), what.c_str());
            }
            EXPECT_FALSE(fs::exists(out));
        }
        fs::remove_all(in);
        fs::remove_all(out);
    }
    EXPECT_GT(written, 20);
}

}  // namespace
}  // namespace strata
