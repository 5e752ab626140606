// strata-cli's read commands on the same inputs locally and at URLs: over nginx with chunked
// JSON listings (/listed/), over nginx with stored listings sent with a Content-Length
// (/stored/), over nginx behind a password with a token in the query (/private/), and over
// s3rver. Every run must give the local run's stdout, stderr and exit code, the local folder
// swapped for the location shown, and no password or token may appear in any output (with -v
// too). The inputs are copies of corpus files and folders, valid and damaged, renamed with a
// space, '#', '?', '%', "%41" and non-ASCII, plus generated folders whose inner names hold them.
//
// CI runs a representative subset per format; STRATA_REMOTE_DIFFERENTIAL=full runs every input
// of the corpus (docs/remote.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "cli_run.h"
#include "remote_test_env.h"

namespace strata {
namespace {

namespace fs = std::filesystem;
using test::CliRun;
using test::runCli;

const fs::path kCorpus = STRATA_CORPUS_DIR;
// What every copied name gets before its extension, and the folder all copies are under.
const std::string kOdd = " #1 ?%41 \xC3\xBC";
const std::string kTop = "inputs" + kOdd;
const char* const kToken = "t0ken-never-shown";

bool fullRun() {
    const char* value = std::getenv("STRATA_REMOTE_DIFFERENTIAL");
    return value != nullptr && std::string(value) == "full";
}

std::string oddName(const fs::path& name) {
    const bool file = name.has_extension() && name.stem() != "";
    return file ? name.stem().string() + kOdd + name.extension().string() : name.string() + kOdd;
}

using Command = std::vector<std::string>;  // "{}" (and "{1}") where the inputs go

const std::map<std::string, std::vector<Command>> kCommands = {
    {"zs",
     {{"detect", "{}"},
      {"info", "{}"},
      {"info", "--json", "{}"},
      {"validate", "{}"},
      {"validate", "--json", "{}"},
      {"zs", "info", "{}"},
      {"zs", "dump", "{}"},
      {"zs", "dump", "--prefix=a", "{}"},
      {"zs", "validate", "{}"}}},
    {"ztensor",
     {{"detect", "{}"},
      {"info", "{}"},
      {"validate", "--json", "{}"},
      {"zt", "info", "{}"},
      {"zt", "info", "--json", "{}"},
      {"zt", "dump", "--stats", "{}"},
      {"zt", "validate", "--json", "{}"}}},
    {"zds",
     {{"detect", "{}"},
      {"info", "{}"},
      {"validate", "{}"},
      {"zds", "validate", "{}"},
      {"zds", "validate", "{}", "--json"},
      {"zds", "ls", "{}"},
      {"zds", "search", "{}", "--text", "--op", "contains", "_id", "--limit", "3"}}},
    {"ozdf",
     {{"detect", "{}"},
      {"info", "{}"},
      {"validate", "{}"},
      {"ozdf", "dump", "{}"},
      {"ozdf", "validate", "{}", "--json"},
      {"ozdf", "export", "{}"}}},
    {"shardlake",
     {{"detect", "{}"},
      {"info", "{}"},
      {"validate", "{}"},
      {"shardlake", "info", "{}", "--json"},
      {"shardlake", "validate", "{}"},
      {"shardlake", "query", "{}", "--index", "idx-l2", "--id", "7", "-k", "5"}}},
};

// Corpus inputs compared in every run, per format (relative to the corpus).
const std::map<std::string, std::vector<std::string>> kSubset = {
    {"zs",
     {"zs/valid/tiny.zs", "zs/valid/multilevel-bf2.zs", "zs/corrupt/data-block-crc-wrong.zs",
      "zs/corrupt/truncated-mid-block-length-fixed.zs", "zs/corrupt/empty-file.zs"}},
    {"ztensor",
     {"ztensor/valid/dense_zstd_crc32c.zt", "ztensor/valid/sparse_raw.zt", "ztensor/valid/empty.zt",
      "ztensor/corrupt/digest_mismatch.zt", "ztensor/corrupt/manifest_size_past_eof.zt"}},
    {"zds",
     {"zds/valid/docs_mode", "zds/valid/docs_mode.zds", "zds/valid/jsonl_two_collections",
      "zds/corrupt/zdx_offset_past_eof", "zds/corrupt/zip_truncated.zds"}},
    {"ozdf",
     {"ozdf/valid/handwritten/docs/list_named_items.ozdf", "ozdf/valid/handwritten/docs/empty.ozdf",
      "ozdf/valid/handwritten/dirdocs/two_external_lists",
      "ozdf/valid/written_by_reference/api_corpus", "ozdf/corrupt/corpus_one_bad_doc",
      "ozdf/corrupt/part_missing_data"}},
    {"shardlake",
     {"shardlake/root", "shardlake/corrupt/shard_truncated", "shardlake/corrupt/cq_missing"}},
};

// Where each format's inputs are in the corpus: every entry of these folders, file or folder,
// but the corpus's records of what the references did; and folders read whole.
const std::map<std::string, std::vector<std::string>> kInputFolders = {
    {"zs", {"zs/valid", "zs/corrupt", "zs/refsuite"}},
    {"ztensor", {"ztensor/valid", "ztensor/corrupt"}},
    {"zds", {"zds/valid", "zds/corrupt"}},
    {"ozdf",
     {"ozdf/valid/handwritten/docs", "ozdf/valid/handwritten/dirdocs",
      "ozdf/valid/written_by_reference", "ozdf/corrupt"}},
    {"shardlake", {"shardlake/corrupt"}},
};
const std::map<std::string, std::vector<std::string>> kWholeFolders = {
    {"ozdf", {"ozdf/valid/handwritten/docs", "ozdf/valid/handwritten/dirdocs"}},
    {"shardlake", {"shardlake/root"}},
};

std::vector<std::string> everyInput(const std::string& format) {
    static const std::set<std::string> kNotInputs = {
        "cases.json", "RESULTS.md", "README.md", "_reference_output", "_base", "make",
        "dump",       "validate",   "info"};
    std::vector<std::string> out;
    if (const auto whole = kWholeFolders.find(format); whole != kWholeFolders.end()) {
        out = whole->second;
    }
    for (const std::string& folder : kInputFolders.at(format)) {
        for (const auto& entry : fs::directory_iterator(kCorpus / folder)) {
            const std::string name = entry.path().filename().string();
            if (!kNotInputs.contains(name) && !name.starts_with(".")) {
                out.push_back(fs::relative(entry.path(), kCorpus).generic_string());
            }
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<std::string> inputsOf(const std::string& format) {
    return fullRun() ? everyInput(format) : kSubset.at(format);
}

// Where the copies live and the servers that serve them (started once, after the copies).
struct Site {
    std::unique_ptr<test::TempDir> dir;
    std::unique_ptr<test::NginxServer> nginx;
    std::unique_ptr<test::S3Server> s3;
    std::string missing, error;
    std::map<std::string, fs::path> copies;  // corpus-relative input -> local copy

    static Site& get() {
        static Site site = make();
        return site;
    }
    fs::path top() const { return dir->path() / kTop; }

    static Site make() {
        Site s;
        s.missing = test::nginxMissing();
        if (s.missing.empty()) {
            s.missing = test::s3rverMissing();
        }
        if (!s.missing.empty() || !fs::is_directory(kCorpus / "zs")) {
            return s;
        }
        try {
            s.dir = std::make_unique<test::TempDir>("strata-differential");
            for (const auto& [format, commands] : kCommands) {
                for (const std::string& input : inputsOf(format)) {
                    s.copy(input);
                }
            }
            s.makeOddFolders();
            s.nginx = std::make_unique<test::NginxServer>(s.dir->path());
            s.nginx->storeListings(s.top());
            s.s3 = std::make_unique<test::S3Server>(std::vector<std::string>{"site"});
            for (const auto& entry : fs::recursive_directory_iterator(s.dir->path())) {
                if (entry.is_regular_file()) {
                    s.s3->put("site", fs::relative(entry.path(), s.dir->path()).generic_string(),
                              test::readAll(entry.path()));
                }
            }
        } catch (const std::exception& e) {
            s.error = e.what();
        }
        return s;
    }

    // The corpus input copied to inputs…/<format>/<its path below the format, renamed>.
    void copy(const std::string& input) {
        const fs::path from = kCorpus / input;
        if (copies.contains(input) || !fs::exists(from)) {
            return;
        }
        const fs::path relative = fs::path(input);
        fs::path to = top() / relative.parent_path() / oddName(relative.filename());
        fs::create_directories(to.parent_path());
        fs::copy(from, to, fs::copy_options::recursive);
        copies[input] = to;
    }

    // Folders whose inner names hold the odd characters: an OZDF corpus of renamed documents
    // and a directory document, and a ZDS dataset with a renamed collection.
    void makeOddFolders() {
        const fs::path docs = kCorpus / "ozdf/valid/handwritten";
        const fs::path corpus = top() / "ozdf/generated" / ("corpus" + kOdd);
        fs::create_directories(corpus);
        fs::copy(docs / "docs/two_blocks.ozdf", corpus / ("two blocks" + kOdd + ".ozdf"));
        fs::copy(docs / "docs/comments.ozdf", corpus / "50% #2.ozdf");
        fs::copy(docs / "dirdocs/basic", corpus / ("basic" + kOdd), fs::copy_options::recursive);
        copies["ozdf/generated/corpus"] = corpus;

        const fs::path dataset = top() / "zds/generated" / ("dataset" + kOdd);
        fs::create_directories(dataset.parent_path());
        fs::copy(kCorpus / "zds/valid/jsonl_two_collections", dataset, fs::copy_options::recursive);
        const fs::path collections = dataset / "collections";
        const fs::path first = fs::directory_iterator(collections)->path();
        fs::rename(first, collections / (first.filename().string() + kOdd));
        copies["zds/generated/dataset"] = dataset;
    }
};

// One place an input is read from: how its location is typed, and how it is shown.
struct Place {
    std::string name;
    std::function<std::string(const std::string& relative)> typed;
    std::string shownRoot;  // what the local folder becomes in the outputs
    std::vector<std::string> options;
};

std::vector<Place> places() {
    const Site& site = Site::get();
    const std::string host = "127.0.0.1:" + std::to_string(site.nginx->port());
    const auto http = [&](const std::string& prefix) {
        return Place{prefix,
                     [url = site.nginx->url("/" + prefix + "/")](const std::string& relative) {
                         return url + test::encodedPath(relative);
                     },
                     "http://" + host + "/" + prefix,
                     {}};
    };
    Place secret{
        "private",
        [base = "http://" + std::string(test::kPrivateUser) + ":" + test::kPrivatePasswordInUrl +
                "@" + host + "/private/"](const std::string& relative) {
            return base + test::encodedPath(relative) + "?token=" + kToken;
        },
        "http://" + std::string(test::kPrivateUser) + "@" + host + "/private",
        {}};
    Place s3{"s3",
             [](const std::string& relative) { return "s3://site/" + relative; },
             "s3://site",
             {"--endpoint-url", site.s3->endpoint()}};
    return {http("listed"), http("stored"), secret, s3};
}

bool showsASecret(const CliRun& run) {
    const std::string all = run.out + run.err;
    for (const std::string& secret :
         {std::string(test::kPrivatePassword), std::string(test::kPrivatePasswordInUrl),
          std::string(kToken)}) {
        if (all.find(secret) != std::string::npos) {
            return true;
        }
    }
    return false;
}

class CliDifferential : public ::testing::Test {
protected:
    void SetUp() override {
        if (!fs::is_directory(kCorpus / "zs")) {
            GTEST_SKIP() << "no conformance corpus at " << kCorpus.string()
                         << "; set STRATA_CORPUS_DIR (configure with -DSTRATA_CORPUS_DIR=...)";
        }
        STRATA_REQUIRE_SERVER(Site::get().missing);
        STRATA_REQUIRE_STARTED(Site::get().error);
        ::setenv("AWS_ACCESS_KEY_ID", "S3RVER", 1);
        ::setenv("AWS_SECRET_ACCESS_KEY", "S3RVER", 1);
        ::setenv("AWS_REGION", "us-east-1", 1);
        ::setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent", 1);
        ::setenv("AWS_CONFIG_FILE", "/nonexistent", 1);
    }

    // `command` on the local copies, then at every place: the same output, exit code, no secret.
    static void expectSameEverywhere(const Command& command, const std::vector<fs::path>& locals) {
        const fs::path root = Site::get().dir->path();
        const auto with = [&](const std::function<std::string(const fs::path&)>& where) {
            std::vector<std::string> args;
            for (const std::string& arg : command) {
                args.push_back(arg == "{}"    ? where(locals.at(0))
                               : arg == "{1}" ? where(locals.at(1))
                                              : arg);
            }
            return args;
        };
        const CliRun local = runCli(with([](const fs::path& p) { return p.string(); }));
        for (const Place& place : places()) {
            std::vector<std::string> args = place.options;
            for (const std::string& arg : with([&](const fs::path& p) {
                     return place.typed(fs::relative(p, root).generic_string());
                 })) {
                args.push_back(arg);
            }
            const CliRun remote = runCli(args);
            std::string what;
            for (const std::string& arg : args) {
                what += arg + ' ';
            }
            what += "(" + place.name + ")";
            EXPECT_EQ(local.exit, remote.exit)
                << what << "\nlocal stderr: " << local.err << "\nremote stderr: " << remote.err;
            EXPECT_EQ(test::replaceAll(local.out, root.string(), place.shownRoot), remote.out)
                << what;
            EXPECT_EQ(test::replaceAll(local.err, root.string(), place.shownRoot), remote.err)
                << what;
            EXPECT_FALSE(showsASecret(remote)) << what << "\n" << remote.out << remote.err;
        }
    }

    // The input's commands, a `zds get` of its first document, and a -v run that shows no secret.
    static void expectInputReadsAsLocally(const std::string& format, const std::string& input) {
        const auto copy = Site::get().copies.find(input);
        ASSERT_NE(copy, Site::get().copies.end()) << input;
        SCOPED_TRACE(input);
        for (const Command& command : kCommands.at(format)) {
            expectSameEverywhere(command, {copy->second});
        }
        if (format == "zds") {
            const CliRun ls = runCli({"zds", "ls", copy->second.string()});
            if (ls.exit == 0 && !ls.out.empty()) {
                expectSameEverywhere({"zds", "get", "{}", ls.out.substr(0, ls.out.find('\n'))},
                                     {copy->second});
            }
        }
        const Place secret = places().at(2);
        const CliRun verbose = runCli(
            {"-v", "validate",
             secret.typed(fs::relative(copy->second, Site::get().dir->path()).generic_string())});
        EXPECT_FALSE(showsASecret(verbose)) << verbose.err;
        EXPECT_NE(verbose.err.find("token=***"), std::string::npos) << verbose.err;
    }

    static void expectFormatReadsAsLocally(const std::string& format) {
        int inputs = 0;
        for (const std::string& input : inputsOf(format)) {
            expectInputReadsAsLocally(format, input);
            ++inputs;
        }
        EXPECT_GE(inputs, 3);
    }
};

TEST_F(CliDifferential, ZsReadsAsLocally) {
    expectFormatReadsAsLocally("zs");
}

TEST_F(CliDifferential, ZtensorReadsAsLocally) {
    expectFormatReadsAsLocally("ztensor");
}

TEST_F(CliDifferential, ZdsReadsAsLocally) {
    expectFormatReadsAsLocally("zds");
    expectInputReadsAsLocally("zds", "zds/generated/dataset");
}

TEST_F(CliDifferential, OzdfReadsAsLocally) {
    expectFormatReadsAsLocally("ozdf");
    expectInputReadsAsLocally("ozdf", "ozdf/generated/corpus");
}

TEST_F(CliDifferential, ShardlakeReadsAsLocally) {
    expectFormatReadsAsLocally("shardlake");
}

// diff with both sides at the same place, for a pair of inputs of each format.
TEST_F(CliDifferential, DiffReadsAsLocally) {
    const std::vector<std::pair<std::string, std::string>> pairs = {
        {"zs/valid/tiny.zs", "zs/valid/multilevel-bf2.zs"},
        {"ztensor/valid/dense_zstd_crc32c.zt", "ztensor/corrupt/digest_mismatch.zt"},
        {"zds/valid/jsonl_two_collections", "zds/generated/dataset"},
        {"ozdf/valid/written_by_reference/api_corpus", "ozdf/corrupt/corpus_one_bad_doc"},
        {"shardlake/root", "shardlake/corrupt/shard_truncated"}};
    for (const auto& [a, b] : pairs) {
        SCOPED_TRACE(a + " against " + b);
        const auto& copies = Site::get().copies;
        ASSERT_TRUE(copies.contains(a) && copies.contains(b));
        expectSameEverywhere({"diff", "{}", "{1}"}, {copies.at(a), copies.at(b)});
        expectSameEverywhere({"diff", "{}", "{1}", "--json"}, {copies.at(a), copies.at(b)});
    }
}

}  // namespace
}  // namespace strata
