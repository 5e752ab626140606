// strata-cli scan over URLs: the same corpus folders scanned from the local disk, from nginx's
// JSON folder listings and from an s3rver prefix give the same entries with the same formats,
// verdicts and counts (the locations, versions and times differ by nature), and an entry whose
// reads fail mid-scan (the fault proxy) is reported unreadable while the scan goes on.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "cli_run.h"
#include "corpus_sites.h"
#include "remote_servers.h"

namespace strata {
namespace {

namespace fs = std::filesystem;
using test::CliRemoteFixture;
using test::CorpusSites;
using test::runCli;

// What a scan says of an entry wherever it is stored: format, verdict, error and warning counts.
using EntryVerdict = std::tuple<std::string, std::string, int, int>;

// The entries of a `scan --jsonl` output by their path under the root.
std::map<std::string, EntryVerdict> entriesOf(const std::string& jsonl) {
    std::map<std::string, EntryVerdict> entries;
    std::istringstream lines(jsonl);
    for (std::string line; std::getline(lines, line);) {
        const nlohmann::json j = nlohmann::json::parse(line);
        if (j.at("type") == "entry") {
            entries[j.at("path").get<std::string>()] = {
                j.at("format").get<std::string>(), j.at("verdict").get<std::string>(),
                j.at("errors").get<int>(), j.at("warnings").get<int>()};
        }
    }
    return entries;
}

class ScanRemote : public CliRemoteFixture {};

TEST_F(ScanRemote, HttpAndS3GiveTheLocalVerdicts) {
    for (const char* folder : {"zds/valid", "ztensor/corrupt", "zs/corrupt"}) {
        SCOPED_TRACE(folder);
        requireSites(folder);
        if (IsSkipped() || HasFailure()) {
            return;
        }
        CorpusSites& sites = CorpusSites::get();
        sites.upload(folder);
        const fs::path local = test::corpusDir() / folder;
        const auto local_run = runCli({"scan", local.string(), "--jsonl", "--jobs", "4"});
        const auto http_run = runCli({"scan", sites.http(local), "--jsonl", "--jobs", "4"});
        const auto s3_run = runCli({"--endpoint-url", sites.s3->endpoint(), "scan",
                                    CorpusSites::s3Url(local), "--jsonl", "--jobs", "4"});
        const auto expected = entriesOf(local_run.out);
        ASSERT_FALSE(expected.empty()) << local_run.err;
        EXPECT_EQ(entriesOf(http_run.out), expected) << http_run.err;
        EXPECT_EQ(entriesOf(s3_run.out), expected) << s3_run.err;
        EXPECT_EQ(http_run.exit, local_run.exit) << http_run.err;
        EXPECT_EQ(s3_run.exit, local_run.exit) << s3_run.err;
    }
}

// Every request after the folder's listing (nginx's redirect to the folder, then the listing)
// fails (the proxy answers 500): each entry is
// reported unreadable, one by one, and the scan goes on to the end instead of stopping at the
// first; the exit code says some entry had a problem, not that the listing failed.
TEST_F(ScanRemote, ReadsFailingMidScanMakeEntriesUnreadable) {
    requireSites("ztensor/valid");
    if (IsSkipped() || HasFailure()) {
        return;
    }
    STRATA_REQUIRE_SERVER(test::proxyMissing());
    CorpusSites& sites = CorpusSites::get();
    const fs::path local = test::corpusDir() / "ztensor/valid";
    const auto expected = entriesOf(runCli({"scan", local.string(), "--jsonl"}).out);
    ASSERT_GE(expected.size(), 2u);
    test::FaultProxy proxy(sites.nginx->port());
    // How many requests come before the walk has the folder's listing (probes of the folder,
    // nginx's redirect to "valid/", the listing itself), counted in nginx's log on a scan the
    // proxy passes unchanged: the requests up to the last one for the folder.
    const std::size_t logged = sites.nginx->accessLog().size();
    runCli({"scan", proxy.url("count", "", "/listed/ztensor/valid"), "--jsonl"});
    const auto log = sites.nginx->accessLog();
    std::size_t folderRequests = 0;
    for (std::size_t i = logged; i < log.size(); ++i) {
        const std::string& uri = log[i].uri;
        if (uri.ends_with("/ztensor/valid") || uri.ends_with("/ztensor/valid/")) {
            folderRequests = i - logged + 1;
        }
    }
    ASSERT_GT(folderRequests, 0u);
    const std::string root =
        proxy.url("scan", "s500a" + std::to_string(folderRequests), "/listed/ztensor/valid");
    const auto run = runCli({"scan", root, "--jsonl", "--jobs", "2"});
    const auto entries = entriesOf(run.out);
    ASSERT_EQ(entries.size(), expected.size()) << run.err;
    for (const auto& [path, verdict] : entries) {
        EXPECT_EQ(std::get<1>(verdict), "unreadable") << path;
        EXPECT_TRUE(expected.contains(path)) << path;
    }
    EXPECT_NE(run.out.find("\"listing_failed\":false"), std::string::npos) << run.out;
    EXPECT_EQ(run.exit, 1) << run.err;
}

// More keys under one prefix than one ListObjectsV2 page holds (1,000): every one is listed
// and checked once, across the pages.
TEST_F(ScanRemote, AnS3PrefixOfSeveralPagesIsScannedWhole) {
    requireSites("ztensor/valid");
    if (IsSkipped() || HasFailure()) {
        return;
    }
    CorpusSites& sites = CorpusSites::get();
    const std::string bytes = test::readAll(test::corpusDir() / "ztensor/valid/dense_raw.zt");
    constexpr int kKeys = 1030;
    for (int i = 0; i < kKeys; ++i) {
        sites.s3->put("corpus", "scan-pages/t" + std::to_string(i) + ".zt", bytes);
    }
    const auto run = runCli({"--endpoint-url", sites.s3->endpoint(), "scan",
                             "s3://corpus/scan-pages", "--jsonl", "--jobs", "8"});
    const auto entries = entriesOf(run.out);
    ASSERT_EQ(entries.size(), std::size_t(kKeys)) << run.err;
    for (const auto& [path, verdict] : entries) {
        EXPECT_EQ(verdict, EntryVerdict("zTensor", "valid", 0, 0)) << path;
    }
    EXPECT_EQ(run.exit, 0) << run.err;
}

// A second scan with the results cache reads nothing of the unchanged entries: nginx's log
// shows only the folder's own requests (probes and listing), no request for any entry's file.
TEST_F(ScanRemote, TheCacheSparesUnchangedEntriesTheirReads) {
    requireSites("ztensor/valid");
    if (IsSkipped() || HasFailure()) {
        return;
    }
    CorpusSites& sites = CorpusSites::get();
    const test::TempDir cache("strata-scan-cache");
    const std::string root = sites.http(test::corpusDir() / "ztensor/valid");
    const auto first = runCli({"scan", root, "--jsonl", "--cache-dir", cache.path().string()});
    const std::size_t logged = sites.nginx->accessLog().size();
    const auto second = runCli({"scan", root, "--jsonl", "--cache-dir", cache.path().string()});
    EXPECT_EQ(entriesOf(second.out), entriesOf(first.out)) << second.err;
    EXPECT_NE(second.out.find("\"cached\":true"), std::string::npos) << second.out;
    const auto log = sites.nginx->accessLog();
    for (std::size_t i = logged; i < log.size(); ++i) {
        EXPECT_FALSE(log[i].uri.ends_with(".zt")) << log[i].uri << " was read again";
    }
}

// A scan asks the server no more than validating each of its entries alone does: the walk's
// probe of a dataset folder, its fingerprint, its open and its validator share their listings,
// and a folder the walk goes into is listed once.
TEST_F(ScanRemote, AScanAsksNoMoreThanValidatingEachEntryAlone) {
    requireSites("zds/valid");
    if (IsSkipped() || HasFailure()) {
        return;
    }
    CorpusSites& sites = CorpusSites::get();
    const std::string root = sites.http(test::corpusDir() / "zds/valid");
    std::size_t logged = sites.nginx->accessLog().size();
    const auto scan = runCli({"scan", root, "--jsonl", "--jobs", "2"});
    const std::size_t scanRequests = sites.nginx->accessLog().size() - logged;
    std::vector<std::string> locations;
    std::istringstream lines(scan.out);
    for (std::string line; std::getline(lines, line);) {
        const nlohmann::json j = nlohmann::json::parse(line);
        if (j.at("type") == "entry") {
            locations.push_back(j.at("location").get<std::string>());
        }
    }
    ASSERT_GT(locations.size(), 5u) << scan.err;
    logged = sites.nginx->accessLog().size();
    for (const std::string& location : locations) {
        runCli({"validate", location});
    }
    const std::size_t aloneRequests = sites.nginx->accessLog().size() - logged;
    EXPECT_LE(scanRequests, aloneRequests) << "the scan made " << scanRequests << " requests";
}

}  // namespace
}  // namespace strata
