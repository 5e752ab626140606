#include <benchmark/benchmark.h>

#include "bench_data.h"
#include "formats/common/codec_deflate.h"
#include "formats/common/codec_lzma2.h"
#include "formats/common/codec_zstd.h"

namespace strata {
namespace {

// Decompresses a 1 MiB text block compressed once with the codec's default settings.
template <class Decode>
void runDecode(benchmark::State& state, const std::vector<std::uint8_t>& packed, Decode decode) {
    for (auto _ : state) {
        const DecodeResult result = decode(packed);
        if (!result.ok()) {
            state.SkipWithError(result.message.c_str());
            return;
        }
        benchmark::DoNotOptimize(result.data.data());
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) *
                            static_cast<std::int64_t>(bench::kBlockSize));
    state.counters["ratio"] =
        static_cast<double>(bench::kBlockSize) / static_cast<double>(packed.size());
}

void BM_DeflateDecompress(benchmark::State& state) {
    static const auto packed = deflateCompress(bench::textBlock());
    runDecode(state, packed, [](const auto& p) { return deflateDecompress(p, bench::kBlockSize); });
}
BENCHMARK(BM_DeflateDecompress);

void BM_Lzma2Decompress(benchmark::State& state) {
    static const auto packed = lzma2Compress(bench::textBlock());  // preset 0e, the ZS default
    runDecode(state, packed, [](const auto& p) { return lzma2Decompress(p, bench::kBlockSize); });
}
BENCHMARK(BM_Lzma2Decompress);

void BM_ZstdDecompress(benchmark::State& state) {
    static const auto packed = zstdCompress(bench::textBlock());
    runDecode(state, packed, [](const auto& p) { return zstdDecompress(p, bench::kBlockSize); });
}
BENCHMARK(BM_ZstdDecompress);

void BM_DeflateCompress(benchmark::State& state) {
    for (auto _ : state) {
        benchmark::DoNotOptimize(deflateCompress(bench::textBlock()).data());
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) *
                            static_cast<std::int64_t>(bench::kBlockSize));
}
BENCHMARK(BM_DeflateCompress)->Unit(benchmark::kMillisecond);

void BM_Lzma2Compress0e(benchmark::State& state) {
    for (auto _ : state) {
        benchmark::DoNotOptimize(lzma2Compress(bench::textBlock()).data());
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) *
                            static_cast<std::int64_t>(bench::kBlockSize));
}
BENCHMARK(BM_Lzma2Compress0e)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace strata
