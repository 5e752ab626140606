// Shardlake benchmarks: exact top-10 over 200,000 × 128 f32 vectors, an index build of the same
// data from its vectors JSONL, and opening a 1 GiB shard. The data is generated once per run in
// a scratch folder (about 0.3 GB of JSONL, 0.1 GB of shards, a sparse 1 GiB file).
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdlib>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "formats/builtin/builtin_formats.h"
#include "formats/shardlake/shardlake_builder.h"
#include "formats/shardlake/shardlake_distance_kernels.h"
#include "formats/shardlake/shardlake_json_writer.h"
#include "formats/shardlake/shardlake_search.h"
#include "formats/shardlake/shardlake_store.h"
#include "formats/shardlake/shardlake_validator.h"

namespace {

namespace fs = std::filesystem;
namespace sl = strata::shardlake;

constexpr std::size_t kVectors = 200000;
constexpr std::size_t kDims = 128;

fs::path scratchDir() {
    static const fs::path dir = [] {
        fs::path p = fs::temp_directory_path() / ("strata-sl-bench-" + std::to_string(::getpid()));
        fs::create_directories(p);
        std::atexit([] {
            std::error_code ignored;
            fs::remove_all(
                fs::temp_directory_path() / ("strata-sl-bench-" + std::to_string(::getpid())),
                ignored);
        });
        return p;
    }();
    return dir;
}

// 200,000 × 128 vectors around 64 random centres, as ingest input JSONL.
const fs::path& vectorsJsonl() {
    static const fs::path path = [] {
        const fs::path p = scratchDir() / "vectors.jsonl";
        std::mt19937 rng(7);
        std::normal_distribution<float> noise(0.0f, 0.3f);
        std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
        std::vector<float> centres(64 * kDims);
        for (float& c : centres) {
            c = uniform(rng);
        }
        std::ofstream out(p);
        std::string line;
        for (std::size_t i = 0; i < kVectors; ++i) {
            line = "{\"id\": " + std::to_string(i + 1) + ", \"vector\": [";
            const float* centre = centres.data() + (i % 64) * kDims;
            for (std::size_t j = 0; j < kDims; ++j) {
                line += (j == 0 ? "" : ", ") + sl::formatF32(centre[j] + noise(rng));
            }
            line += "]}\n";
            out << line;
        }
        return p;
    }();
    return path;
}

// A root with the dataset ingested and a 32-shard euclidean index built (once).
const fs::path& builtRoot() {
    static const fs::path root = [] {
        const fs::path r = scratchDir() / "root";
        sl::IngestRequest ingest;
        ingest.root = r;
        ingest.input = vectorsJsonl();
        ingest.datasetVersion = "ds";
        ingest.replace = true;
        if (!sl::ingestVectors(ingest).ok) {
            std::abort();
        }
        sl::BuildRequest build;
        build.root = r;
        build.datasetVersion = "ds";
        build.indexVersion = "idx";
        build.metric = sl::Metric::Euclidean;
        build.numShards = 32;
        build.replace = true;
        if (!sl::buildIndex(build).ok) {
            std::abort();
        }
        return r;
    }();
    return root;
}

void BM_ShardlakeExactTop10(benchmark::State& state) {
    const sl::Store store(builtRoot());
    const sl::IndexLoad load = sl::loadIndex(store, "idx");
    if (!load.index) {
        state.SkipWithError(load.error.c_str());
        return;
    }
    std::vector<float> query(kDims, 0.25f);
    sl::SearchOptions options;
    options.k = 10;
    options.nprobe = 0;  // every shard: exact over all 200,000 vectors
    options.threads = static_cast<unsigned>(state.range(0));
    for (auto _ : state) {
        sl::SearchResult result = sl::searchIndex(*load.index, query, options);
        benchmark::DoNotOptimize(result.hits.data());
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kVectors));
    state.SetLabel(sl::distanceKernelVariant());
}
BENCHMARK(BM_ShardlakeExactTop10)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

void BM_ShardlakeBuildIndex(benchmark::State& state) {
    builtRoot();  // the dataset is ingested outside the timing
    for (auto _ : state) {
        sl::BuildRequest build;
        build.root = builtRoot();
        build.datasetVersion = "ds";
        build.indexVersion = "idx-bench";
        build.metric = sl::Metric::Euclidean;
        build.numShards = 32;
        build.replace = true;
        build.threads = static_cast<unsigned>(state.range(0));
        const sl::BuildOutcome outcome = sl::buildIndex(build);
        if (!outcome.ok) {
            state.SkipWithError(outcome.error.c_str());
            return;
        }
    }
}
BENCHMARK(BM_ShardlakeBuildIndex)->Arg(2)->Iterations(3)->Unit(benchmark::kMillisecond);

void BM_ShardlakeIngest(benchmark::State& state) {
    for (auto _ : state) {
        sl::IngestRequest ingest;
        ingest.root = scratchDir() / "ingest";
        ingest.input = vectorsJsonl();
        ingest.datasetVersion = "ds";
        ingest.replace = true;
        if (!sl::ingestVectors(ingest).ok) {
            state.SkipWithError("ingest failed");
            return;
        }
    }
}
BENCHMARK(BM_ShardlakeIngest)->Iterations(2)->Unit(benchmark::kMillisecond);

// Full validation of the built root: the dataset's 200,000 lines parsed, every shard
// fingerprinted and checked record by record, every record compared with the dataset.
void BM_ShardlakeValidateRoot(benchmark::State& state) {
    const auto store = std::make_shared<sl::Store>(builtRoot());
    for (auto _ : state) {
        strata::CollectingSink sink;
        strata::ValidationOptions options;
        options.threads = static_cast<unsigned>(state.range(0));
        sl::makeShardlakeValidator(store, {})->run(sink, options);
        if (sink.countOf(strata::Severity::Error) != 0) {
            state.SkipWithError("the benchmark root does not validate");
            return;
        }
    }
}
BENCHMARK(BM_ShardlakeValidateRoot)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

// A sparse 1 GiB raw shard: header, one centroid, and records that are zeros.
const fs::path& gibShard() {
    static const fs::path path = [] {
        const fs::path p = scratchDir() / "big.sidx";
        const std::uint64_t recordSize = 8 + 4 * kDims;
        const std::uint64_t records = ((1ull << 30) - 32 - 4 * kDims) / recordSize;
        std::string header("SLKIDX\0\0", 8);
        for (std::uint32_t v : {1u, 0u, static_cast<std::uint32_t>(kDims), 1u}) {
            header.append(reinterpret_cast<const char*>(&v), 4);
        }
        header.append(reinterpret_cast<const char*>(&records), 8);
        std::ofstream(p, std::ios::binary) << header;
        fs::resize_file(p, 32 + 4 * kDims + records * recordSize);
        return p;
    }();
    return path;
}

void BM_ShardlakeOpenGiBShard(benchmark::State& state) {
    const fs::path path = gibShard();
    for (auto _ : state) {
        auto document = strata::builtinFormats().open(path);
        benchmark::DoNotOptimize(document.get());
    }
    state.SetLabel(std::to_string(fs::file_size(path) >> 20) + " MiB");
}
BENCHMARK(BM_ShardlakeOpenGiBShard)->Unit(benchmark::kMillisecond);

}  // namespace
