#include <benchmark/benchmark.h>

#include "bench_data.h"
#include "formats/common/checksums.h"

namespace strata {
namespace {

template <class Fn>
void runOverBlock(benchmark::State& state, Fn fn) {
    const auto& block = bench::randomBlock();
    for (auto _ : state) {
        benchmark::DoNotOptimize(fn(block));
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) *
                            static_cast<std::int64_t>(block.size()));
}

void BM_Crc64Xz(benchmark::State& state) {
    runOverBlock(state, [](const auto& b) { return crc64xz(b); });
}
BENCHMARK(BM_Crc64Xz);

void BM_Crc32c(benchmark::State& state) {
    runOverBlock(state, [](const auto& b) { return crc32c(b); });
}
BENCHMARK(BM_Crc32c);

void BM_Crc32cTable(benchmark::State& state) {
    runOverBlock(state, [](const auto& b) { return crc32cTable(b); });
}
BENCHMARK(BM_Crc32cTable);

void BM_Sha256(benchmark::State& state) {
    runOverBlock(state, [](const auto& b) { return sha256(b); });
}
BENCHMARK(BM_Sha256);

void BM_Fnv1a64(benchmark::State& state) {
    runOverBlock(state, [](const auto& b) { return fnv1a64(b); });
}
BENCHMARK(BM_Fnv1a64);

}  // namespace
}  // namespace strata
