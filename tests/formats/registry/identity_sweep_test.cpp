// Sweeps over every valid input of every format, through the registry as strata-cli does: the
// conformance corpus's valid files and folders (those its READMEs call valid), and files each
// format's writers make here with a fixed seed.
//  - diff(A, A) holds no difference at all, not even one of storage (strict);
//  - a repair of A is complete (no loss) and diff(A, repaired) finds the same content;
//  - on the corpus's damaged inputs, a repair is complete only when diff(A, repaired) finds the
//    same content (exit 0 of `strata-cli repair` means `strata-cli diff IN OUT` exits 0).
// The corpus parts skip without the corpus; the generated parts always run.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "../ztensor/zt_test_support.h"
#include "formats/builtin/builtin_formats.h"
#include "formats/builtin/format_diff.h"
#include "formats/builtin/format_repair.h"
#include "formats/common/repair.h"
#include "formats/ozdf/ozdf_writer.h"
#include "formats/registry/format_registry.h"
#include "formats/shardlake/shardlake_alias_edit.h"
#include "formats/shardlake/shardlake_builder.h"
#include "formats/zds/zds_jobs.h"
#include "formats/zs/zs_writer.h"
#include "formats/ztensor/zt_writer.h"
#include "registry_test_support.h"

namespace strata {
namespace {

namespace fs = std::filesystem;

struct Collected final : DiffSink {
    std::vector<Difference> all;
    bool add(Difference d) override {
        all.push_back(std::move(d));
        return true;
    }
};

std::string listed(const std::vector<Difference>& differences) {
    std::string out;
    for (const Difference& d : differences) {
        out += std::string(diffKindName(d.kind)) + " " + d.path + ": " + d.description + "\n";
        for (const DiffField& f : d.fields) {
            out += "    " + f.path + ": " + f.a + " -> " + f.b + "\n";
        }
    }
    return out;
}

std::string listed(const RepairReport& report) {
    std::string out;
    for (const RepairStep& l : report.losses) {
        out += "lost " + l.description + "\n";
    }
    return out;
}

// A against B as strata-cli diff compares them (answers of Shardlake indexes included).
DiffSummary compare(const fs::path& a, const fs::path& b, Collected& sink) {
    const auto da = builtinFormats().open(a);
    const auto db = builtinFormats().open(b);
    auto differ = makeDiffer(*da, *db);
    EXPECT_EQ(differ->run(sink, DiffOptions{}), JobOutcome::Completed);
    return differ->summary();
}

void expectSelfDiffEmpty(const fs::path& input) {
    SCOPED_TRACE("diff A A: " + input.string());
    Collected sink;
    try {
        const DiffSummary summary = compare(input, input, sink);
        EXPECT_EQ(summary.total(), 0u) << listed(sink.all);
        EXPECT_TRUE(sink.all.empty()) << listed(sink.all);
    } catch (const std::exception& e) {
        ADD_FAILURE() << e.what();
    }
}

// The output's name: a folder for a folder, the input's extension for a file.
fs::path outputFor(const fs::path& input, const fs::path& scratch, std::size_t n) {
    std::error_code ec;
    const std::string stem = "out" + std::to_string(n);
    return scratch / (fs::is_directory(input, ec) ? stem : stem + input.extension().string());
}

void expectRepairIsIdentity(const fs::path& input, const fs::path& output) {
    SCOPED_TRACE("repair: " + input.string());
    RepairReport report;
    try {
        report = repairPath(input, output);
    } catch (const std::exception& e) {
        ADD_FAILURE() << e.what();
        return;
    }
    EXPECT_TRUE(report.complete()) << listed(report);
    EXPECT_EQ(report.lostKnown, 0u);
    EXPECT_TRUE(report.written);
    Collected sink;
    EXPECT_TRUE(compare(input, output, sink).contentEqual()) << listed(sink.all);
}

// ---- the corpus ----------------------------------------------------------------------------

void addAll(std::vector<fs::path>& out, const fs::path& folder) {
    std::error_code ec;
    std::vector<fs::path> found;
    for (const auto& e : fs::directory_iterator(folder, ec)) {
        const std::string name = e.path().filename().string();
        if (!name.starts_with(".") && !name.starts_with("_")) {
            found.push_back(e.path());
        }
    }
    std::sort(found.begin(), found.end());
    out.insert(out.end(), found.begin(), found.end());
}

// What each format's README and REFERENCE call valid: the files and folders under valid/ (the
// Shardlake root), and the damaged-looking cases the spec allows.
std::vector<fs::path> corpusValidInputs(const fs::path& c) {
    std::vector<fs::path> out;
    for (const fs::path& f : test::filesWithExtension(c / "zs/valid", ".zs")) {
        out.push_back(f);
    }
    for (const char* name :
         {"header-extension-bytes.zs", "trailing-extension-block.zs", "index-before-children.zs"}) {
        out.push_back(c / "zs/corrupt" / name);
    }
    addAll(out, c / "zds/valid");
    out.push_back(c / "zds/corrupt/zdx_sorted_entries");
    for (const char* group : {"valid/handwritten/docs", "valid/handwritten/dirdocs",
                              "valid/handwritten/corpora", "valid/written_by_reference"}) {
        addAll(out, c / "ozdf" / group);
    }
    out.push_back(c / "ozdf/valid/handwritten/docs");  // each folder of documents is a corpus
    out.push_back(c / "ozdf/valid/handwritten/dirdocs");
    out.push_back(c / "ozdf/corrupt/escape_attempt_backslash.ozdf");
    out.push_back(c / "shardlake/root");
    for (const char* name : {"ok_raw", "ok_pq", "manifest_version_1"}) {
        out.push_back(c / "shardlake/corrupt" / name);
    }
    for (const fs::path& f : test::filesWithExtension(c / "ztensor/valid", ".zt")) {
        out.push_back(f);
    }
    std::erase_if(out, [](const fs::path& p) { return !fs::exists(p); });
    return out;
}

// Parts of the valid Shardlake root compared on their own (no repair: only a root is repaired).
std::vector<fs::path> corpusShardlakeParts(const fs::path& c) {
    std::vector<fs::path> out;
    addAll(out, c / "shardlake/root/datasets");
    std::vector<fs::path> indexes;
    addAll(indexes, c / "shardlake/root/indexes");
    for (const fs::path& index : indexes) {
        out.push_back(index);
        for (const fs::path& shard : test::filesWithExtension(index / "shards", ".sidx")) {
            out.push_back(shard);
        }
    }
    return out;
}

TEST(IdentitySweep, CorpusValidInputsEqualThemselves) {
    const fs::path corpus = test::corpusDir();
    if (corpus.empty()) {
        GTEST_SKIP() << test::missingCorpusMessage();
    }
    std::vector<fs::path> inputs = corpusValidInputs(corpus);
    const std::vector<fs::path> parts = corpusShardlakeParts(corpus);
    inputs.insert(inputs.end(), parts.begin(), parts.end());
    EXPECT_GT(inputs.size(), 120u);
    for (const fs::path& input : inputs) {
        expectSelfDiffEmpty(input);
    }
}

TEST(IdentitySweep, CorpusValidInputsRepairToThemselves) {
    const fs::path corpus = test::corpusDir();
    if (corpus.empty()) {
        GTEST_SKIP() << test::missingCorpusMessage();
    }
    test::ScratchDir scratch;
    std::size_t n = 0;
    for (const fs::path& input : corpusValidInputs(corpus)) {
        expectRepairIsIdentity(input, outputFor(input, scratch.path(), n++));
    }
}

// Every damaged corpus input of the formats whose repairs are checked here: a repair that says
// it is complete holds what the input held, as Strata's diff sees it. (ZS and ZDS repairs are
// checked by their own tests.)
TEST(IdentitySweep, CorpusRepairsAreCompleteOnlyWhenTheOutputHoldsTheInput) {
    const fs::path corpus = test::corpusDir();
    if (corpus.empty()) {
        GTEST_SKIP() << test::missingCorpusMessage();
    }
    test::ScratchDir scratch;
    std::size_t n = 0;
    std::size_t complete = 0;
    for (const char* format : {"shardlake", "ozdf", "ztensor"}) {
        std::vector<fs::path> inputs;
        addAll(inputs, corpus / format / "corrupt");
        for (const fs::path& input : inputs) {
            if (input.extension() == ".json" || input.extension() == ".md") {
                continue;
            }
            SCOPED_TRACE(input.string());
            const fs::path output = outputFor(input, scratch.path(), n++);
            RepairReport report;
            try {
                report = repairPath(input, output);
            } catch (const RepairError&) {
                EXPECT_FALSE(fs::exists(output));
                continue;
            }
            Collected sink;
            DiffSummary summary;
            try {
                summary = compare(input, output, sink);
            } catch (const DiffError& e) {
                EXPECT_FALSE(report.complete()) << "cannot compare: " << e.what();
                continue;
            }
            // (A loss the diff does not see, such as a file readers skip, is allowed.)
            if (report.complete()) {
                EXPECT_TRUE(summary.contentEqual()) << listed(sink.all);
            }
            complete += report.complete() ? 1 : 0;
        }
    }
    EXPECT_GT(complete, 10u);
}

// ---- generated inputs (fixed seed) ---------------------------------------------------------

void writeText(const fs::path& path, const std::string& text) {
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
}

std::string word(std::mt19937& rng) {
    static const std::vector<std::string> words = {"alpha",  "beta", "gamma", "delta", "ÆON",
                                                   "straße", "12",   "x",     "zeta",  "\xCE\xBB"};
    return words[rng() % words.size()];
}

// ZS: records with duplicates and binary bytes, metadata with 64-bit integers and decimals,
// small blocks and a deep index; one file per codec.
std::vector<fs::path> generateZs(const fs::path& dir, std::mt19937& rng) {
    std::vector<std::string> records;
    for (int i = 0; i < 3000; ++i) {
        std::string r = word(rng) + " " + std::to_string(rng() % 500);
        if (i % 97 == 0) {
            r += std::string("\0\xff", 2);
        }
        records.push_back(r);
    }
    std::sort(records.begin(), records.end());
    const nlohmann::ordered_json metadata = {
        {"name", "sweep"},
        {"max", 18446744073709551615ull},
        {"min", -9223372036854775807ll - 1},
        {"ratio", 0.1},
        {"nested",
         {{"list", {1, 2.5, "three", nullptr, true}}, {"empty", nlohmann::json::object()}}}};
    std::vector<fs::path> out;
    for (const zs::Codec codec : {zs::Codec::None, zs::Codec::Deflate, zs::Codec::Lzma2}) {
        const fs::path path =
            dir / ("sweep-" + std::string(zs::codecHeaderName(codec)).substr(0, 4) + ".zs");
        zs::WriterOptions options;
        options.codec = codec;
        options.threads = 1;
        options.branchingFactor = 3;
        zs::ZsWriter writer(path, metadata, options);
        for (std::size_t i = 0; i < records.size(); i += 40) {
            writer.addBlock(
                {records.begin() + static_cast<std::ptrdiff_t>(i),
                 records.begin() + static_cast<std::ptrdiff_t>(std::min(records.size(), i + 40))});
        }
        writer.finish();
        out.push_back(path);
    }
    return out;
}

// ZDS: two collections of nested documents whose numbers need exact comparison (integers past
// 64 bits, decimals with trailing zeros), with an index; the same packed, and converted to docs/.
std::vector<fs::path> generateZds(const fs::path& dir, std::mt19937& rng) {
    const fs::path ds = dir / "dataset";
    for (const char* collection : {"train", "test"}) {
        std::string lines;
        for (int i = 0; i < 60; ++i) {
            nlohmann::ordered_json doc = {{"_id", std::string(collection) + std::to_string(i)},
                                          {"text", word(rng) + " " + word(rng)},
                                          {"tags", {word(rng), word(rng)}},
                                          {"meta", {{"n", static_cast<int>(rng() % 1000)}}}};
            std::string line = doc.dump();
            line.insert(line.size() - 1, ",\"big\":123456789012345678901234567890" +
                                             std::to_string(i) + ",\"x\":0.10");
            lines += line + "\n";
        }
        writeText(ds / "collections" / collection / "meta/data.jsonl", lines);
    }
    zds::reindexZds(ds);
    zds::packZds(ds, dir / "dataset.zds");
    fs::copy(ds, dir / "docs", fs::copy_options::recursive);
    zds::convertZds(dir / "docs", zds::ZdsLayout::Docs);
    return {ds, dir / "dataset.zds", dir / "docs"};
}

// OZDF: a standalone document (lists with repeated and missing item names, comments, several
// paragraphs), a directory document whose parts name items '', repeat names or name none, and
// a corpus holding both.
std::vector<fs::path> generateOzdf(const fs::path& dir, std::mt19937& rng) {
    std::string text =
        "#### TITLE\n" + word(rng) + " " + word(rng) + "\n\n#### COMMENT\na note\n\n";
    text += "#### [TALK]\n==== Joe\nHi.\n\n==== Beth\nHello.\n\n==== Joe\nBye.\n\n====\n" +
            word(rng) + "\n\n==== 1\nnamed one\n\n";
    text += "#### BODY\n";
    for (int p = 0; p < 5; ++p) {
        for (int w = 0; w < 30; ++w) {
            text += word(rng) + (w % 11 == 10 ? "\n" : " ");
        }
        text += "\n\n";
    }
    const fs::path corpus = dir / "corpus";
    writeText(corpus / "standalone.ozdf", text);
    const fs::path doc = corpus / "book";
    writeText(doc / "_metadata.ozdf", "#### TITLE\nA book\n\n#### [[PARTS]]\n\n#### NOTES\nend\n");
    writeText(doc / "PARTS-01.ozdp", "#### NAME\nOne\n\n#### DATA\nfirst\n\n");
    writeText(doc / "PARTS-02.ozdp", "#### NAME\n\n#### DATA\nnamed ''\n\n");
    writeText(doc / "PARTS-03.ozdp", "#### DATA\nunnamed\n\nsecond paragraph\n\n");
    writeText(doc / "PARTS-04.ozdp", "#### NAME\nOne\n\n#### DATA\nthe second One\n\n");
    return {corpus / "standalone.ozdf", doc, corpus};
}

// Shardlake: a dataset whose vectors carry metadata, two indexes over it and an alias.
std::vector<fs::path> generateShardlake(const fs::path& dir, std::mt19937& rng) {
    std::uniform_real_distribution<float> value(-1.0f, 1.0f);
    std::string lines;
    for (int id = 0; id < 400; ++id) {
        lines += "{\"id\": " + std::to_string(id) + ", \"vector\": [";
        for (int d = 0; d < 8; ++d) {
            char number[32];
            std::snprintf(number, sizeof number, "%.6g", double(value(rng)) + (id % 4) * 2.0);
            lines += (d ? ", " : "") + std::string(number);
        }
        lines += "], \"metadata\": {\"label\": \"" + word(rng) +
                 "\", \"rank\": " + std::to_string(id % 7) + "}}\n";
    }
    const fs::path root = dir / "root";
    writeText(dir / "vectors.jsonl", lines);
    shardlake::IngestRequest ingest;
    ingest.root = root;
    ingest.input = dir / "vectors.jsonl";
    ingest.datasetVersion = "ds";
    ingest.timestamp = "2026-01-01T00:00:00Z";
    EXPECT_TRUE(shardlake::ingestVectors(ingest).ok);
    for (const auto& [version, metric, shards] :
         {std::tuple{"idx-l2", shardlake::Metric::Euclidean, 3u},
          std::tuple{"idx-cos", shardlake::Metric::Cosine, 4u}}) {
        shardlake::BuildRequest build;
        build.root = root;
        build.datasetVersion = "ds";
        build.indexVersion = version;
        build.metric = metric;
        build.numShards = shards;
        build.timestamp = "2026-01-01T00:00:00.5Z";
        build.threads = 1;
        const auto built = shardlake::buildIndex(build);
        EXPECT_TRUE(built.ok) << built.error;
    }
    shardlake::writeAlias(root, "latest", "idx-l2");
    return {root};
}

// zTensor: dense tensors of several dtypes raw and zstd, with and without digests, a scalar,
// an empty tensor, sparse CSR and COO, attributes; a file with no tensors; a manifest with
// members no reader uses.
std::vector<fs::path> generateZt(const fs::path& dir, std::mt19937& rng) {
    std::vector<float> f32(300);
    for (float& v : f32) {
        v = static_cast<float>(rng() % 1000) / 7.0f - 50.0f;
    }
    std::vector<std::int64_t> i64 = {1, -2, 9223372036854775807LL, -9223372036854775807LL - 1};
    const auto bytes = [](const auto& v) {
        std::vector<std::uint8_t> out(v.size() * sizeof(v[0]));
        if (!out.empty()) {
            std::memcpy(out.data(), v.data(), out.size());
        }
        return out;
    };
    const auto f32Bytes = bytes(f32);
    const auto i64Bytes = bytes(i64);
    const std::vector<std::uint8_t> scalar = {1, 0, 0, 0};
    const auto csrValues = bytes(std::vector<float>{1.5f, -2.0f, 3.25f});
    const auto csrIndices = bytes(std::vector<std::uint64_t>{0, 3, 1});
    const auto csrIndptr = bytes(std::vector<std::uint64_t>{0, 2, 2, 3});
    const auto cooValues = bytes(std::vector<std::int32_t>{7, -8});
    const auto cooCoords = bytes(std::vector<std::uint64_t>{0, 2, 1, 0});
    std::vector<ztensor::ZtWriterTensor> tensors;
    tensors.push_back(
        {"weights",
         ztensor::ZtDType::Float32,
         {20, 15},
         "dense",
         {{"data", f32Bytes, ztensor::ZtEncoding::Zstd, ztensor::ZtDigestAlgorithm::Crc32c}}});
    tensors.push_back(
        {"raw",
         ztensor::ZtDType::Float32,
         {300},
         "dense",
         {{"data", f32Bytes, ztensor::ZtEncoding::Raw, ztensor::ZtDigestAlgorithm::Sha256}}});
    tensors.push_back({"ints",
                       ztensor::ZtDType::Int64,
                       {4},
                       "dense",
                       {{"data", i64Bytes, ztensor::ZtEncoding::Raw, std::nullopt}}});
    tensors.push_back({"scalar",
                       ztensor::ZtDType::Int32,
                       {},
                       "dense",
                       {{"data", scalar, ztensor::ZtEncoding::Raw, std::nullopt}}});
    tensors.push_back({"empty",
                       ztensor::ZtDType::Float64,
                       {0, 3},
                       "dense",
                       {{"data", {}, ztensor::ZtEncoding::Raw, std::nullopt}}});
    tensors.push_back(
        {"csr",
         ztensor::ZtDType::Float32,
         {3, 4},
         "sparse_csr",
         {{"values", csrValues, ztensor::ZtEncoding::Raw, std::nullopt},
          {"indices", csrIndices, ztensor::ZtEncoding::Zstd, std::nullopt},
          {"indptr", csrIndptr, ztensor::ZtEncoding::Raw, ztensor::ZtDigestAlgorithm::Crc32c}}});
    tensors.push_back({"coo",
                       ztensor::ZtDType::Int32,
                       {3, 2},
                       "sparse_coo",
                       {{"values", cooValues, ztensor::ZtEncoding::Raw, std::nullopt},
                        {"coords", cooCoords, ztensor::ZtEncoding::Raw, std::nullopt}}});
    ztensor::ZtWriterOptions options;
    options.attributes = {{"author", "sweep"}, {"empty", ""}, {"note", "λ"}};
    const fs::path many = dir / "many.zt";
    ztensor::ztWriteFile(many, tensors, options);
    const fs::path none = dir / "none.zt";
    ztensor::ztWriteFile(none, {}, options);

    test::ZtBuilder builder;
    const std::uint64_t at = builder.add(f32Bytes);
    nlohmann::json manifest = test::ztManifest(
        {{"x",
          {{"dtype", "float32"},
           {"shape", {300}},
           {"format", "dense"},
           {"note", {{"n", 12345678901234567890ull}}},
           {"components", {{"data", {{"offset", at}, {"length", 1200}, {"hint", 2.5}}}}}}}});
    manifest["provenance"] = {{"tool", "sweep"}, {"values", {1, 2.5, "three"}}};
    const fs::path extra = dir / "extra.zt";
    const auto file = builder.finish(manifest);
    std::ofstream(extra, std::ios::binary)
        .write(reinterpret_cast<const char*>(file.data()),
               static_cast<std::streamsize>(file.size()));
    return {many, none, extra};
}

std::vector<fs::path> generatedInputs(const fs::path& dir) {
    std::mt19937 rng(20261127);
    std::vector<fs::path> out;
    for (const auto& [name, generate] : std::vector<std::pair<
             std::string, std::function<std::vector<fs::path>(const fs::path&, std::mt19937&)>>>{
             {"zs", generateZs},
             {"zds", generateZds},
             {"ozdf", generateOzdf},
             {"shardlake", generateShardlake},
             {"ztensor", generateZt}}) {
        fs::create_directories(dir / name);
        const auto made = generate(dir / name, rng);
        out.insert(out.end(), made.begin(), made.end());
    }
    return out;
}

TEST(IdentitySweep, GeneratedInputsEqualThemselves) {
    test::ScratchDir scratch;
    const std::vector<fs::path> inputs = generatedInputs(scratch.path() / "in");
    ASSERT_EQ(inputs.size(), 13u);
    for (const fs::path& input : inputs) {
        EXPECT_NE(builtinFormats().detect(input).format, kRawBinaryFormat) << input;
        expectSelfDiffEmpty(input);
    }
}

TEST(IdentitySweep, GeneratedInputsRepairToThemselves) {
    test::ScratchDir scratch;
    std::size_t n = 0;
    for (const fs::path& input : generatedInputs(scratch.path() / "in")) {
        expectRepairIsIdentity(input, outputFor(input, scratch.path(), n++));
    }
}

}  // namespace
}  // namespace strata
