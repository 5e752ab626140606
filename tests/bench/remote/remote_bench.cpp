// Full scans of a 256 MiB file: memory-mapped locally, and over HTTP from nginx on 127.0.0.1
// through RemoteByteSource (cold cache each iteration), one reader or two, with and without
// per-byte work (SHA-256, as a validator hashing content would do).
#include <benchmark/benchmark.h>
#include <openssl/evp.h>

#include <fstream>
#include <memory>
#include <thread>

#include "formats/common/byte_source.h"
#include "formats/remote/remote_session.h"
#include "remote_servers.h"

namespace strata {
namespace {

constexpr std::uint64_t kFileSize = 256ull * 1024 * 1024;
constexpr std::uint64_t kView = 1024 * 1024;

struct Site {
    std::unique_ptr<test::TempDir> root;
    std::unique_ptr<test::NginxServer> nginx;
    std::string error;
    std::string url;
    std::filesystem::path path;

    static Site& get() {
        static Site site = [] {
            Site s;
            s.error = test::nginxMissing();
            if (!s.error.empty()) {
                return s;
            }
            s.root = std::make_unique<test::TempDir>("strata-bench-www");
            s.path = s.root->path() / "scan.bin";
            std::ofstream out(s.path, std::ios::binary);
            const std::string chunk = test::patternBytes(kView, 1);
            for (std::uint64_t at = 0; at < kFileSize; at += kView) {
                out.write(chunk.data(), static_cast<std::streamsize>(chunk.size()));
            }
            out.close();
            s.nginx = std::make_unique<test::NginxServer>(s.root->path());
            s.url = s.nginx->url("/scan.bin");
            return s;
        }();
        return site;
    }
};

// Reads [begin, end) in 1 MiB views; `hash` adds SHA-256 over the bytes.
std::uint64_t scan(const ByteSource& source, std::uint64_t begin, std::uint64_t end, bool hash) {
    std::uint64_t sum = 0;
    EVP_MD_CTX* ctx = EVP_MD_CTX_new();
    EVP_DigestInit_ex(ctx, EVP_sha256(), nullptr);
    for (std::uint64_t at = begin; at < end; at += kView) {
        const ByteView v = source.view(at, std::min(kView, end - at));
        if (hash) {
            EVP_DigestUpdate(ctx, v.data(), v.size());
        } else {
            for (std::size_t i = 0; i < v.size(); i += 64) {
                sum += v.data()[i];
            }
        }
    }
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned length = 0;
    EVP_DigestFinal_ex(ctx, digest, &length);
    EVP_MD_CTX_free(ctx);
    return sum + digest[0];
}

void scanWith(benchmark::State& state, const ByteSource& source, unsigned readers, bool hash) {
    std::vector<std::thread> threads;
    const std::uint64_t part = kFileSize / readers;
    for (unsigned r = 0; r < readers; ++r) {
        threads.emplace_back(
            [&, r] { benchmark::DoNotOptimize(scan(source, r * part, (r + 1) * part, hash)); });
    }
    for (auto& t : threads) {
        t.join();
    }
    state.SetBytesProcessed(state.bytes_processed() + static_cast<std::int64_t>(kFileSize));
}

// Args: readers, hash (0/1).
void BM_LocalScan(benchmark::State& state) {
    Site& site = Site::get();
    if (!site.error.empty()) {
        state.SkipWithError(site.error.c_str());
        return;
    }
    const auto source = openMappedFile(site.path);
    for (auto _ : state) {
        scanWith(state, *source, static_cast<unsigned>(state.range(0)), state.range(1) != 0);
    }
}

// Args: readers, hash (0/1), requests in flight.
void BM_RemoteScan(benchmark::State& state) {
    Site& site = Site::get();
    if (!site.error.empty()) {
        state.SkipWithError(site.error.c_str());
        return;
    }
    std::uint64_t requests = 0;
    for (auto _ : state) {
        RemoteOptions o;
        o.parallelRequests = static_cast<unsigned>(state.range(2));
        const auto session = makeRemoteSession(o);
        const auto source = session->open(Location::parse(site.url));
        scanWith(state, *source, static_cast<unsigned>(state.range(0)), state.range(1) != 0);
        requests += session->counters().requests;
    }
    state.counters["requests"] =
        benchmark::Counter(static_cast<double>(requests), benchmark::Counter::kAvgIterations);
}

BENCHMARK(BM_LocalScan)
    ->ArgsProduct({{1, 2}, {0, 1}})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RemoteScan)
    ->ArgsProduct({{1, 2}, {0, 1}, {1, 4}})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace strata
