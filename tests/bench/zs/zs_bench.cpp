// ZS: open, prefix query, validation and building, in process (no start-up cost).
//   STRATA_CORPUS_DIR  corpus root (big-ngrams-1m.zs for the queries)
//   STRATA_BENCH_DIR   scratch folder for generated files (default /tmp/strata-bench)
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "formats/common/byte_source.h"
#include "formats/common/diagnostic.h"
#include "formats/zs/zs_diff.h"
#include "formats/zs/zs_reader.h"
#include "formats/zs/zs_validator.h"
#include "formats/zs/zs_writer.h"

namespace {

namespace fs = std::filesystem;
using namespace strata;

fs::path benchDir() {
    const char* dir = std::getenv("STRATA_BENCH_DIR");
    fs::path path = dir != nullptr ? dir : "/tmp/strata-bench";
    fs::create_directories(path);
    return path;
}

fs::path corpusFile(const char* relative) {
    const char* dir = std::getenv("STRATA_CORPUS_DIR");
    return fs::path(dir != nullptr ? dir : "../shared/corpus") / "zs" / relative;
}

// `count` sorted ngram-like records of about `width` bytes each.
std::vector<std::string> sortedRecords(std::size_t first, std::size_t count, std::size_t width) {
    std::vector<std::string> records;
    records.reserve(count);
    char key[32];
    for (std::size_t i = first; i < first + count; ++i) {
        std::snprintf(key, sizeof key, "%012zu\t", i);
        std::string record(key);
        record.resize(width, static_cast<char>('a' + i % 26));
        records.push_back(std::move(record));
    }
    return records;
}

// Builds `name` once from `totalBytes` of sorted records (kept between runs).
fs::path generatedFile(const std::string& name, std::uint64_t totalBytes, zs::Codec codec) {
    const fs::path path = benchDir() / name;
    if (fs::exists(path)) {
        return path;
    }
    zs::WriterOptions options;
    options.codec = codec;
    options.approxBlockSize = 1 << 20;
    const fs::path partial = path.string() + ".part";
    fs::remove(partial);
    {
        zs::ZsWriter writer(partial, nlohmann::ordered_json::object(), options);
        constexpr std::size_t kWidth = 100;
        const std::size_t perBlock = options.approxBlockSize / kWidth;
        for (std::uint64_t done = 0, first = 0; done < totalBytes;
             done += perBlock * kWidth, first += perBlock) {
            writer.addBlock(sortedRecords(first, perBlock, kWidth));
        }
        writer.finish();
    }
    fs::rename(partial, path);
    return path;
}

// Open = map + header + root index block; should not depend on the size of the file.
void BM_ZsOpen1GiB(benchmark::State& state) {
    const fs::path path = generatedFile("open-1gib.zs", std::uint64_t{1} << 30, zs::Codec::None);
    for (auto _ : state) {
        auto file = zs::ZsFile::open(openMappedFile(path));
        benchmark::DoNotOptimize(file->rootBlock());
    }
}
BENCHMARK(BM_ZsOpen1GiB)->Unit(benchmark::kMicrosecond);

// `dump --prefix='kato '` on the corpus's 1M-record file, file already open (warm).
void BM_ZsPrefixQuery(benchmark::State& state) {
    const fs::path path = corpusFile("valid/big-ngrams-1m.zs");
    if (!fs::exists(path)) {
        state.SkipWithError("big-ngrams-1m.zs not found: set STRATA_CORPUS_DIR");
        return;
    }
    auto file = zs::ZsFile::open(openMappedFile(path));
    std::size_t records = 0;
    for (auto _ : state) {
        records = file->findPrefix("kato ").size();
        benchmark::DoNotOptimize(records);
    }
    state.counters["records"] = static_cast<double>(records);
}
BENCHMARK(BM_ZsPrefixQuery)->Unit(benchmark::kMicrosecond);

// Whole-file validation (CRC, decode, order, index) of ~64 MiB of lzma- or deflate-coded data.
void validate(benchmark::State& state, zs::Codec codec, const char* name) {
    constexpr std::uint64_t kBytes = std::uint64_t{64} << 20;
    const fs::path path = generatedFile(name, kBytes, codec);
    for (auto _ : state) {
        auto file = zs::ZsFile::open(openMappedFile(path));
        zs::ZsValidator validator(file);
        CollectingSink sink;
        validator.run(sink, ValidationOptions{});
        benchmark::DoNotOptimize(sink);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * kBytes));
}
void BM_ZsValidateLzma(benchmark::State& state) {
    validate(state, zs::Codec::Lzma2, "validate-64mib-lzma.zs");
}
void BM_ZsValidateDeflate(benchmark::State& state) {
    validate(state, zs::Codec::Deflate, "validate-64mib-deflate.zs");
}
BENCHMARK(BM_ZsValidateLzma)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ZsValidateDeflate)->Unit(benchmark::kMillisecond)->UseRealTime();

// Comparing two files of the same ~64 MiB of records (deflate against deflate, and deflate
// against lzma: the same records in another codec), to hold against validating one.
struct NullDiffSink final : DiffSink {
    std::uint64_t seen = 0;
    bool add(Difference) override {
        ++seen;
        return true;
    }
};
void compare(benchmark::State& state, zs::Codec codecB, const char* nameB) {
    constexpr std::uint64_t kBytes = std::uint64_t{64} << 20;
    const fs::path a = generatedFile("validate-64mib-deflate.zs", kBytes, zs::Codec::Deflate);
    const fs::path b = generatedFile(nameB, kBytes, codecB);
    for (auto _ : state) {
        auto differ =
            makeZsDiffer(zs::ZsFile::open(openMappedFile(a)), zs::ZsFile::open(openMappedFile(b)));
        NullDiffSink sink;
        differ->run(sink, DiffOptions{});
        benchmark::DoNotOptimize(sink.seen);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * kBytes));
}
void BM_ZsCompareDeflateDeflate(benchmark::State& state) {
    compare(state, zs::Codec::Deflate, "validate-64mib-deflate.zs");
}
void BM_ZsCompareDeflateLzma(benchmark::State& state) {
    compare(state, zs::Codec::Lzma2, "validate-64mib-lzma.zs");
}
BENCHMARK(BM_ZsCompareDeflateDeflate)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ZsCompareDeflateLzma)->Unit(benchmark::kMillisecond)->UseRealTime();

// Building 32 MiB of records with the default codec on every core.
void BM_ZsMakeLzma(benchmark::State& state) {
    constexpr std::size_t kWidth = 100;
    constexpr std::size_t kRecords = (std::size_t{32} << 20) / kWidth;
    const auto records = sortedRecords(0, kRecords, kWidth);
    const fs::path path = benchDir() / "make-bench.zs";
    for (auto _ : state) {
        fs::remove(path);
        zs::ZsWriter writer(path, nlohmann::ordered_json::object(), zs::WriterOptions{});
        const std::size_t perBlock = zs::WriterOptions{}.approxBlockSize / kWidth;
        for (std::size_t i = 0; i < records.size(); i += perBlock) {
            const std::size_t end = std::min(records.size(), i + perBlock);
            writer.addBlock({records.begin() + static_cast<std::ptrdiff_t>(i),
                             records.begin() + static_cast<std::ptrdiff_t>(end)});
        }
        writer.finish();
    }
    fs::remove(path);
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * kRecords * kWidth));
}
BENCHMARK(BM_ZsMakeLzma)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(2);

}  // namespace
