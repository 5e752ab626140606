// What remote reading must never get wrong, against nginx (and the fault proxy) on 127.0.0.1:
// names that mean something in a URL, folders however their listing is framed, passwords and
// tokens kept out of what is shown, one deadline and one retry budget per operation, HTTPS
// with a private certificate authority, and files whose changes could not be noticed.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <future>
#include <mutex>
#include <optional>

#include "formats/builtin/builtin_formats.h"
#include "formats/remote/remote_session.h"
#include "remote_test_env.h"

namespace strata {
namespace {

namespace fs = std::filesystem;
using test::WebSite;
using Clock = std::chrono::steady_clock;

std::string text(const ByteView& v) {
    return {reinterpret_cast<const char*>(v.data()), v.size()};
}

double secondsSince(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// Sets environment variables for one test and restores them after.
class EnvGuard {
public:
    void set(const std::string& name, const std::string& value) {
        save(name);
        ::setenv(name.c_str(), value.c_str(), 1);
    }
    void unset(const std::string& name) {
        save(name);
        ::unsetenv(name.c_str());
    }
    ~EnvGuard() {
        for (auto it = saved_.rbegin(); it != saved_.rend(); ++it) {
            if (it->second) {
                ::setenv(it->first.c_str(), it->second->c_str(), 1);
            } else {
                ::unsetenv(it->first.c_str());
            }
        }
    }

private:
    void save(const std::string& name) {
        const char* old = std::getenv(name.c_str());
        saved_.emplace_back(
            name, old == nullptr ? std::optional<std::string>() : std::optional<std::string>(old));
    }
    std::vector<std::pair<std::string, std::optional<std::string>>> saved_;
};

class Trust : public ::testing::Test {
protected:
    void SetUp() override {
        STRATA_REQUIRE_WEBSITE();
        // CA settings of the machine must not decide these tests.
        env_.unset("SSL_CERT_FILE");
        env_.unset("SSL_CERT_DIR");
        env_.unset("CURL_CA_BUNDLE");
    }
    static RemoteOptions quick() {
        RemoteOptions o;
        o.blockSize = 64 * 1024;
        o.retries = 1;
        o.retryBackoff = std::chrono::milliseconds(10);
        return o;
    }
    EnvGuard env_;
};

// Every name a listing gives opens: it is percent-encoded once in the request, never decoded
// again ("%41.bin" is not "A.bin"), and a '?' or '#' in it is not a query or a fragment.
TEST_F(Trust, NamesFromAListingAreEncodedOnceInRequests) {
    const auto session = makeRemoteSession(quick());
    const Location folder = session->locate(WebSite::get().url("listed/names"));
    const FileTreePtr tree = fileTreeFor(folder, session);
    std::vector<std::string> listed;
    for (const FileTreeEntry& e : tree->list(folder)) {
        listed.push_back(e.name + (e.isDirectory ? "/" : ""));
    }
    EXPECT_EQ(listed, (std::vector<std::string>{"%41.bin", "100%.bin", "a b.bin", "odd ?#dir/",
                                                "what?.bin", "x#1.bin", "\xC3\xBC.bin"}));
    for (const char* name : test::kOddNames) {
        const Location file = folder.child(name);
        EXPECT_EQ(file.text(), folder.text() + "/" + name);
        EXPECT_EQ(file.extension(), ".bin");
        const ByteSourcePtr source = tree->open(file);
        EXPECT_EQ(text(source->view(0, 100)), name);
        EXPECT_EQ(source->name(), file.text());
        const auto entry = tree->stat(file);
        ASSERT_TRUE(entry) << name;
        EXPECT_EQ(entry->size, std::string(name).size()) << name;
    }
    EXPECT_EQ(tree->list(folder.child("odd ?#dir")).at(0).name, "in.bin");
}

// A URL typed with percent-escapes names the same files as the listing's names.
TEST_F(Trust, TypedUrlsAreDecodedOnce) {
    const auto session = makeRemoteSession(quick());
    const Location file = session->locate(WebSite::get().url("names/odd%20%3F%23dir/in.bin"));
    EXPECT_EQ(file.text(), WebSite::get().url("names/odd ?#dir/in.bin"));
    EXPECT_EQ(text(session->open(file)->view(0, 100)), "odd ?#dir/in.bin");
    const Location percent = session->locate(WebSite::get().url("names/%2541.bin"));
    EXPECT_EQ(text(session->open(percent)->view(0, 100)), "%41.bin");
}

// A folder whose listing comes with a Content-Length (a stored listing nginx serves whole, with
// no ranges) is a folder, as it is when the listing comes chunked.
TEST_F(Trust, AFolderIsAFolderHoweverItsListingIsFramed) {
    WebSite::get().nginx->storeListings(WebSite::get().file("names"));
    const auto session = makeRemoteSession(quick());
    for (const char* prefix : {"listed/names", "stored/names"}) {
        const Location folder = session->locate(WebSite::get().url(prefix));
        const FileTreePtr tree = fileTreeFor(folder, session);
        const FileOrFolder found = tree->openOrList(folder, 0);
        EXPECT_FALSE(found.file) << prefix;
        EXPECT_EQ(found.entries.size(), 7u) << prefix;
        EXPECT_EQ(tree->list(folder).size(), 7u) << prefix;
        const Detection detection = builtinFormats().detect(tree, folder);
        EXPECT_EQ(detection.description, "folder") << prefix;
        EXPECT_TRUE(tree->stat(folder)->isDirectory) << prefix;
        EXPECT_EQ(text(tree->openOrList(folder.child("a b.bin"), 0).file->view(0, 100)), "a b.bin");
    }
}

// The password of a URL is sent to its server and shown nowhere: not in the location, the
// source's name, the request log, or an error.
TEST_F(Trust, PasswordGoesToTheServerAndNowhereElse) {
    std::vector<std::string> logged;
    std::mutex mutex;
    RemoteOptions o = quick();
    o.requestLog = [&](const RemoteRequestLogEntry& e) {
        const std::lock_guard lock(mutex);
        logged.push_back(e.url + " " + e.error);
    };
    const auto session = makeRemoteSession(o);
    const std::string base =
        "http://" + std::string(test::kPrivateUser) + ":" + test::kPrivatePasswordInUrl +
        "@127.0.0.1:" + std::to_string(WebSite::get().nginx->port()) + "/private";
    const Location folder = session->locate(base + "/names");
    const ByteSourcePtr source = session->open(folder.child("a b.bin"));
    EXPECT_EQ(text(source->view(0, 100)), "a b.bin");
    EXPECT_EQ(fileTreeFor(folder, session)->list(folder).size(), 7u);
    std::string shown = folder.text() + source->name();
    try {
        session->open(folder.child("none.bin"));
        ADD_FAILURE() << "opened a missing file";
    } catch (const RemoteError& e) {
        EXPECT_EQ(e.kind(), RemoteError::Kind::NotFound);
        shown += e.what();
    }
    for (const std::string& line : logged) {
        shown += line;
    }
    EXPECT_EQ(shown.find(test::kPrivatePassword), std::string::npos) << shown;
    EXPECT_EQ(shown.find(test::kPrivatePasswordInUrl), std::string::npos) << shown;
    EXPECT_NE(shown.find("reader@127.0.0.1"), std::string::npos) << shown;

    const auto without = makeRemoteSession(quick());
    try {
        without->open(without->locate(WebSite::get().url("private/names/a b.bin")));
        ADD_FAILURE() << "read without the password";
    } catch (const RemoteError& e) {
        EXPECT_EQ(e.kind(), RemoteError::Kind::Forbidden) << e.what();
    }
}

// A token in a URL's query goes with every request for it and below it, and is shown as ***.
TEST_F(Trust, QueryTokenIsSentAndRedacted) {
    std::vector<std::string> logged;
    std::mutex mutex;
    RemoteOptions o = quick();
    o.requestLog = [&](const RemoteRequestLogEntry& e) {
        const std::lock_guard lock(mutex);
        logged.push_back(e.url);
    };
    const auto session = makeRemoteSession(o);
    const Location folder = session->locate(WebSite::get().url("listed/names?token=t0k3n"));
    EXPECT_EQ(folder.text(), WebSite::get().url("listed/names"));
    const FileTreePtr tree = fileTreeFor(folder, session);
    EXPECT_EQ(text(tree->open(folder.child("what?.bin"))->view(0, 100)), "what?.bin");
    ASSERT_FALSE(logged.empty());
    for (const std::string& url : logged) {
        EXPECT_NE(url.find("?token=***"), std::string::npos) << url;
        EXPECT_EQ(url.find("t0k3n"), std::string::npos) << url;
    }
}

class TrustFaults : public Trust {
protected:
    static void SetUpTestSuite() {
        if (WebSite::get().ready() && test::proxyMissing().empty() && !proxy_) {
            try {
                proxy_ = std::make_unique<test::FaultProxy>(WebSite::get().nginx->port());
            } catch (const std::exception& e) {
                proxyError_ = e.what();
            }
        }
    }
    static void TearDownTestSuite() { proxy_.reset(); }
    void SetUp() override {
        Trust::SetUp();
        STRATA_REQUIRE_SERVER(test::proxyMissing());
        STRATA_REQUIRE_STARTED(proxyError_);
    }
    std::string url(const std::string& fault, const std::string& path) {
        return proxy_->url(::testing::UnitTest::GetInstance()->current_test_info()->name(), fault,
                           path);
    }
    static inline std::unique_ptr<test::FaultProxy> proxy_;
    static inline std::string proxyError_;
};

// Opening a stalled URL (as a file, then as a folder) is one operation: one retry budget for
// all its requests, where each step used to spend a whole one.
TEST_F(TrustFaults, OpeningAStalledUrlSpendsOneRetryBudget) {
    RemoteOptions o = quick();
    o.lowSpeedTime = std::chrono::seconds(1);
    o.retries = 2;
    const auto session = makeRemoteSession(o);
    const Location location = session->locate(url("stall", "/data/file.bin"));
    try {
        builtinFormats().detect(fileTreeFor(location, session), location);
        ADD_FAILURE() << "a stalled server gave an answer";
    } catch (const RemoteError& e) {
        EXPECT_EQ(e.kind(), RemoteError::Kind::Timeout) << e.what();
    }
    EXPECT_EQ(session->counters().requests, 3u);
}

// A server trickling bytes (faster than the low-speed limit) is given up on at the deadline.
TEST_F(TrustFaults, TrickleEndsAtTheDeadline) {
    CancelToken giveUp;
    RemoteOptions o = quick();
    o.operationTimeout = std::chrono::seconds(2);
    o.cancel = &giveUp;
    const auto session = makeRemoteSession(o);
    const auto start = Clock::now();
    auto opening = std::async(std::launch::async, [&] {
        session->open(session->locate(url("trickle", "/data/file.bin")));
    });
    if (opening.wait_for(std::chrono::seconds(30)) != std::future_status::ready) {
        giveUp.cancel();
        opening.wait();
        FAIL() << "still reading a trickle after 30 s";
    }
    try {
        opening.get();
        FAIL() << "a trickle of 20 bytes a second delivered a 64 KiB block";
    } catch (const RemoteError& e) {
        EXPECT_EQ(e.kind(), RemoteError::Kind::Timeout) << e.what();
        EXPECT_NE(std::string(e.what()).find("time limit for one operation"), std::string::npos)
            << e.what();
    }
    EXPECT_LT(secondsSince(start), 10.0);
}

// Without an ETag or Last-Modified nothing tells two versions of the file apart: what comes
// whole in the first answer is read, anything needing a second request is refused, saying so.
TEST_F(TrustFaults, FileWithoutValidatorsIsReadOnlyFromItsFirstAnswer) {
    const auto session = makeRemoteSession(quick());
    const ByteSourcePtr small =
        session->open(session->locate(url("novalidators", "/data/small.bin")));
    EXPECT_EQ(small->size(), 1000u);
    EXPECT_EQ(small->view(0, 1000).size(), 1000u);
    const ByteSourcePtr big = session->open(session->locate(url("novalidators", "/data/file.bin")));
    EXPECT_EQ(big->view(0, 100).size(), 100u);
    try {
        big->view(1024 * 1024, 100);
        FAIL() << "read a second range of a file whose changes cannot be seen";
    } catch (const RemoteError& e) {
        EXPECT_EQ(e.kind(), RemoteError::Kind::Unverifiable);
        EXPECT_NE(std::string(e.what()).find("no ETag or Last-Modified"), std::string::npos)
            << e.what();
    }
}

// HTTPS with a private certificate authority (made for this run): refused until Strata is told
// to trust it, by the option, CURL_CA_BUNDLE, SSL_CERT_FILE or SSL_CERT_DIR.
class TrustHttps : public Trust {
protected:
    static void SetUpTestSuite() {
        if (!WebSite::get().ready() || !test::opensslMissing().empty() || server_) {
            return;
        }
        try {
            dir_ = std::make_unique<test::TempDir>("strata-tls");
            certificates_ = test::makeTestCertificates(dir_->path());
            server_ =
                std::make_unique<test::NginxServer>(WebSite::get().root->path(), &certificates_);
        } catch (const std::exception& e) {
            startError_ = e.what();
        }
    }
    static void TearDownTestSuite() {
        server_.reset();
        dir_.reset();
    }
    void SetUp() override {
        Trust::SetUp();
        STRATA_REQUIRE_SERVER(test::opensslMissing());
        STRATA_REQUIRE_STARTED(startError_);
    }
    static std::string read(const RemoteOptions& o) {
        const auto session = makeRemoteSession(o);
        return text(session->open(session->locate(server_->url("/data/small.bin")))->view(0, 4));
    }
    static std::string expected() { return test::patternBytes(1000, 2).substr(0, 4); }

    static inline std::unique_ptr<test::TempDir> dir_;
    static inline test::TestCertificates certificates_;
    static inline std::unique_ptr<test::NginxServer> server_;
    static inline std::string startError_;
};

TEST_F(TrustHttps, UntrustedServerIsRefusedSayingHowToTrustIt) {
    try {
        read(quick());
        FAIL() << "trusted a certificate no authority of the system signed";
    } catch (const RemoteError& e) {
        EXPECT_NE(std::string(e.what()).find("certificate is not trusted"), std::string::npos)
            << e.what();
        EXPECT_NE(std::string(e.what()).find("SSL_CERT_FILE"), std::string::npos) << e.what();
    }
}

TEST_F(TrustHttps, CaFileOptionTrustsThePrivateAuthority) {
    RemoteOptions o = quick();
    o.caFile = certificates_.caCertificate;
    EXPECT_EQ(read(o), expected());
}

TEST_F(TrustHttps, EnvironmentNamesTheAuthority) {
    for (const char* variable : {"SSL_CERT_FILE", "CURL_CA_BUNDLE"}) {
        EnvGuard env;
        env.set(variable, certificates_.caCertificate.string());
        EXPECT_EQ(read(quick()), expected()) << variable;
    }
    const fs::path hashed = dir_->path() / "certs";
    fs::create_directories(hashed);
    fs::copy_file(certificates_.caCertificate, hashed / "strata-test-ca.pem",
                  fs::copy_options::overwrite_existing);
    ASSERT_EQ(std::system((std::string(STRATA_OPENSSL_EXECUTABLE) + " rehash " + hashed.string() +
                           " >/dev/null 2>&1")
                              .c_str()),
              0);
    EnvGuard env;
    env.set("SSL_CERT_DIR", hashed.string());
    EXPECT_EQ(read(quick()), expected());
}

}  // namespace
}  // namespace strata
