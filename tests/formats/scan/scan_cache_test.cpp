// The results cache: a rerun takes unchanged entries from it without reading them, checks
// changed ones again, and a cancelled scan resumes from what it had finished.
#include <gtest/gtest.h>

#include <fstream>

#include "formats/scan/scan_cache.h"
#include "scan_test_support.h"
#include "scratch_dir.h"

namespace strata::scan::test {

namespace {

namespace fs = std::filesystem;

ScanOptions withCache(ScanCache& cache) {
    ScanOptions options;
    options.jobs = 3;
    options.cache = &cache;
    return options;
}

// Every file's bytes replaced by zeros of the same length, its modification time kept: a scan
// that read any of them would find it damaged.
void poisonKeepingVersions(const fs::path& root) {
    for (const auto& e : fs::recursive_directory_iterator(root)) {
        if (!e.is_regular_file()) {
            continue;
        }
        const auto modified = fs::last_write_time(e.path());
        const auto size = e.file_size();
        std::ofstream(e.path(), std::ios::binary | std::ios::trunc)
            << std::string(static_cast<std::size_t>(size), '\0');
        fs::last_write_time(e.path(), modified);
    }
}

TEST(ScanCache, ARerunReadsNothingThatDidNotChange) {
    strata::test::ScratchDir dir("scan_cache_local");
    const GeneratedTree tree = generateTree(dir.path(), {60, 60, 20, 10, 15, 10}, 99);
    const Location root = Location::local(tree.root);
    std::map<std::string, ScanResult> first;
    {
        ScanCache cache(dir / "cache", "test");
        CollectingScanSink sink;
        runScan(builtinRegistry(), withCache(cache), localFileTree(), root, sink);
        first = sink.byPath();
    }
    ASSERT_EQ(first.size(), tree.expected.size());

    poisonKeepingVersions(tree.root);
    ScanCache cache(dir / "cache", "test");
    EXPECT_EQ(cache.indexed(), tree.expected.size() - 0);
    Scanner scanner(builtinRegistry(), withCache(cache));
    CollectingScanSink again;
    scanner.run(localFileTree(), root, again);
    EXPECT_EQ(scanner.counters().fromCache, tree.expected.size());
    for (const auto& [path, r] : again.byPath()) {
        EXPECT_TRUE(r.fromCache) << path;
        EXPECT_EQ(r.verdict, first.at(path).verdict) << path;  // not the poisoned bytes'
        EXPECT_EQ(r.errors, first.at(path).errors) << path;
    }
}

TEST(ScanCache, AChangedEntryIsCheckedAgain) {
    strata::test::ScratchDir dir("scan_cache_changed");
    const GeneratedTree tree = generateTree(dir.path(), {16, 0, 0, 0, 0, 0}, 42);
    const Location root = Location::local(tree.root);
    {
        ScanCache cache(dir / "cache", "test");
        CollectingScanSink sink;
        runScan(builtinRegistry(), withCache(cache), localFileTree(), root, sink);
    }
    const fs::path changed = tree.root / "zs/g0/e0.zs";
    fs::resize_file(changed, fs::file_size(changed) / 2);
    ScanCache cache(dir / "cache", "test");
    CollectingScanSink sink;
    runScan(builtinRegistry(), withCache(cache), localFileTree(), root, sink);
    for (const auto& [path, r] : sink.byPath()) {
        EXPECT_EQ(r.fromCache, path != "zs/g0/e0.zs") << path;
    }
    EXPECT_EQ(sink.byPath().at("zs/g0/e0.zs").verdict, Verdict::Damaged);

    ScanCache newVersion(dir / "cache", "another Strata");  // a new salt: nothing is reused
    CollectingScanSink fresh;
    runScan(builtinRegistry(), withCache(newVersion), localFileTree(), root, fresh);
    for (const ScanResult& r : fresh.results) {
        EXPECT_FALSE(r.fromCache) << r.entry.relativePath;
    }
}

TEST(ScanCache, ObjectsWithAnEtagAreNotOpenedAgain) {
    strata::test::ScratchDir dir("scan_cache_remote");
    const GeneratedTree tree = generateTree(dir.path(), {1, 0, 0, 0, 0, 0}, 1);
    std::ifstream in(tree.root / "zs/g0/e0.zs", std::ios::binary);
    const std::string bytes(std::istreambuf_iterator<char>(in), {});
    auto remote = std::make_shared<VirtualTree>(
        std::vector<std::uint8_t>(bytes.begin(), bytes.end()), 1500, 3);
    {
        ScanCache cache(dir / "cache", "test");
        CollectingScanSink sink;
        runScan(builtinRegistry(), withCache(cache), remote, remote->root(), sink);
        ASSERT_EQ(sink.results.size(), 1500u);
    }
    const std::size_t openedFirst = remote->opened();
    EXPECT_GE(openedFirst, 1500u);
    ScanCache cache(dir / "cache", "test");
    CollectingScanSink sink;
    runScan(builtinRegistry(), withCache(cache), remote, remote->root(), sink);
    EXPECT_EQ(sink.results.size(), 1500u);
    EXPECT_EQ(remote->opened(), openedFirst) << "a cached object was read again";
}

TEST(ScanCache, ACancelledScanResumesWhereItStopped) {
    strata::test::ScratchDir dir("scan_cache_resume");
    const GeneratedTree tree = generateTree(dir.path(), {300, 0, 0, 0, 0, 0}, 8);
    const Location root = Location::local(tree.root);
    std::size_t finished = 0;
    {
        ScanCache cache(dir / "cache", "test");
        CancelToken cancel;
        ScanOptions options = withCache(cache);
        options.cancel = &cancel;
        struct StopAfter : CollectingScanSink {
            CancelToken* token = nullptr;
            void checked(const ScanResult& r) override {
                CollectingScanSink::checked(r);
                if (results.size() == 100) {
                    token->cancel();
                }
            }
        } sink;
        sink.token = &cancel;
        EXPECT_EQ(runScan(builtinRegistry(), options, localFileTree(), root, sink).outcome,
                  JobOutcome::Cancelled);
        finished = sink.results.size();
    }  // the cache writes its last batch as it closes
    ScanCache cache(dir / "cache", "test");
    Scanner scanner(builtinRegistry(), withCache(cache));
    CollectingScanSink sink;
    scanner.run(localFileTree(), root, sink);
    EXPECT_EQ(sink.results.size(), 300u);
    EXPECT_EQ(scanner.counters().fromCache, finished);
}

TEST(ScanCache, DamagedSegmentsAreSkipped) {
    strata::test::ScratchDir dir("scan_cache_damaged");
    fs::create_directories(dir / "cache");
    std::ofstream(dir / "cache/results-1.jsonl") << "not json\n{\"cache_key\": 7}\n"
                                                 << std::string(3 << 20, 'x') << "\n{}\n";
    ScanCache cache(dir / "cache", "test");
    EXPECT_EQ(cache.indexed(), 0u);
    EXPECT_EQ(cache.skippedLines(), 4u);
}

}  // namespace

}  // namespace strata::scan::test
