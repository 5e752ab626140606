// strata-cli on URLs: every corpus ZS and zTensor file, valid or damaged, served by nginx on
// 127.0.0.1, gives the same stdout, stderr and exit code as the local file (the path the
// command echoes is the only difference, and it is swapped before comparing). Also the
// requests `zs info` and `zs dump --prefix` make, against the reference's recorded requests.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "cli_run.h"
#include "remote_test_env.h"

namespace strata {
namespace {

namespace fs = std::filesystem;

const fs::path kCorpus = STRATA_CORPUS_DIR;
using test::CliRun;
using test::replaceAll;
using test::runCli;

// One nginx for this program, serving the corpus read-only.
struct CorpusSite {
    std::unique_ptr<test::NginxServer> nginx;
    std::string missing, error;

    static CorpusSite& get() {
        static CorpusSite site = [] {
            CorpusSite s;
            s.missing = test::nginxMissing();
            if (s.missing.empty() && !fs::is_directory(kCorpus / "zs")) {
                s.missing = "no conformance corpus at " + kCorpus.string() +
                            " (configure with -DSTRATA_CORPUS_DIR=<corpus folder>)";
            }
            if (s.missing.empty()) {
                try {
                    s.nginx = std::make_unique<test::NginxServer>(kCorpus);
                } catch (const std::exception& e) {
                    s.error = e.what();
                }
            }
            return s;
        }();
        return site;
    }
    std::string url(const fs::path& file) const {
        return nginx->url("/" + fs::relative(file, kCorpus).generic_string());
    }
};

std::vector<fs::path> corpusFiles(const std::string& folder, const std::string& extension) {
    std::vector<fs::path> files;
    for (const auto& entry : fs::recursive_directory_iterator(kCorpus / folder)) {
        if (entry.is_regular_file() && entry.path().extension() == extension) {
            files.push_back(entry.path());
        }
    }
    std::sort(files.begin(), files.end());
    return files;
}

// Every corpus file, or every Nth with STRATA_REMOTE_SAMPLE=N (the sanitizer run, where each
// of these thousands of strata-cli processes costs ten times as much).
std::vector<fs::path> sampledCorpusFiles(const std::string& folder, const std::string& extension) {
    const std::vector<fs::path> all = corpusFiles(folder, extension);
    const char* sample = std::getenv("STRATA_REMOTE_SAMPLE");
    const long every = sample != nullptr ? std::max(1L, std::strtol(sample, nullptr, 10)) : 1L;
    std::vector<fs::path> files;
    for (std::size_t i = 0; i < all.size(); i += static_cast<std::size_t>(every)) {
        files.push_back(all[i]);
    }
    return files;
}

class CliOverHttp : public ::testing::Test {
protected:
    void SetUp() override {
        // Without the corpus there is nothing to serve: skip (never fail, even where servers
        // are required), naming STRATA_CORPUS_DIR, as every corpus test does.
        if (!fs::is_directory(kCorpus / "zs")) {
            GTEST_SKIP() << "no conformance corpus at " << kCorpus.string()
                         << "; set STRATA_CORPUS_DIR (configure with -DSTRATA_CORPUS_DIR=...)";
        }
        STRATA_REQUIRE_SERVER(CorpusSite::get().missing);
        STRATA_REQUIRE_STARTED(CorpusSite::get().error);
    }

    // Runs `args` + FILE locally and + URL over HTTP for every file; the outputs must match.
    // Returns how many files gave exit code 0 locally.
    static int compareAll(const std::vector<fs::path>& files,
                          const std::vector<std::string>& args) {
        int ok = 0;
        for (const fs::path& file : files) {
            const std::string url = CorpusSite::get().url(file);
            std::vector<std::string> local = args, remote = args;
            local.push_back(file.string());
            remote.push_back(url);
            const CliRun a = runCli(local);
            const CliRun b = runCli(remote);
            const std::string what = args.front() + " " + args.back() + " " + file.string();
            EXPECT_EQ(a.exit, b.exit)
                << what << "\nlocal stderr: " << a.err << "\nremote stderr: " << b.err;
            EXPECT_TRUE(replaceAll(a.out, file.string(), url) == b.out)
                << what << ": stdout differs (" << a.out.size() << " vs " << b.out.size()
                << " bytes)\nlocal: " << a.out.substr(0, 400)
                << "\nremote: " << b.out.substr(0, 400);
            EXPECT_EQ(replaceAll(a.err, file.string(), url), b.err) << what;
            ok += a.exit == 0 ? 1 : 0;
        }
        return ok;
    }
};

TEST_F(CliOverHttp, ZsCommandsOnEveryCorpusFile) {
    std::vector<fs::path> files = sampledCorpusFiles("zs", ".zs");
    ASSERT_GT(files.size(), corpusFiles("zs", ".zs").size() / 10);
    EXPECT_GT(compareAll(files, {"zs", "info"}), static_cast<int>(files.size() / 10));
    compareAll(files, {"zs", "info", "-m"});
    compareAll(files, {"zs", "validate", "-j", "2"});
    compareAll(files, {"zs", "dump"});
    compareAll(files, {"zs", "dump", "--prefix=a"});
    compareAll(files, {"zs", "dump", "--start=b", "--stop=d"});
}

TEST_F(CliOverHttp, ZtCommandsOnEveryCorpusFile) {
    std::vector<fs::path> files = sampledCorpusFiles("ztensor", ".zt");
    ASSERT_GT(files.size(), corpusFiles("ztensor", ".zt").size() / 10);
    EXPECT_GT(compareAll(files, {"zt", "info"}), static_cast<int>(files.size() / 10));
    compareAll(files, {"zt", "info", "--json"});
    compareAll(files, {"zt", "validate", "--json"});
    compareAll(files, {"zt", "dump", "--stats"});
}

TEST_F(CliOverHttp, GenericCommandsOnEverySingleFile) {
    std::vector<fs::path> files = sampledCorpusFiles("zs", ".zs");
    const auto zt = sampledCorpusFiles("ztensor", ".zt");
    files.insert(files.end(), zt.begin(), zt.end());
    compareAll(files, {"detect"});
    compareAll(files, {"info", "--json"});
    compareAll(files, {"validate"});
    compareAll(files, {"validate", "--json"});
}

// strata-cli diff with both sides as URLs prints what it prints for the local files.
TEST_F(CliOverHttp, DiffOfTwoUrlsMatchesTheLocalDiff) {
    const std::vector<std::pair<fs::path, fs::path>> pairs = {
        {kCorpus / "zs/valid/codec-none.zs", kCorpus / "zs/valid/codec-deflate.zs"},
        {kCorpus / "zs/valid/tiny.zs", kCorpus / "zs/valid/codec-lzma-z1.zs"},
        {kCorpus / "ztensor/valid/dense_raw.zt", kCorpus / "ztensor/valid/dense_zstd.zt"}};
    for (const auto& [a, b] : pairs) {
        if (!fs::exists(a) || !fs::exists(b)) {
            continue;
        }
        const std::string ua = CorpusSite::get().url(a), ub = CorpusSite::get().url(b);
        for (const bool json : {false, true}) {
            std::vector<std::string> local = {"diff", a.string(), b.string()};
            std::vector<std::string> remote = {"diff", ua, ub};
            if (json) {
                local.push_back("--json");
                remote.push_back("--json");
            }
            const CliRun l = runCli(local), r = runCli(remote);
            EXPECT_EQ(l.exit, r.exit) << a << " " << b << "\n" << r.err;
            EXPECT_EQ(replaceAll(replaceAll(l.out, a.string(), ua), b.string(), ub), r.out)
                << a << " " << b;
        }
    }
}

TEST_F(CliOverHttp, ErrorsNameTheUrl) {
    const std::string missing = CorpusSite::get().nginx->url("/zs/valid/no-such.zs");
    CliRun run = runCli({"zs", "info", missing});
    EXPECT_EQ(run.exit, 2);
    EXPECT_NE(run.err.find(missing), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("404 Not Found"), std::string::npos) << run.err;
    run = runCli({"zs", "info", "ftp://127.0.0.1/x.zs"});
    EXPECT_EQ(run.exit, 2);
    EXPECT_NE(run.err.find("scheme is refused"), std::string::npos) << run.err;
    // A folder on a server that does not list folders.
    run = runCli({"info", CorpusSite::get().url(kCorpus / "shardlake/root")});
    EXPECT_EQ(run.exit, 2);
    EXPECT_NE(run.err.find("does not list folders"), std::string::npos) << run.err;
}

// The reference's requests per command, from its recorded run (http-requests.log).
std::map<std::string, std::vector<std::string>> referenceRequests() {
    std::map<std::string, std::vector<std::string>> sections;
    std::ifstream in(kCorpus / "zs/cli/http-requests.log");
    std::string line, section;
    while (std::getline(in, line)) {
        if (line.starts_with("### ")) {
            section = line.substr(4);
        } else if (!line.empty()) {
            sections[section].push_back(line);
        }
    }
    return sections;
}

std::size_t requestsFor(const std::string& uri) {
    std::size_t n = 0;
    for (const auto& line : CorpusSite::get().nginx->accessLog()) {
        n += line.uri == uri ? 1 : 0;
    }
    return n;
}

// Strata's requests for one command, counted in nginx's access log.
std::size_t countRequests(const std::vector<std::string>& args, const fs::path& file) {
    const std::string uri = "/" + fs::relative(file, kCorpus).generic_string();
    const std::size_t before = requestsFor(uri);
    std::vector<std::string> full = args;
    full.push_back(CorpusSite::get().url(file));
    const CliRun run = runCli(full);
    EXPECT_EQ(run.exit, 0) << run.err;
    return requestsFor(uri) - before;
}

TEST_F(CliOverHttp, NeverMoreRequestsThanTheReference) {
    const auto reference = referenceRequests();
    ASSERT_TRUE(reference.contains("zs info (multilevel-bf2.zs over HTTP)"));
    const fs::path file = kCorpus / "zs/valid/multilevel-bf2.zs";
    const std::vector<std::pair<std::vector<std::string>, std::string>> commands{
        {{"zs", "info"}, "zs info (multilevel-bf2.zs over HTTP)"},
        {{"zs", "dump", "--prefix=alpha010", "-j0"}, "zs dump --prefix=alpha010 -j0"},
        {{"zs", "dump", "--start=delta000", "--stop=delta003", "-j0"},
         "zs dump --start=delta000 --stop=delta003 -j0"},
        {{"zs", "dump", "-j0"}, "zs dump (full) -j0"},
        {{"zs", "validate", "-j0"}, "zs validate -j0"},
    };
    for (const auto& [args, section] : commands) {
        ASSERT_TRUE(reference.contains(section)) << section;
        const std::size_t ours = countRequests(args, file);
        EXPECT_GE(ours, 1u) << section;
        EXPECT_LE(ours, reference.at(section).size()) << section;
    }
    // On a file larger than one block: the header block and the root index, nothing else.
    EXPECT_LE(countRequests({"zs", "info"}, kCorpus / "zs/valid/big-ngrams-1m.zs"), 2u);
}

TEST_F(CliOverHttp, VerbosePrintsEachRequestOnStderr) {
    const std::string url = CorpusSite::get().url(kCorpus / "zs/valid/multilevel-bf2.zs");
    const CliRun quiet = runCli({"zs", "info", url});
    const CliRun loud = runCli({"zs", "info", "-v", url});
    EXPECT_EQ(quiet.out, loud.out);
    EXPECT_TRUE(quiet.err.empty()) << quiet.err;
    EXPECT_NE(loud.err.find("GET " + url + " bytes=0-"), std::string::npos) << loud.err;
    const CliRun before = runCli({"-v", "detect", url});
    EXPECT_EQ(before.out, "ZS\n");
    EXPECT_NE(before.err.find("GET " + url), std::string::npos) << before.err;
}

TEST_F(CliOverHttp, CacheDirServesTheNextRun) {
    test::TempDir cache("strata-cli-cache");
    const fs::path file = kCorpus / "zs/valid/big-ngrams-1m.zs";
    const CliRun local = runCli({"zs", "dump", "--prefix=th", file.string()});
    const std::string cacheArg = "--cache-dir=" + cache.path().string();
    const std::size_t first = countRequests({cacheArg, "zs", "dump", "--prefix=th"}, file);
    const std::size_t second = countRequests({"zs", "dump", "--prefix=th", cacheArg}, file);
    EXPECT_GT(first, 1u);
    EXPECT_EQ(second, 1u);  // the first block pins the ETag; the rest comes from the cache
    const CliRun cached =
        runCli({"zs", "dump", "--prefix=th", cacheArg, CorpusSite::get().url(file)});
    EXPECT_EQ(cached.out, local.out);
}

}  // namespace
}  // namespace strata
