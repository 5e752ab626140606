// Scanning about 1,000 objects over HTTP (nginx's JSON listings) and S3 (s3rver), both started
// on 127.0.0.1 as the remote tests start them (docs/performance-scan.md): the requests and
// connections `strata-cli scan` makes against those of `strata-cli validate URL` run once per
// entry, and the scan's wall time with --jobs 16 against --jobs 1 (medians of RUNS).
//   flock /tmp/strata-cpu.lock build/release/tests/bench/scan/strata_scan_remote_bench [RUNS]
// Requests are counted in nginx's access log for HTTP and from strata-cli -v (one line per
// request made, retries included) for both; connections are the connect() calls of the
// strata-cli processes, counted with strace where it is installed ("–" otherwise).
// STRATA_CLI=path measures another strata-cli binary.
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "remote_servers.h"
#include "scan_test_support.h"

namespace fs = std::filesystem;
using namespace strata;

namespace {

std::string cli() {
    const char* other = std::getenv("STRATA_CLI");
    return other != nullptr ? other : STRATA_CLI_PATH;
}

std::string readText(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

struct Run {
    std::string out, err;
    int exit = 0;
    double seconds = 0;
};

// Runs `args` (strata-cli's arguments, none quoted: URLs and paths of the generated tree),
// through strace when `traced` is given.
Run runCli(const std::string& args, const fs::path& scratch, const fs::path* traced = nullptr) {
    const std::string trace =
        traced != nullptr ? "strace -f -qq -e trace=connect -o " + traced->string() + " " : "";
    const std::string command = trace + cli() + " " + args + " > " + (scratch / "out").string() +
                                " 2> " + (scratch / "err").string();
    const auto start = std::chrono::steady_clock::now();
    const int status = std::system(command.c_str());
    Run run;
    run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    run.exit = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    run.out = readText(scratch / "out");
    run.err = readText(scratch / "err");
    return run;
}

// Lines of `text` starting with `prefix`.
std::size_t countLines(const std::string& text, const std::string& prefix) {
    std::istringstream lines(text);
    std::size_t n = 0;
    for (std::string line; std::getline(lines, line);) {
        n += line.starts_with(prefix) ? 1 : 0;
    }
    return n;
}

// strata-cli -v prints "strata-cli: GET URL ..." per request.
std::size_t requestsIn(const std::string& err) {
    return countLines(err, "strata-cli: GET ") + countLines(err, "strata-cli: HEAD ");
}

// TCP connections to 127.0.0.1 opened, from strace's log.
std::size_t connectionsIn(const fs::path& trace) {
    std::istringstream lines(readText(trace));
    std::size_t n = 0;
    for (std::string line; std::getline(lines, line);) {
        n += line.find("connect(") != std::string::npos &&
                     line.find("127.0.0.1") != std::string::npos
                 ? 1
                 : 0;
    }
    return n;
}

std::vector<std::string> entryLocations(const std::string& jsonl) {
    std::vector<std::string> out;
    std::istringstream lines(jsonl);
    for (std::string line; std::getline(lines, line);) {
        const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
        if (j.is_object() && j.value("type", "") == "entry") {
            out.push_back(j.at("location").get<std::string>());
        }
    }
    return out;
}

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

struct Site {
    std::string name, root, options;         // options: strata-cli's global ones (the S3 endpoint)
    std::function<std::size_t()> serverLog;  // requests the server logged so far; null: none
};

struct Counts {
    std::size_t entries = 0, requests = 0, logged = 0, connections = 0;
};

class Bench {
public:
    Bench(fs::path scratch, bool strace, int runs)
        : scratch_(std::move(scratch)), strace_(strace), runs_(runs) {}

    void measure(const Site& site) {
        const Counts scan = scanCounts(site);
        const Counts each = validateEach(site);
        std::vector<double> one, sixteen;
        for (int i = 0; i < runs_; ++i) {
            one.push_back(
                runCli(site.options + " scan " + site.root + " --jobs 1", scratch_).seconds);
            sixteen.push_back(
                runCli(site.options + " scan " + site.root + " --jobs 16", scratch_).seconds);
        }
        std::printf(
            "| %s | %zu | %zu (%s logged) | %s | %zu (%s logged) | %s | %.2f s | %.2f s |\n",
            site.name.c_str(), scan.entries, scan.requests, logged(site, scan).c_str(),
            connections(scan).c_str(), each.requests, logged(site, each).c_str(),
            connections(each).c_str(), median(one), median(sixteen));
        std::fflush(stdout);
    }

private:
    Counts scanCounts(const Site& site) {
        const std::size_t before = site.serverLog ? site.serverLog() : 0;
        const fs::path trace = scratch_ / "scan.trace";
        const Run run = runCli(site.options + " -v scan " + site.root + " --jsonl --jobs 16",
                               scratch_, strace_ ? &trace : nullptr);
        locations_ = entryLocations(run.out);
        if (locations_.empty()) {
            std::fprintf(stderr, "%s: the scan listed nothing:\n%s\n", site.name.c_str(),
                         run.err.c_str());
            std::exit(1);
        }
        Counts c;
        c.entries = locations_.size();
        c.requests = requestsIn(run.err);
        c.logged = site.serverLog ? site.serverLog() - before : 0;
        c.connections = strace_ ? connectionsIn(trace) : 0;
        return c;
    }

    // `strata-cli validate URL` once per entry the scan found (a dataset folder is one).
    Counts validateEach(const Site& site) {
        const std::size_t before = site.serverLog ? site.serverLog() : 0;
        Counts c;
        const fs::path trace = scratch_ / "validate.trace";
        for (const std::string& location : locations_) {
            const Run run = runCli(site.options + " -v validate " + location, scratch_,
                                   strace_ ? &trace : nullptr);
            ++c.entries;
            c.requests += requestsIn(run.err);
            c.connections += strace_ ? connectionsIn(trace) : 0;
        }
        c.logged = site.serverLog ? site.serverLog() - before : 0;
        return c;
    }

    static std::string logged(const Site& site, const Counts& c) {
        return site.serverLog ? std::to_string(c.logged) : "–";
    }
    std::string connections(const Counts& c) const {
        return strace_ ? std::to_string(c.connections) : "–";
    }

    fs::path scratch_;
    bool strace_;
    int runs_;
    std::vector<std::string> locations_;
};

// Every file under `root`, by its path relative to it.
std::vector<std::string> filesUnder(const fs::path& root) {
    std::vector<std::string> out;
    for (const auto& e : fs::recursive_directory_iterator(root)) {
        if (e.is_regular_file()) {
            out.push_back(fs::relative(e.path(), root).generic_string());
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    const int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 3;
    for (const std::string& missing : {test::nginxMissing(), test::s3rverMissing()}) {
        if (!missing.empty()) {
            std::fprintf(stderr, "%s\n", missing.c_str());
            return 1;
        }
    }
    const test::TempDir work("strata-scan-remote-bench");
    // About 1,000 objects: ZS and zTensor files, text files, and a few datasets, corpora and
    // storage roots (several objects each, one entry each); one in eight of each format damaged.
    const scan::test::GeneratedTree tree =
        scan::test::generateTree(work.path(), {380, 380, 10, 5, 10, 100}, 7);
    const std::vector<std::string> files = filesUnder(tree.root);

    const test::NginxServer nginx(work.path());  // the tree at /listed/tree
    const test::S3Server s3({"bench"});
    for (const std::string& file : files) {
        s3.put("bench", "tree/" + file, readText(tree.root / file));
    }
    // s3rver knows the key S3RVER; strata-cli reads credentials from the environment.
    ::setenv("AWS_ACCESS_KEY_ID", "S3RVER", 1);
    ::setenv("AWS_SECRET_ACCESS_KEY", "S3RVER", 1);
    ::setenv("AWS_REGION", "us-east-1", 1);
    ::setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent", 1);
    ::setenv("AWS_CONFIG_FILE", "/nonexistent", 1);

    const bool strace = std::system("command -v strace > /dev/null") == 0;
    fs::create_directories(work.path() / "scratch");
    Bench bench(work.path() / "scratch", strace, runs);
    std::printf("%zu objects, %zu entries; strata-cli %s\n\n", files.size(), tree.expected.size(),
                cli().c_str());
    std::printf(
        "| server | entries | scan: requests | connections | validate each: requests "
        "| connections | scan --jobs 1 | scan --jobs 16 |\n"
        "|---|---:|---:|---:|---:|---:|---:|---:|\n");
    bench.measure({"nginx, JSON listings", nginx.url("/listed/tree"), "",
                   [&nginx] { return nginx.accessLog().size(); }});
    bench.measure({"s3rver", "s3://bench/tree", "--endpoint-url " + s3.endpoint(), {}});
    return 0;
}
