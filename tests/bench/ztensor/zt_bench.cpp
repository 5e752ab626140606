// zTensor benchmarks: opening a 1 GiB file, full digest verification next to the memory-read
// bandwidth of the same mapped bytes, reading every tensor, and zstd re-encoding on 2 threads.
// The 1 GiB file is written once to $TMPDIR (64 float32 tensors of 16 MiB, crc32c digests) and
// kept for later runs. Run: strata_bench --benchmark_filter=Zt
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <thread>

#include "formats/common/byte_source.h"
#include "formats/common/diagnostic.h"
#include "formats/ztensor/zt_convert.h"
#include "formats/ztensor/zt_diff.h"
#include "formats/ztensor/zt_file.h"
#include "formats/ztensor/zt_logical.h"
#include "formats/ztensor/zt_validator.h"
#include "formats/ztensor/zt_writer.h"

namespace strata::bench {
namespace {

constexpr std::uint64_t kTensorBytes = 16ull << 20;

std::filesystem::path benchDir() {
    const char* tmp = std::getenv("TMPDIR");
    return std::filesystem::path(tmp != nullptr ? tmp : "/tmp");
}

// float32 values like trained weights: normal around 0, so zstd finds some redundancy in the
// exponent bytes but not much else.
std::vector<std::uint8_t> weights(std::uint64_t bytes, unsigned seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> normal(0.0f, 0.02f);
    std::vector<std::uint8_t> out(bytes);
    for (std::uint64_t at = 0; at + 4 <= bytes; at += 4) {
        const float v = normal(rng);
        std::memcpy(out.data() + at, &v, 4);
    }
    return out;
}

// A file of `tensors` × 16 MiB with crc32c digests, written once and reused.
std::filesystem::path benchFile(unsigned tensors) {
    const auto path = benchDir() / ("strata-zt-bench-" + std::to_string(tensors) + "x16MiB.zt");
    const std::uint64_t expected = static_cast<std::uint64_t>(tensors) * kTensorBytes;
    if (std::filesystem::exists(path) && std::filesystem::file_size(path) > expected) {
        return path;
    }
    std::vector<std::vector<std::uint8_t>> data;
    std::vector<ztensor::ZtWriterTensor> list;
    // Eight distinct blocks, reused, keep generation quick.
    for (unsigned i = 0; i < 8; ++i) {
        data.push_back(weights(kTensorBytes, i + 1));
    }
    for (unsigned i = 0; i < tensors; ++i) {
        ztensor::ZtWriterTensor t;
        t.name = "layer." + std::to_string(i) + ".weight";
        t.dtype = ztensor::ZtDType::Float32;
        t.shape = {4096, kTensorBytes / 4 / 4096};
        t.components.push_back(
            {"data", data[i % 8], ztensor::ZtEncoding::Raw, ztensor::ZtDigestAlgorithm::Crc32c});
        list.push_back(std::move(t));
    }
    ztensor::ztWriteFile(path, list);
    return path;
}

// A copy of the 1 GiB file with one float changed in one tensor (written once, kept).
std::filesystem::path editedBenchFile() {
    const auto from = benchFile(64);
    const auto path = benchDir() / "strata-zt-bench-64x16MiB-edited.zt";
    if (!std::filesystem::exists(path) ||
        std::filesystem::file_size(path) != std::filesystem::file_size(from)) {
        std::filesystem::copy_file(from, path, std::filesystem::copy_options::overwrite_existing);
        const auto file = ztensor::ZtFile::open(openMappedFile(from));
        const ztensor::ZtComponent* data = file->component(file->tensors()[10], "data");
        std::fstream out(path, std::ios::in | std::ios::out | std::ios::binary);
        out.seekp(static_cast<std::streamoff>(*data->offset + 4096));
        const float changed = 1.5f;
        out.write(reinterpret_cast<const char*>(&changed), sizeof changed);
    }
    return path;
}

void BM_ZtOpen1GiB(benchmark::State& state) {
    const auto path = benchFile(64);
    for (auto _ : state) {
        auto file = ztensor::ZtFile::open(openMappedFile(path));
        benchmark::DoNotOptimize(file->tensors().size());
    }
    state.counters["file_MiB"] = static_cast<double>(std::filesystem::file_size(path) >> 20);
}
BENCHMARK(BM_ZtOpen1GiB)->Unit(benchmark::kMillisecond);

void BM_ZtOpen16MiB(benchmark::State& state) {
    const auto path = benchFile(1);
    for (auto _ : state) {
        auto file = ztensor::ZtFile::open(openMappedFile(path));
        benchmark::DoNotOptimize(file->tensors().size());
    }
}
BENCHMARK(BM_ZtOpen16MiB)->Unit(benchmark::kMillisecond);

// The baseline: reading every byte of the same mapped file (64-bit loads, summed), on one thread
// or split in halves over two, as the validator can use both cores.
std::uint64_t sumWords(const std::uint8_t* p, std::size_t words) {
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < words; ++i) {
        std::uint64_t w;
        std::memcpy(&w, p + 8 * i, 8);
        sum += w;
    }
    return sum;
}

void BM_ZtMemoryRead1GiB(benchmark::State& state) {
    const auto source = openMappedFile(benchFile(64));
    const ByteView all = source->view(0, source->size());
    const std::size_t words = all.size() / 8;
    const bool twoThreads = state.range(0) == 2;
    for (auto _ : state) {
        if (!twoThreads) {
            benchmark::DoNotOptimize(sumWords(all.data(), words));
            continue;
        }
        std::uint64_t secondHalf = 0;
        std::thread helper(
            [&] { secondHalf = sumWords(all.data() + 8 * (words / 2), words - words / 2); });
        const std::uint64_t firstHalf = sumWords(all.data(), words / 2);
        helper.join();
        benchmark::DoNotOptimize(firstHalf + secondHalf);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * all.size()));
}
BENCHMARK(BM_ZtMemoryRead1GiB)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->MinTime(2.0);

// Two 1 GiB files compared value by value (one element differs) on `threads` workers: to hold
// against BM_ZtMemoryRead1GiB, bytes counted on both sides.
void BM_ZtCompare1GiB(benchmark::State& state) {
    const auto a = ztensor::ZtFile::open(openMappedFile(benchFile(64)));
    const auto b = ztensor::ZtFile::open(openMappedFile(editedBenchFile()));
    struct Count final : DiffSink {
        std::uint64_t seen = 0;
        bool add(Difference) override {
            ++seen;
            return true;
        }
    };
    for (auto _ : state) {
        Count sink;
        DiffOptions options;
        options.threads = static_cast<unsigned>(state.range(0));
        ztensor::makeZtDiffer(a, b)->run(sink, options);
        if (sink.seen != 1) {
            state.SkipWithError("expected exactly one changed tensor");
        }
    }
    state.SetBytesProcessed(
        static_cast<std::int64_t>(state.iterations() * (a->fileSize() + b->fileSize())));
}
BENCHMARK(BM_ZtCompare1GiB)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->MinTime(2.0);

void BM_ZtMemcpy256MiB(benchmark::State& state) {
    std::vector<std::uint8_t> from(256u << 20, 1);
    std::vector<std::uint8_t> to(from.size());
    for (auto _ : state) {
        std::memcpy(to.data(), from.data(), from.size());
        benchmark::DoNotOptimize(to.data());
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * from.size()));
}
BENCHMARK(BM_ZtMemcpy256MiB)->Unit(benchmark::kMillisecond)->UseRealTime();

// Full validation: every crc32c digest, padding and layout check; `threads` workers.
void BM_ZtVerifyDigests1GiB(benchmark::State& state) {
    const auto file = ztensor::ZtFile::open(openMappedFile(benchFile(64)));
    std::uint64_t errors = 0;
    for (auto _ : state) {
        CollectingSink sink;
        ValidationOptions options;
        options.threads = static_cast<unsigned>(state.range(0));
        ztensor::ZtValidator(file).run(sink, options);
        errors += sink.countOf(Severity::Error);
    }
    if (errors != 0) {
        state.SkipWithError("the benchmark file does not validate");
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * file->fileSize()));
}
BENCHMARK(BM_ZtVerifyDigests1GiB)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime()
    ->MinTime(2.0);

// Reading every tensor's logical bytes into memory, as the reference's read_tensor does (its
// "read every tensor" figure).
void BM_ZtReadAllTensors1GiB(benchmark::State& state) {
    const auto file = ztensor::ZtFile::open(openMappedFile(benchFile(64)));
    std::vector<std::uint8_t> tensor;
    for (auto _ : state) {
        for (const auto& t : file->tensors()) {
            tensor.clear();
            ztensor::ztReadComponent(*file, *file->component(t, "data"),
                                     [&](std::span<const std::uint8_t> piece) {
                                         tensor.insert(tensor.end(), piece.begin(), piece.end());
                                     });
            benchmark::DoNotOptimize(tensor.data());
        }
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * file->fileSize()));
}
BENCHMARK(BM_ZtReadAllTensors1GiB)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);

// raw → zstd (level 3, crc32c) of 256 MiB on `threads` workers, output discarded.
void BM_ZtReencodeZstd256MiB(benchmark::State& state) {
    const auto file = ztensor::ZtFile::open(openMappedFile(benchFile(16)));
    ztensor::ZtConvertPlan plan = ztensor::ztPlanFor(*file);
    ztensor::ztSetEncoding(plan, ztensor::ZtEncoding::Zstd);
    ztensor::ZtConvertOptions options;
    options.threads = static_cast<unsigned>(state.range(0));
    std::uint64_t written = 0;
    for (auto _ : state) {
        written = ztensor::ztConvert(
                      *file, plan, [](std::span<const std::uint8_t>) {}, options)
                      .bytesOut;
    }
    state.counters["ratio"] = static_cast<double>(written) / static_cast<double>(file->fileSize());
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * file->fileSize()));
}
BENCHMARK(BM_ZtReencodeZstd256MiB)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime()
    ->Iterations(3);

}  // namespace
}  // namespace strata::bench
