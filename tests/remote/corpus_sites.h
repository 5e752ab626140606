// The shared corpus at URLs, for the remote CLI tests of folder formats: nginx serving it with
// JSON folder listings under /listed/, and s3rver holding the folders a test uploads (bucket
// "corpus", keys relative to the corpus). CliRemoteFixture runs a command on the local path, the
// HTTP URL and the S3 URL and expects the same stdout, stderr and exit code (the echoed location
// swapped back).
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "cli_run.h"
#include "remote_test_env.h"

namespace strata::test {

inline const std::filesystem::path& corpusDir() {
    static const std::filesystem::path dir = STRATA_CORPUS_DIR;
    return dir;
}

struct CorpusSites {
    std::unique_ptr<NginxServer> nginx;
    std::unique_ptr<S3Server> s3;
    std::string missing, error;
    std::set<std::string> uploaded;

    static CorpusSites& get() {
        static CorpusSites sites = [] {
            CorpusSites s;
            s.missing = nginxMissing();
            if (s.missing.empty()) {
                s.missing = s3rverMissing();
            }
            if (!s.missing.empty()) {
                return s;
            }
            try {
                s.nginx = std::make_unique<NginxServer>(corpusDir());
                s.s3 = std::make_unique<S3Server>(std::vector<std::string>{"corpus"});
            } catch (const std::exception& e) {
                s.error = e.what();
            }
            return s;
        }();
        return sites;
    }

    // Puts every file under corpus/`folder` into the bucket (once per program).
    void upload(const std::string& folder) {
        if (!uploaded.insert(folder).second) {
            return;
        }
        namespace fs = std::filesystem;
        for (const auto& entry : fs::recursive_directory_iterator(corpusDir() / folder)) {
            if (entry.is_regular_file()) {
                s3->put("corpus", fs::relative(entry.path(), corpusDir()).generic_string(),
                        readAll(entry.path()));
            }
        }
    }

    std::string http(const std::filesystem::path& local) const {
        return nginx->url("/listed/" +
                          std::filesystem::relative(local, corpusDir()).generic_string());
    }
    static std::string s3Url(const std::filesystem::path& local) {
        return "s3://corpus/" + std::filesystem::relative(local, corpusDir()).generic_string();
    }
};

class CliRemoteFixture : public ::testing::Test {
protected:
    // Skips without the corpus folder `needs` (never fails, even where servers are required).
    void requireSites(const std::string& needs) {
        if (!std::filesystem::is_directory(corpusDir() / needs)) {
            GTEST_SKIP() << "no conformance corpus at " << corpusDir().string()
                         << "; set STRATA_CORPUS_DIR (configure with -DSTRATA_CORPUS_DIR=...)";
        }
        STRATA_REQUIRE_SERVER(CorpusSites::get().missing);
        STRATA_REQUIRE_STARTED(CorpusSites::get().error);
        // s3rver knows the key S3RVER; strata-cli reads credentials from the environment.
        ::setenv("AWS_ACCESS_KEY_ID", "S3RVER", 1);
        ::setenv("AWS_SECRET_ACCESS_KEY", "S3RVER", 1);
        ::setenv("AWS_REGION", "us-east-1", 1);
        ::setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent", 1);
        ::setenv("AWS_CONFIG_FILE", "/nonexistent", 1);
    }

    // `args` with "{}" replaced by the local path, then by the HTTP URL, then by the S3 URL
    // (the folder holding it must have been uploaded): the runs must agree.
    static void expectSameEverywhere(const std::vector<std::string>& args,
                                     const std::filesystem::path& local) {
        const std::string http = CorpusSites::get().http(local);
        const std::string s3 = CorpusSites::s3Url(local);
        const auto with = [&](const std::string& location, bool s3Endpoint) {
            std::vector<std::string> out;
            if (s3Endpoint) {
                out = {"--endpoint-url", CorpusSites::get().s3->endpoint()};
            }
            for (const std::string& arg : args) {
                out.push_back(arg == "{}" ? location : arg);
            }
            return out;
        };
        const CliRun a = runCli(with(local.string(), false));
        std::string what;
        for (const std::string& arg : args) {
            what += (arg == "{}" ? local.string() : arg) + ' ';
        }
        for (const auto& [url, isS3] : {std::pair{http, false}, std::pair{s3, true}}) {
            const CliRun b = runCli(with(url, isS3));
            EXPECT_EQ(a.exit, b.exit) << what << "at " << url << "\nlocal stderr: " << a.err
                                      << "\nremote stderr: " << b.err;
            EXPECT_EQ(replaceAll(a.out, local.string(), url), b.out) << what << "at " << url;
            EXPECT_EQ(replaceAll(a.err, local.string(), url), b.err) << what << "at " << url;
        }
    }
};

}  // namespace strata::test
