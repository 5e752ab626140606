// The shared corpus at URLs, for the remote CLI tests of folder formats: nginx serving it with
// JSON folder listings under /listed/, and s3rver holding the folders a test uploads (bucket
// "corpus", keys relative to the corpus). CliRemoteFixture runs a command on the local path, the
// HTTP URL and the S3 URL and expects the same stdout, stderr and exit code (the echoed location
// swapped back).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
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
        expectSameEverywhere(args, std::vector<std::filesystem::path>{local});
    }

    // The same with several inputs: "{}" is locals[0], "{1}" locals[1] (a diff of two).
    static void expectSameEverywhere(const std::vector<std::string>& args,
                                     const std::vector<std::filesystem::path>& locals) {
        const auto placeholder = [](std::size_t i) {
            return i == 0 ? std::string("{}") : "{" + std::to_string(i) + "}";
        };
        enum class Where { Local, Http, S3 };
        const auto location = [&](std::size_t i, Where where) {
            return where == Where::Local  ? locals[i].string()
                   : where == Where::Http ? CorpusSites::get().http(locals[i])
                                          : CorpusSites::s3Url(locals[i]);
        };
        const auto with = [&](Where where) {
            std::vector<std::string> out;
            if (where == Where::S3) {
                out = {"--endpoint-url", CorpusSites::get().s3->endpoint()};
            }
            for (const std::string& arg : args) {
                std::string value = arg;
                for (std::size_t i = 0; i < locals.size(); ++i) {
                    if (arg == placeholder(i)) {
                        value = location(i, where);
                    }
                }
                out.push_back(value);
            }
            return out;
        };
        // Longest paths first, so a path that is a prefix of another is replaced last.
        const auto toRemote = [&](std::string text, Where where) {
            std::vector<std::size_t> order(locals.size());
            for (std::size_t i = 0; i < order.size(); ++i) {
                order[i] = i;
            }
            std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
                return locals[x].string().size() > locals[y].string().size();
            });
            for (const std::size_t i : order) {
                text = replaceAll(text, locals[i].string(), location(i, where));
            }
            return text;
        };
        const CliRun a = runCli(with(Where::Local));
        std::string what;
        for (const std::string& arg : with(Where::Local)) {
            what += arg + ' ';
        }
        for (const Where where : {Where::Http, Where::S3}) {
            const CliRun b = runCli(with(where));
            const std::string at = where == Where::Http ? "over HTTP" : "over S3";
            EXPECT_EQ(a.exit, b.exit)
                << what << at << "\nlocal stderr: " << a.err << "\nremote stderr: " << b.err;
            EXPECT_EQ(toRemote(a.out, where), b.out) << what << at;
            EXPECT_EQ(toRemote(a.err, where), b.err) << what << at;
        }
    }
};

}  // namespace strata::test
