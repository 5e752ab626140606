// Shared set-up for the remote tests: the servers start once per test program. A test whose
// server program is not installed is skipped with the reason, except where the environment says
// the servers must run (CI=true or STRATA_REMOTE_REQUIRED=1): there it fails. A server that is
// installed but does not start always fails the test.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>

#include "remote_servers.h"

namespace strata::test {

inline bool remoteServersRequired() {
    const char* ci = std::getenv("CI");
    const char* required = std::getenv("STRATA_REMOTE_REQUIRED");
    return (ci != nullptr && std::string(ci) == "true") ||
           (required != nullptr && std::string(required) == "1");
}

#define STRATA_REQUIRE_SERVER(why)                                         \
    do {                                                                   \
        const std::string reason_ = (why);                                 \
        if (!reason_.empty()) {                                            \
            if (::strata::test::remoteServersRequired()) {                 \
                FAIL() << "remote test server unavailable: " << reason_;   \
            }                                                              \
            GTEST_SKIP() << "remote test server unavailable: " << reason_; \
        }                                                                  \
    } while (0)

// A server that is installed must start: its error fails the test.
#define STRATA_REQUIRE_STARTED(error)                                 \
    do {                                                              \
        const std::string error_ = (error);                           \
        if (!error_.empty()) {                                        \
            FAIL() << "remote test server did not start: " << error_; \
        }                                                             \
    } while (0)

// Both checks for nginx: skipped when not installed, failed when it does not start.
#define STRATA_REQUIRE_WEBSITE()                                       \
    do {                                                               \
        STRATA_REQUIRE_SERVER(::strata::test::WebSite::get().missing); \
        STRATA_REQUIRE_STARTED(::strata::test::WebSite::get().error);  \
    } while (0)

inline void writeFile(const std::filesystem::path& path, const std::string& bytes) {
    std::filesystem::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// Names that mean something in a URL (a space, '#', '?', '%', "%41" that must not be decoded
// twice, non-ASCII), and a folder named with some of them; WebSite holds each under names/ with its
// own name as its bytes.
inline constexpr const char* kOddNames[] = {
    "a b.bin", "x#1.bin", "what?.bin", "100%.bin", "%41.bin", "\xC3\xBC.bin", "odd ?#dir/in.bin"};

// One nginx for the whole program, serving a folder of generated files.
struct WebSite {
    std::unique_ptr<TempDir> root;
    std::unique_ptr<NginxServer> nginx;
    std::string missing;  // nginx is not installed
    std::string error;    // nginx is installed but did not start
    bool ready() const { return missing.empty() && error.empty(); }

    static WebSite& get();
    std::filesystem::path file(const std::string& path) const { return root->path() / path; }
    std::string url(const std::string& path) const { return nginx->url("/" + path); }
    // Access-log lines for one URI path ("/data/file.bin").
    std::vector<AccessLogLine> requestsFor(const std::string& uri) const;
    // The same once at least `atLeast` lines are there (nginx logs a request after its reply is
    // sent, so a fast client can look before the line is written); gives up after five seconds.
    std::vector<AccessLogLine> requestsFor(const std::string& uri, std::size_t atLeast) const;
};

}  // namespace strata::test
