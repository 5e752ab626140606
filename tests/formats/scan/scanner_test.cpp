// The scanner over generated local trees of every format: every entry found once, folder
// formats as one unit, verdicts as their validators give them, shards that add up to the whole,
// a format filter, unreadable entries, hostile listings, a bounded number in flight, pause and
// cancel.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <fstream>
#include <set>
#include <thread>

#include "formats/scan/scan_shard.h"
#include "scan_test_support.h"
#include "scratch_dir.h"

namespace strata::scan::test {

namespace {

namespace fs = std::filesystem;

// About two thousand entries of all five formats, a sixth of them damaged; made once.
class ScanTreeTest : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        scratch_ = new strata::test::ScratchDir("scan_tree");
        tree_ = new GeneratedTree(
            generateTree(scratch_->path(), {700, 700, 240, 100, 160, 100}, 20261129));
        full_ = new CollectingScanSink;
        ScanOptions options;
        options.jobs = 4;
        outcome_ = runScan(builtinRegistry(), options, localFileTree(),
                           Location::local(tree_->root), *full_);
    }
    static void TearDownTestSuite() {
        delete full_;
        delete tree_;
        delete scratch_;
    }

    static inline strata::test::ScratchDir* scratch_ = nullptr;
    static inline GeneratedTree* tree_ = nullptr;
    static inline CollectingScanSink* full_ = nullptr;
    static inline ScanOutcome outcome_;
};

void checkFolderUnits(const GeneratedTree& tree, const CollectingScanSink& full);
void checkDiagnostics(const GeneratedTree& tree, const CollectingScanSink& full);

TEST_F(ScanTreeTest, FindsEveryEntryOnceWithTheVerdictItsValidatorGives) {
    ASSERT_EQ(tree_->expected.size(), 2000u);
    EXPECT_EQ(outcome_.outcome, JobOutcome::Completed);
    EXPECT_FALSE(outcome_.listingFailed);
    ASSERT_EQ(full_->results.size(), tree_->expected.size());
    EXPECT_EQ(full_->listedCount, tree_->expected.size());
    const auto found = full_->byPath();
    ASSERT_EQ(found.size(), tree_->expected.size()) << "an entry was reported twice";
    std::size_t damaged = 0;
    for (const auto& [path, expected] : tree_->expected) {
        const auto it = found.find(path);
        ASSERT_NE(it, found.end()) << path << " was not reported";
        EXPECT_EQ(it->second.verdict, expected.verdict) << path << ": " << it->second.problem;
        EXPECT_EQ(it->second.format, expected.format) << path;
        EXPECT_EQ(it->second.entry.isFolder, expected.isFolder) << path;
        damaged += expected.verdict == Verdict::Damaged ? 1 : 0;
    }
    EXPECT_GT(damaged, 150u);
    checkFolderUnits(*tree_, *full_);
    checkDiagnostics(*tree_, *full_);
}

// Folder formats are one unit each, without their inner files.
void checkFolderUnits(const GeneratedTree& tree, const CollectingScanSink& full) {
    std::set<std::string> units;
    for (const ScanResult& r : full.results) {
        if (r.entry.isFolder) {
            units.insert(r.entry.relativePath + "/");
            EXPECT_GT(r.entry.size, 0u) << r.entry.relativePath;
            EXPECT_TRUE(r.entry.etag.starts_with("tree:")) << r.entry.relativePath;
        }
    }
    const auto expectedUnits = std::count_if(tree.expected.begin(), tree.expected.end(),
                                             [](const auto& e) { return e.second.isFolder; });
    EXPECT_EQ(units.size(), static_cast<std::size_t>(expectedUnits));
    EXPECT_GE(units.size(), 100u + 160u);  // every Shardlake root and OZDF corpus at least
    for (const ScanResult& r : full.results) {
        for (const std::string& unit : units) {
            EXPECT_FALSE(r.entry.relativePath.starts_with(unit))
                << r.entry.relativePath << " lies inside the unit " << unit;
        }
    }
}

// Damaged entries carry their first diagnostics.
void checkDiagnostics(const GeneratedTree& tree, const CollectingScanSink& full) {
    for (const ScanResult& r : full.results) {
        if (r.verdict == Verdict::Damaged) {
            EXPECT_GT(r.errors, 0u) << r.entry.relativePath;
            EXPECT_TRUE(!r.diagnostics.empty() || !r.problem.empty()) << r.entry.relativePath;
            EXPECT_LE(r.diagnostics.size(), ScanOptions{}.keptDiagnostics);
        }
        EXPECT_EQ(r.entry.location, Location::local(tree.root / r.entry.relativePath));
        EXPECT_FALSE(r.fromCache);
    }
}

TEST_F(ScanTreeTest, ShardsAddUpToTheFullRunEntryForEntry) {
    constexpr unsigned kShards = 3;
    std::map<std::string, ScanResult> united;
    for (unsigned i = 0; i < kShards; ++i) {
        ScanOptions options;
        options.jobs = 2;
        options.shard = ShardSpec{i, kShards};
        CollectingScanSink sink;
        runScan(builtinRegistry(), options, localFileTree(), Location::local(tree_->root), sink);
        EXPECT_GT(sink.results.size(), tree_->expected.size() / kShards / 2) << "shard " << i;
        for (const ScanResult& r : sink.results) {
            EXPECT_TRUE(united.emplace(r.entry.relativePath, r).second)
                << r.entry.relativePath << " is in two shards";
        }
    }
    const auto full = full_->byPath();
    ASSERT_EQ(united.size(), full.size());
    for (const auto& [path, r] : full) {
        const ScanResult& shard = united.at(path);
        EXPECT_EQ(shard.verdict, r.verdict) << path;
        EXPECT_EQ(shard.format, r.format) << path;
        EXPECT_EQ(shard.errors, r.errors) << path;
        EXPECT_EQ(shard.warnings, r.warnings) << path;
        EXPECT_EQ(shard.entry.size, r.entry.size) << path;
        EXPECT_EQ(shard.entry.etag, r.entry.etag) << path;
    }
}

TEST(Scanner, AFormatFilterChecksOnlyThatFormat) {
    strata::test::ScratchDir dir("scan_filter");
    const GeneratedTree tree = generateTree(dir.path(), {40, 30, 0, 0, 0, 10}, 17);
    ScanOptions options;
    for (const FormatHandler* handler : builtinRegistry().handlers()) {
        if (handler->id().name() == "ZS") {
            options.onlyFormat = handler->id();
        }
    }
    Scanner scanner(builtinRegistry(), options);
    CollectingScanSink sink;
    scanner.run(localFileTree(), Location::local(tree.root), sink);
    ASSERT_EQ(sink.results.size(), 40u);
    for (const ScanResult& r : sink.results) {
        EXPECT_EQ(r.format, "ZS");
    }
    EXPECT_EQ(scanner.counters().skipped, 40u);
}

TEST(Scanner, OneJobFindsWhatFourFind) {
    strata::test::ScratchDir dir("scan_jobs");
    const GeneratedTree tree = generateTree(dir.path(), {10, 10, 20, 5, 10, 5}, 23);
    std::map<std::string, ScanResult> byJobs[2];
    for (const unsigned jobs : {1u, 4u}) {
        ScanOptions options;
        options.jobs = jobs;
        CollectingScanSink sink;
        runScan(builtinRegistry(), options, localFileTree(), Location::local(tree.root), sink);
        byJobs[jobs == 4] = sink.byPath();
    }
    ASSERT_EQ(byJobs[0].size(), tree.expected.size());
    ASSERT_EQ(byJobs[1].size(), tree.expected.size());
    for (const auto& [path, expected] : tree.expected) {
        EXPECT_EQ(byJobs[0].at(path).verdict, expected.verdict) << path;
        EXPECT_EQ(byJobs[1].at(path).verdict, expected.verdict) << path;
    }
}

TEST(Scanner, TheRootCanBeAFileAFolderUnitOrMissing) {
    strata::test::ScratchDir dir("scan_roots");
    const GeneratedTree tree = generateTree(dir.path(), {1, 0, 0, 1, 0, 0}, 7);
    CollectingScanSink file;
    runScan(builtinRegistry(), {}, localFileTree(), Location::local(tree.root / "zs/g0/e0.zs"),
            file);
    ASSERT_EQ(file.results.size(), 1u);
    EXPECT_EQ(file.results[0].entry.relativePath, "e0.zs");
    EXPECT_EQ(file.results[0].format, "ZS");

    CollectingScanSink unit;
    runScan(builtinRegistry(), {}, localFileTree(), Location::local(tree.root / "shardlake/u0"),
            unit);
    ASSERT_EQ(unit.results.size(), 1u);
    EXPECT_EQ(unit.results[0].format, "Shardlake");
    EXPECT_TRUE(unit.results[0].entry.isFolder);

    CollectingScanSink missing;
    const ScanOutcome outcome = runScan(builtinRegistry(), {}, localFileTree(),
                                        Location::local(dir / "no-such-folder"), missing);
    EXPECT_TRUE(outcome.listingFailed);
    EXPECT_NE(outcome.listingError.find("no-such-folder"), std::string::npos);
    EXPECT_TRUE(missing.results.empty());
}

// The local tree, except that listing a folder named "broken" fails as a store would.
class TreeWithABrokenFolder final : public FileTree {
public:
    bool remote() const override { return false; }
    ByteSourcePtr open(const Location& f) const override { return localFileTree()->open(f); }
    std::optional<FileTreeEntry> stat(const Location& l) const override {
        return localFileTree()->stat(l);
    }
    std::vector<FileTreeEntry> list(const Location& folder, std::size_t limit,
                                    bool* truncated) const override {
        if (folder.fileName() == "broken") {
            throw StoreError(folder.text() + ": listing refused (HTTP 503)");
        }
        return localFileTree()->list(folder, limit, truncated);
    }
};

TEST(Scanner, AFolderThatCannotBeListedIsUnreadableAndTheScanGoesOn) {
    strata::test::ScratchDir dir("scan_broken");
    const GeneratedTree tree = generateTree(dir.path(), {20, 0, 0, 0, 0, 0}, 11);
    fs::create_directories(tree.root / "broken/inside");
    CollectingScanSink sink;
    const ScanOutcome outcome =
        runScan(builtinRegistry(), {}, std::make_shared<TreeWithABrokenFolder>(),
                Location::local(tree.root), sink);
    EXPECT_FALSE(outcome.listingFailed);
    const auto found = sink.byPath();
    ASSERT_EQ(found.size(), 21u);
    EXPECT_EQ(found.at("broken").verdict, Verdict::Unreadable);
    EXPECT_NE(found.at("broken").problem.find("HTTP 503"), std::string::npos);
    EXPECT_EQ(found.at("zs/g0/e0.zs").verdict, Verdict::Valid);
}

TEST(Scanner, HostileListingNamesAreNeverFollowed) {
    const std::vector<std::uint8_t> notZs = {'h', 'i'};
    auto tree = std::make_shared<VirtualTree>(notZs, 3, 1);
    tree->extraNames = {
        "", ".", "..", "a\\b", "/etc/passwd", std::string(5000, 'x'), std::string("nul\0name", 8)};
    ScanOptions options;
    options.includeHidden = true;
    CollectingScanSink sink;
    const ScanOutcome outcome = runScan(builtinRegistry(), options, tree, tree->root(), sink);
    EXPECT_FALSE(outcome.listingFailed);
    for (const ScanResult& r : sink.results) {
        EXPECT_TRUE(r.entry.location.text().starts_with(tree->root().text() + "/"))
            << r.entry.location.text();
    }
    const auto found = sink.byPath();
    EXPECT_EQ(found.count(""), 0u);
    EXPECT_EQ(found.count("."), 0u);
    for (const char* leaving : {"..", "a\\b", "/etc/passwd"}) {
        ASSERT_EQ(found.count(leaving), 1u) << leaving;
        EXPECT_EQ(found.at(leaving).verdict, Verdict::Unreadable) << leaving;
    }
    EXPECT_EQ(found.at("f0/e0.zs").verdict, Verdict::Damaged);  // "hi" named .zs
}

TEST(Scanner, EntriesInFlightStayBoundedHoweverManyAreListed) {
    strata::test::ScratchDir dir("scan_bounded");
    const GeneratedTree tree = generateTree(dir.path(), {1, 0, 0, 0, 0, 0}, 3);
    const std::string bytes = [&] {
        std::ifstream in(tree.root / "zs/g0/e0.zs", std::ios::binary);
        return std::string(std::istreambuf_iterator<char>(in), {});
    }();
    auto virtualTree = std::make_shared<VirtualTree>(
        std::vector<std::uint8_t>(bytes.begin(), bytes.end()), 20000, 4);
    ScanOptions options;
    options.jobs = 3;
    CollectingScanSink sink;
    runScan(builtinRegistry(), options, virtualTree, virtualTree->root(), sink);
    ASSERT_EQ(sink.results.size(), 20000u);
    // The queue holds two per job, and each job one it is checking.
    EXPECT_LE(sink.maxInFlight, 3u * options.jobs + 1);
    for (const ScanResult& r : sink.results) {
        ASSERT_EQ(r.verdict, Verdict::Valid) << r.entry.location.text() << r.problem;
    }
}

TEST(Scanner, CancellingStopsTheScanAndReportsIt) {
    strata::test::ScratchDir dir("scan_cancel");
    const GeneratedTree tree = generateTree(dir.path(), {200, 0, 0, 0, 0, 0}, 5);
    CancelToken cancel;
    ScanOptions options;
    options.cancel = &cancel;
    options.jobs = 2;
    struct CancellingSink : CollectingScanSink {
        CancelToken* token = nullptr;
        void checked(const ScanResult& r) override {
            CollectingScanSink::checked(r);
            if (results.size() == 10) {
                token->cancel();
            }
        }
    } sink;
    sink.token = &cancel;
    const ScanOutcome outcome =
        runScan(builtinRegistry(), options, localFileTree(), Location::local(tree.root), sink);
    EXPECT_EQ(outcome.outcome, JobOutcome::Cancelled);
    EXPECT_LT(sink.results.size(), 200u);
}

// Paused after ten results, the scan checks at most the entries already in flight until it is
// resumed, then finishes every entry; a cancel ends a pause.
TEST(Scanner, APausedScanReadsNothingNewUntilResumed) {
    strata::test::ScratchDir dir("scan_pause");
    const GeneratedTree tree = generateTree(dir.path(), {200, 0, 0, 0, 0, 0}, 9);
    PauseGate gate;
    ScanOptions options;
    options.pause = &gate;
    options.jobs = 2;
    struct PausingSink : CollectingScanSink {
        PauseGate* gate = nullptr;
        std::atomic<std::size_t> seen{0};
        void checked(const ScanResult& r) override {
            CollectingScanSink::checked(r);
            if (++seen == 10) {
                gate->pause();
            }
        }
    } sink;
    sink.gate = &gate;
    std::size_t whilePaused = 0;
    std::thread resumer([&] {
        while (!gate.paused()) {
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        // Long enough for an unpaused scan to check many more of the 200.
        std::this_thread::sleep_for(std::chrono::milliseconds(400));
        whilePaused = sink.seen.load();
        gate.resume();
    });
    const ScanOutcome outcome =
        runScan(builtinRegistry(), options, localFileTree(), Location::local(tree.root), sink);
    resumer.join();
    EXPECT_LE(whilePaused, 10u + options.jobs);
    EXPECT_EQ(outcome.outcome, JobOutcome::Completed);
    EXPECT_EQ(sink.results.size(), tree.expected.size());
}

TEST(Scanner, CancellingEndsAPause) {
    strata::test::ScratchDir dir("scan_pause_cancel");
    const GeneratedTree tree = generateTree(dir.path(), {20, 0, 0, 0, 0, 0}, 13);
    PauseGate gate;
    gate.pause();
    CancelToken cancel;
    ScanOptions options;
    options.pause = &gate;
    options.cancel = &cancel;
    CollectingScanSink sink;
    std::thread canceller([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        cancel.cancel();
    });
    const ScanOutcome outcome =
        runScan(builtinRegistry(), options, localFileTree(), Location::local(tree.root), sink);
    canceller.join();
    EXPECT_EQ(outcome.outcome, JobOutcome::Cancelled);
    EXPECT_TRUE(sink.results.empty());
}

}  // namespace

}  // namespace strata::scan::test
