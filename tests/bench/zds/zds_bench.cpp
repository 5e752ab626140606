// ZDS benchmarks: ZDX rebuild throughput over a large JSONL file, opening a collection of a
// million documents through its index, get by id, full validation. The inputs are generated once
// into $STRATA_BENCH_DIR (default: the system temporary folder) and reused across runs:
//   zds-bench/big.jsonl     STRATA_ZDS_BENCH_MB megabytes (default 1024) of small documents
//   zds-bench/million/      1,000,000 documents {"_id":"k00000000","i":N,"t":"small doc"},
//                           the same layout as the reference's timing run, written by Strata
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "formats/common/byte_source.h"
#include "formats/common/diagnostic.h"
#include "formats/zds/zds_jobs.h"
#include "formats/zds/zds_line_index.h"
#include "formats/zds/zds_reader.h"
#include "formats/zds/zds_validator.h"
#include "formats/zds/zds_writer.h"

namespace strata {
namespace {

namespace fs = std::filesystem;

constexpr int kMillion = 1000000;

fs::path benchDir() {
    const char* env = std::getenv("STRATA_BENCH_DIR");
    fs::path dir = (env != nullptr ? fs::path(env) : fs::temp_directory_path()) / "zds-bench";
    fs::create_directories(dir);
    return dir;
}

std::uint64_t bigMegabytes() {
    const char* env = std::getenv("STRATA_ZDS_BENCH_MB");
    return env != nullptr ? std::strtoull(env, nullptr, 10) : 1024;
}

std::string docLine(std::uint64_t i) {
    char id[16];
    std::snprintf(id, sizeof id, "k%08llu", static_cast<unsigned long long>(i));
    return std::string(R"({"_id":")") + id + R"(","i":)" + std::to_string(i) +
           R"(,"t":"small doc"})";
}

const fs::path& bigJsonl() {
    static const fs::path path = [] {
        const fs::path p = benchDir() / "big.jsonl";
        const std::uint64_t want = bigMegabytes() << 20;
        std::error_code ec;
        if (fs::exists(p, ec) && fs::file_size(p, ec) >= want) {
            return p;
        }
        std::ofstream out(p, std::ios::binary | std::ios::trunc);
        std::string chunk;
        std::uint64_t written = 0;
        for (std::uint64_t i = 0; written < want; ++i) {
            chunk += docLine(i) + "\n";
            if (chunk.size() > (1u << 20)) {
                out << chunk;
                written += chunk.size();
                chunk.clear();
            }
        }
        return p;
    }();
    return path;
}

const fs::path& millionDataset() {
    static const fs::path path = [] {
        const fs::path p = benchDir() / "million";
        std::error_code ec;
        if (fs::exists(p / "collections/default/meta/index.bin", ec)) {
            return p;
        }
        zds::ZdsCollectionWrite w;
        w.name = "default";
        w.documents.reserve(kMillion);
        for (int i = 0; i < kMillion; ++i) {
            w.documents.push_back(zds::ZdsWriteDoc::text(docLine(static_cast<std::uint64_t>(i))));
        }
        zds::writeZdsDataset(nullptr, {w}, p);
        return p;
    }();
    return path;
}

// index.bin rebuilt from data.jsonl: the ZDX bytes, no entry kept per line.
void BM_ZdxRebuild(benchmark::State& state) {
    const ByteSourcePtr data = openMappedFile(bigJsonl());
    zds::ZdsIndexOptions options;
    options.threads = static_cast<unsigned>(state.range(0));
    std::uint64_t entries = 0;
    for (auto _ : state) {
        const auto zdx = zds::buildZdxFromJsonl(*data, options);
        entries = zdx->indexed;
        benchmark::DoNotOptimize(zdx->parts.data());
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * data->size()));
    state.counters["documents"] = static_cast<double>(entries);
}
BENCHMARK(BM_ZdxRebuild)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

// index.bin as reindex writes it: only the last line of each id, repeated ids found by hashing.
void BM_ZdxRebuildLive(benchmark::State& state) {
    const ByteSourcePtr data = openMappedFile(bigJsonl());
    zds::ZdsIndexOptions options;
    options.threads = static_cast<unsigned>(state.range(0));
    std::uint64_t entries = 0;
    for (auto _ : state) {
        const auto zdx = zds::buildLiveZdx(*data, options);
        entries = zdx->indexed;
        benchmark::DoNotOptimize(zdx->parts.data());
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * data->size()));
    state.counters["documents"] = static_cast<double>(entries);
}
BENCHMARK(BM_ZdxRebuildLive)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

// The whole `strata-cli zds reindex` job on a collection whose data.jsonl is the big file (a
// symbolic link): open, index, write index.bin through an AtomicFile (fsync'd).
void BM_ReindexJob(benchmark::State& state) {
    const fs::path root = benchDir() / "big-dataset";
    const fs::path meta = root / "collections/default/meta";
    fs::create_directories(meta);
    std::error_code ec;
    if (!fs::exists(meta / "data.jsonl", ec)) {
        fs::create_symlink(bigJsonl(), meta / "data.jsonl");
    }
    for (auto _ : state) {
        const zds::ZdsJobResult r = zds::reindexZds(root);
        benchmark::DoNotOptimize(r.documents);
    }
    state.SetBytesProcessed(
        static_cast<std::int64_t>(state.iterations() * fs::file_size(bigJsonl())));
}
BENCHMARK(BM_ReindexJob)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);

// The line table with one entry (id string, offset, length) per line (the slow path of reindex
// and compact, used when a line is beyond what ZDX can describe).
void BM_IndexJsonLines(benchmark::State& state) {
    const ByteSourcePtr data = openMappedFile(bigJsonl());
    zds::ZdsIndexOptions options;
    options.threads = 2;
    for (auto _ : state) {
        const auto lines = zds::indexJsonLines(*data, options);
        benchmark::DoNotOptimize(lines->data());
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * data->size()));
}
BENCHMARK(BM_IndexJsonLines)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);

void BM_OpenMillionWithIndex(benchmark::State& state) {
    const fs::path path = millionDataset();
    for (auto _ : state) {
        const auto ds = zds::ZdsDataset::open(path);
        const zds::ZdsCollection& c = *ds->collections.at(0);
        benchmark::DoNotOptimize(c.documentCount());
        benchmark::DoNotOptimize(c.documentBytes(kMillion / 2).size());
    }
}
BENCHMARK(BM_OpenMillionWithIndex)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_GetById(benchmark::State& state) {
    const auto ds = zds::ZdsDataset::open(millionDataset());
    const zds::ZdsCollection& c = *ds->collections.at(0);
    const zds::ZdsIdMap map(*c.zdx());
    std::mt19937 rng(7);
    std::uniform_int_distribution<int> pick(0, kMillion - 1);
    for (auto _ : state) {
        state.PauseTiming();
        char id[16];
        std::snprintf(id, sizeof id, "k%08d", pick(rng));
        state.ResumeTiming();
        const auto hit = map.find(id);
        const ByteView v = c.data->view(hit->offset, hit->length);
        benchmark::DoNotOptimize(v.data());
    }
}
BENCHMARK(BM_GetById)->Unit(benchmark::kMicrosecond);

void BM_BuildIdMap(benchmark::State& state) {
    const auto ds = zds::ZdsDataset::open(millionDataset());
    const zds::ZdsCollection& c = *ds->collections.at(0);
    for (auto _ : state) {
        const zds::ZdsIdMap map(*c.zdx());
        benchmark::DoNotOptimize(map.size());
    }
}
BENCHMARK(BM_BuildIdMap)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_OneGetWithoutMap(benchmark::State& state) {
    const auto ds = zds::ZdsDataset::open(millionDataset());
    const zds::ZdsCollection& c = *ds->collections.at(0);
    (void)c.zdx()->entryCount();
    for (auto _ : state) {
        benchmark::DoNotOptimize(zds::findIdInZdx(*c.zdx(), "k00999999"));
    }
}
BENCHMARK(BM_OneGetWithoutMap)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ValidateMillion(benchmark::State& state) {
    const fs::path path = millionDataset();
    const auto bytes = fs::file_size(path / "collections/default/meta/data.jsonl") +
                       fs::file_size(path / "collections/default/meta/index.bin");
    for (auto _ : state) {
        CollectingSink sink;
        ValidationOptions options;
        zds::makeZdsValidator(path)->run(sink, options);
        if (sink.countOf(Severity::Error) != 0) {
            state.SkipWithError("the generated dataset has errors");
        }
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
}
BENCHMARK(BM_ValidateMillion)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_WriteMillion(benchmark::State& state) {
    // Built once: the timing is the writer's, not a copy of a million strings per iteration.
    std::vector<zds::ZdsCollectionWrite> writes(1);
    zds::ZdsCollectionWrite& w = writes.front();
    w.name = "default";
    for (int i = 0; i < kMillion; ++i) {
        w.documents.push_back(zds::ZdsWriteDoc::text(docLine(static_cast<std::uint64_t>(i))));
    }
    const fs::path target = benchDir() / "write-million";
    for (auto _ : state) {
        zds::writeZdsDataset(nullptr, writes, target);
    }
    fs::remove_all(target);
}
BENCHMARK(BM_WriteMillion)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(2);

}  // namespace
}  // namespace strata
