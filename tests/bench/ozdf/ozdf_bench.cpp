// OZDF load and save of a generated ~50 MB corpus shaped like the reference benchmark's (300
// standalone documents with a 20-item list, 100 directory documents with 20 parts each, eight
// wrapped paragraphs per item, some non-ASCII words). Peak memory is reported as a counter.
#include <benchmark/benchmark.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <vector>

#include "formats/ozdf/ozdf_parser.h"
#include "formats/ozdf/ozdf_save.h"
#include "ozdf_bench_corpus.h"

namespace strata::ozdf {
namespace {

namespace fs = std::filesystem;

// Written once per process; removed at exit.
const fs::path& corpusFolder() {
    static const fs::path folder = [] {
        const fs::path f =
            fs::temp_directory_path() / ("strata_ozdf_bench_" + std::to_string(::getpid()));
        fs::remove_all(f);
        saveCorpusToFolder(benchCorpus(), f);
        std::atexit([] { fs::remove_all(corpusFolder()); });
        return f;
    }();
    return folder;
}

std::uint64_t folderBytes(const fs::path& folder) {
    std::uint64_t total = 0;
    for (const auto& entry : fs::recursive_directory_iterator(folder)) {
        total += entry.is_regular_file() ? entry.file_size() : 0;
    }
    return total;
}

// User + system CPU time of the whole process (every thread), in milliseconds.
double processCpuMs() {
    rusage usage{};
    ::getrusage(RUSAGE_SELF, &usage);
    const auto ms = [](const timeval& t) {
        return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_usec) / 1e3;
    };
    return ms(usage.ru_utime) + ms(usage.ru_stime);
}

// Reports the process CPU time per iteration spent since `start` (all threads, kernel
// included): what a run costs the machine, whatever else is running on it.
void reportProcessCpu(benchmark::State& state, double start) {
    state.counters["process_cpu_ms"] =
        (processCpuMs() - start) /
        static_cast<double>(std::max<std::int64_t>(state.iterations(), 1));
}

double peakRssMiB() {
    rusage usage{};
    ::getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

void BM_OzdfLoadCorpus(benchmark::State& state) {
    const fs::path& folder = corpusFolder();
    const auto bytes = folderBytes(folder);
    const double cpuStart = processCpuMs();
    for (auto _ : state) {
        Corpus corpus = readCorpus(folder);
        benchmark::DoNotOptimize(corpus.documents.size());
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(bytes * state.iterations()));
    state.counters["corpus_MB"] = static_cast<double>(bytes) / 1e6;
    reportProcessCpu(state, cpuStart);
    state.counters["peak_rss_MiB"] = peakRssMiB();
}
BENCHMARK(BM_OzdfLoadCorpus)->Unit(benchmark::kMillisecond)->UseRealTime();

// Each run saves into a folder of its own; the outputs are removed once all runs are done, so
// no run pays for deleting the previous one's 2,400 files (nor for the file system's slower
// inode allocation right after mass deletions).
void BM_OzdfLoadAndSaveToNewFolder(benchmark::State& state) {
    const fs::path& folder = corpusFolder();
    const auto bytes = folderBytes(folder);
    static int run = 0;
    std::vector<fs::path> outputs;
    const double cpuStart = processCpuMs();
    for (auto _ : state) {
        outputs.push_back(folder.string() + "_out" + std::to_string(++run));
        Corpus corpus = readCorpus(folder);
        saveCorpusToFolder(corpus, outputs.back());
    }
    reportProcessCpu(state, cpuStart);
    for (const fs::path& out : outputs) {
        fs::remove_all(out);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(bytes * state.iterations()));
    state.counters["peak_rss_MiB"] = peakRssMiB();
}
BENCHMARK(BM_OzdfLoadAndSaveToNewFolder)->Unit(benchmark::kMillisecond)->UseRealTime();

// Saving alone (the corpus already read), to compare with the reference's "save alone".
void BM_OzdfSaveToNewFolder(benchmark::State& state) {
    const fs::path& folder = corpusFolder();
    const Corpus corpus = readCorpus(folder);
    static int run = 0;
    std::vector<fs::path> outputs;
    const double cpuStart = processCpuMs();
    for (auto _ : state) {
        outputs.push_back(folder.string() + "_save" + std::to_string(++run));
        saveCorpusToFolder(corpus, outputs.back());
    }
    reportProcessCpu(state, cpuStart);
    for (const fs::path& out : outputs) {
        fs::remove_all(out);
    }
    state.counters["peak_rss_MiB"] = peakRssMiB();
}
BENCHMARK(BM_OzdfSaveToNewFolder)->Unit(benchmark::kMillisecond)->UseRealTime();

// A save in place after one edit: every file is compared, one is rewritten.
void BM_OzdfSaveInPlaceOneEdit(benchmark::State& state) {
    const fs::path& folder = corpusFolder();
    Corpus corpus = readCorpus(folder);
    const auto footprints = footprintsOf(corpus);
    int round = 0;
    const double cpuStart = processCpuMs();
    for (auto _ : state) {
        corpus.documents[0].elements[0].paragraphs[0].text = "edit " + std::to_string(++round);
        saveCorpusInPlace(corpus, folder, footprints);
    }
    reportProcessCpu(state, cpuStart);
    state.counters["peak_rss_MiB"] = peakRssMiB();
}
BENCHMARK(BM_OzdfSaveInPlaceOneEdit)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace strata::ozdf
