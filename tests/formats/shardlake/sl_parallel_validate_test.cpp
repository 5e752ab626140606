// Validation runs shards and dataset blocks on pool threads; the report must not depend on the
// thread count: the same diagnostics, in the same order, capped the same way.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <iterator>

#include <nlohmann/json.hpp>

#include "formats/common/byte_source.h"
#include "formats/common/checksums.h"
#include "formats/shardlake/shardlake_dataset.h"
#include "sl_test_support.h"

namespace strata {
namespace {

namespace fs = std::filesystem;
using test::describe;

std::vector<std::uint8_t> readBytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

void writeBytes(const fs::path& path, const std::vector<std::uint8_t>& bytes) {
    std::ofstream(path, std::ios::binary | std::ios::trunc)
        .write(reinterpret_cast<const char*>(bytes.data()),
               static_cast<std::streamsize>(bytes.size()));
}

// Everything a user sees of a report, regions included.
std::string transcript(const CollectingSink& sink) {
    std::string out;
    for (const Diagnostic& d : sink.diagnostics()) {
        out += std::string(severityName(d.severity)) + " " + d.code + ": " + d.message + " [" +
               d.file + "]";
        for (const Region& r : d.regions) {
            out += " " + (r.source != nullptr ? r.source->name() : std::string("-")) + "@" +
                   std::to_string(r.offset) + "+" + std::to_string(r.length);
        }
        out += "\n";
    }
    return out;
}

std::string validate(const fs::path& root, unsigned threads, std::size_t maxPerCode,
                     shardlake::ValidationTarget target = {}) {
    auto store = std::make_shared<const shardlake::Store>(root);
    CollectingSink sink;
    ValidationOptions options;
    options.threads = threads;
    options.maxPerCode = maxPerCode;
    shardlake::makeShardlakeValidator(store, std::move(target))->run(sink, options);
    return transcript(sink);
}

class ParallelValidate : public ::testing::Test {
protected:
    void SetUp() override {
        const fs::path base = test::slCorpusDir() / "corrupt/_base";
        if (!fs::exists(base)) {
            GTEST_SKIP() << "Shardlake corpus not found (set STRATA_CORPUS_DIR)";
        }
        fs::copy(base, root(), fs::copy_options::recursive);
        for (const auto& entry : fs::recursive_directory_iterator(root())) {
            fs::permissions(entry.path(), fs::perms::owner_write, fs::perm_options::add);
        }
    }
    fs::path root() const { return scratch_.path() / "root"; }
    fs::path shard(int n) const {
        char name[48];
        std::snprintf(name, sizeof name, "indexes/idx-raw/shards/shard-%04d.sidx", n);
        return root() / name;
    }
    // Rewrites shard n with `edit`; with `refingerprint` the manifest follows.
    template <typename Edit>
    void editShard(int n, bool refingerprint, Edit edit) const {
        std::vector<std::uint8_t> bytes = readBytes(shard(n));
        edit(bytes);
        writeBytes(shard(n), bytes);
        if (!refingerprint) {
            return;
        }
        const fs::path manifestPath = root() / "indexes/idx-raw/manifest.json";
        nlohmann::json m = nlohmann::json::parse(std::ifstream(manifestPath));
        char text[17];
        std::snprintf(text, sizeof text, "%016llx",
                      static_cast<unsigned long long>(fnv1a64(bytes)));
        m["shards"][static_cast<std::size_t>(n)]["sha256"] = text;
        std::ofstream(manifestPath, std::ios::trunc) << m.dump(2);
    }
    // Damage in every shard of idx-raw: changed vectors, values that are not finite, ids
    // repeated or unknown to the dataset, and one stale fingerprint.
    void damageEveryShard() const {
        constexpr std::size_t kRecords = 32 + 16 * 4;  // header and one 16-dims centroid
        constexpr std::size_t kRecord = 8 + 16 * 4;
        editShard(0, true, [](std::vector<std::uint8_t>& b) {
            for (std::size_t r = 0; r < 4; ++r) {
                b[kRecords + r * kRecord + 8 + 5] ^= 0x40;  // a different vector
            }
        });
        const std::vector<std::uint8_t> first = readBytes(shard(0));
        editShard(1, true, [&](std::vector<std::uint8_t>& b) {
            const std::uint32_t inf = 0x7f800000u;
            std::memcpy(b.data() + kRecords + 8 + 4, &inf, 4);
            std::memcpy(b.data() + kRecords + kRecord + 8 + 8, &inf, 4);
            std::memcpy(b.data() + kRecords + 2 * kRecord, first.data() + kRecords, 8);
            const std::uint64_t unknown = 999999;
            std::memcpy(b.data() + kRecords + 3 * kRecord, &unknown, 8);
        });
        editShard(2, false, [](std::vector<std::uint8_t>& b) { b[kRecords + 8 + 1] ^= 0x01; });
    }

    test::SlScratch scratch_;
};

TEST_F(ParallelValidate, DamagedShardsReportTheSameWithAnyThreadCount) {
    damageEveryShard();
    const std::string serial = validate(root(), 1, 0);
    for (const char* code :
         {"SL-VECTOR-MISMATCH", "SL-NONFINITE", "SL-DUPLICATE-ID", "SL-FINGERPRINT"}) {
        EXPECT_NE(serial.find(code), std::string::npos) << code << "\n" << serial;
    }
    for (const std::size_t cap : {0u, 1u, 2u, 3u}) {
        const std::string expected = validate(root(), 1, cap);
        for (const unsigned threads : {2u, 3u, 0u}) {
            EXPECT_EQ(validate(root(), threads, cap), expected)
                << "threads " << threads << ", cap " << cap;
        }
    }
    // The same for the index checked on its own.
    shardlake::ValidationTarget index;
    index.scope = shardlake::ValidationScope::Index;
    index.name = "idx-raw";
    const std::string alone = validate(root(), 1, 2, index);
    EXPECT_NE(alone.find("SL-VECTOR-MISMATCH"), std::string::npos) << alone;
    EXPECT_EQ(validate(root(), 2, 2, index), alone);
}

TEST_F(ParallelValidate, ADamagedDatasetStopsTheComparisonWhateverTheThreads) {
    damageEveryShard();
    std::ofstream(root() / "datasets/ds-small/vectors.jsonl", std::ios::app)
        << "{\"id\":5,\"data\":[1]}\nnot json\n";
    const std::string serial = validate(root(), 1, 0);
    EXPECT_EQ(serial.find("SL-VECTOR-MISMATCH"), std::string::npos) << serial;
    EXPECT_NE(serial.find("SL-JSON"), std::string::npos) << serial;
    EXPECT_EQ(validate(root(), 2, 0), serial);
}

// A dataset of many 4 MiB blocks, blank and bad lines among them: every line is visited once,
// in order, with its number and bytes, whatever the thread count.
TEST(DatasetLines, BlocksOnThreadsVisitLikeOneThread) {
    test::SlScratch scratch;
    std::string text;
    std::vector<std::uint64_t> expectedLines;
    std::uint64_t lineNumber = 0;
    for (int i = 0; text.size() < (13u << 20); ++i) {
        ++lineNumber;
        if (i % 997 == 0) {
            text += "  \r\n";  // blank: not visited
            continue;
        }
        expectedLines.push_back(lineNumber);
        if (i % 50021 == 3) {
            text += "{\"id\":" + std::to_string(i) + ",\"data\":[1,oops]}\n";
            continue;
        }
        text += "{\"id\":" + std::to_string(i) + ",\"data\":[";
        for (int k = 0; k < 24; ++k) {
            text += std::to_string((i * 31 + k) % 1000) + ".25,";
        }
        text += "1e39]}\n";  // overflows f32
    }
    text += "{\"id\":1,\"data\":[2]}";  // no final newline
    expectedLines.push_back(++lineNumber);
    const fs::path file =
        scratch.write("vectors.jsonl", std::vector<std::uint8_t>(text.begin(), text.end()));
    const ByteSourcePtr source = openMappedFile(file);

    auto collect = [&](unsigned threads) {
        std::string out;
        std::vector<std::uint64_t> lines;
        shardlake::forEachDatasetLine(
            *source,
            [&](const shardlake::DatasetLine& line) {
                lines.push_back(line.lineNumber);
                out += std::to_string(line.lineNumber) + ":" + std::to_string(line.region.offset) +
                       "+" + std::to_string(line.region.length) + " id " +
                       (line.id ? std::to_string(*line.id) : "-") + " n " +
                       std::to_string(line.values.size()) + (line.nonFinite ? " inf" : "") + " " +
                       line.error + "\n";
                for (const float v : line.values) {
                    out += std::to_string(v) + ",";
                }
                return true;
            },
            threads);
        EXPECT_EQ(lines, expectedLines);
        return out;
    };
    const std::string one = collect(1);
    EXPECT_NE(one.find("not a number"), std::string::npos);
    EXPECT_NE(one.find(" inf "), std::string::npos);
    EXPECT_EQ(collect(2), one);
    EXPECT_EQ(collect(3), one);

    // A visitor that stops early is not called again.
    std::size_t visited = 0;
    shardlake::forEachDatasetLine(*source,
                                  [&](const shardlake::DatasetLine&) { return ++visited < 40000; });
    EXPECT_EQ(visited, 40000u);
}

}  // namespace
}  // namespace strata
