// strata-cli's connection options against real servers on 127.0.0.1: --timeout ends a command
// whose server trickles bytes, --ca-file (and SSL_CERT_FILE, CURL_CA_BUNDLE) let it read from
// HTTPS signed by a private authority made for the run, and a failing URL's password and token
// stay out of the error.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "cli_run.h"
#include "remote_test_env.h"

namespace strata {
namespace {

namespace fs = std::filesystem;
using test::CliRun;
using test::runCli;

const fs::path kCorpus = STRATA_CORPUS_DIR;
const char* const kFile = "zs/valid/codec-deflate.zs";

struct Servers {
    std::unique_ptr<test::TempDir> dir;
    std::unique_ptr<test::NginxServer> http, https;
    std::unique_ptr<test::FaultProxy> proxy;
    test::TestCertificates certificates;
    std::string missing, error;

    static Servers& get() {
        static Servers servers = [] {
            Servers s;
            for (const std::string& why :
                 {test::nginxMissing(), test::proxyMissing(), test::opensslMissing()}) {
                if (s.missing.empty()) {
                    s.missing = why;
                }
            }
            if (!s.missing.empty()) {
                return s;
            }
            try {
                s.dir = std::make_unique<test::TempDir>("strata-cli-tls");
                s.certificates = test::makeTestCertificates(s.dir->path());
                s.http = std::make_unique<test::NginxServer>(kCorpus);
                s.https = std::make_unique<test::NginxServer>(kCorpus, &s.certificates);
                s.proxy = std::make_unique<test::FaultProxy>(s.http->port());
            } catch (const std::exception& e) {
                s.error = e.what();
            }
            return s;
        }();
        return servers;
    }
};

class CliConnection : public ::testing::Test {
protected:
    void SetUp() override {
        if (!fs::is_regular_file(kCorpus / kFile)) {
            GTEST_SKIP() << "no conformance corpus at " << kCorpus.string();
        }
        STRATA_REQUIRE_SERVER(Servers::get().missing);
        STRATA_REQUIRE_STARTED(Servers::get().error);
        for (const char* variable : {"SSL_CERT_FILE", "SSL_CERT_DIR", "CURL_CA_BUNDLE"}) {
            ::unsetenv(variable);
        }
    }
};

TEST_F(CliConnection, TimeoutEndsATrickle) {
    const std::string url = Servers::get().proxy->url("cli", "trickle", std::string("/") + kFile);
    const auto start = std::chrono::steady_clock::now();
    const CliRun run = runCli({"--timeout", "2", "validate", url});
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_EQ(run.exit, 2) << run.out << run.err;
    EXPECT_NE(run.err.find("time limit for one operation"), std::string::npos) << run.err;
    EXPECT_LT(seconds, 20.0);
}

TEST_F(CliConnection, CaFileTrustsAPrivateAuthority) {
    const std::string url = Servers::get().https->url(std::string("/") + kFile);
    const std::string ca = Servers::get().certificates.caCertificate.string();
    const CliRun local = runCli({"zs", "dump", (kCorpus / kFile).string()});
    const CliRun untrusted = runCli({"zs", "dump", url});
    EXPECT_EQ(untrusted.exit, 2);
    EXPECT_NE(untrusted.err.find("certificate is not trusted"), std::string::npos) << untrusted.err;
    const CliRun option = runCli({"--ca-file", ca, "zs", "dump", url});
    EXPECT_EQ(option.exit, 0) << option.err;
    EXPECT_EQ(option.out, local.out);
    for (const char* variable : {"SSL_CERT_FILE", "CURL_CA_BUNDLE"}) {
        ::setenv(variable, ca.c_str(), 1);
        const CliRun environment = runCli({"zs", "dump", url});
        ::unsetenv(variable);
        EXPECT_EQ(environment.exit, 0) << variable << ": " << environment.err;
        EXPECT_EQ(environment.out, local.out) << variable;
    }
    const CliRun missing = runCli({"--ca-file", "/nonexistent/ca.pem", "zs", "dump", url});
    EXPECT_EQ(missing.exit, 2);
}

TEST_F(CliConnection, FailingUrlShowsNoSecret) {
    const std::string url = "http://" + std::string(test::kPrivateUser) + ":" +
                            test::kPrivatePasswordInUrl +
                            "@127.0.0.1:" + std::to_string(Servers::get().http->port()) +
                            "/private/zs/valid/no-such-file.zs?token=t0ken-never-shown";
    for (const auto& args :
         {std::vector<std::string>{"info", url}, std::vector<std::string>{"-v", "validate", url},
          std::vector<std::string>{"zs", "info", url}}) {
        const CliRun run = runCli(args);
        EXPECT_EQ(run.exit, 2) << args.front();
        const std::string all = run.out + run.err;
        EXPECT_NE(all.find("404"), std::string::npos) << all;
        for (const char* secret :
             {test::kPrivatePassword, test::kPrivatePasswordInUrl, "t0ken-never-shown"}) {
            EXPECT_EQ(all.find(secret), std::string::npos) << all;
        }
    }
}

}  // namespace
}  // namespace strata
