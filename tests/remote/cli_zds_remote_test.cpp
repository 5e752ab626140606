// strata-cli on ZDS datasets at URLs: every valid dataset folder and `.zds` archive of the
// corpus (and every damaged ZDS case) served by nginx with JSON folder listings, and uploaded to
// s3rver, gives the same stdout, stderr and exit code as the local copy (the echoed location is
// swapped before comparing). Write commands refuse URLs.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "corpus_sites.h"

namespace strata {
namespace {

namespace fs = std::filesystem;

using test::CliRun;
using test::runCli;

const fs::path kCorpus = STRATA_CORPUS_DIR;
const fs::path kValid = kCorpus / "zds/valid";
const fs::path kCorrupt = kCorpus / "zds/corrupt";

std::vector<fs::path> sortedEntries(const fs::path& folder, bool folders) {
    std::vector<fs::path> out;
    for (const auto& entry : fs::directory_iterator(folder)) {
        const std::string name = entry.path().filename().string();
        if (name.starts_with("_") || name.starts_with(".")) {
            continue;
        }
        if (folders ? entry.is_directory() : entry.is_regular_file()) {
            out.push_back(entry.path());
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

// The datasets' collection names as the local copy has them: a folder's collections/, or the
// folder an archive was packed from ("" stands for "no --collection").
std::vector<std::string> collectionsOf(const fs::path& dataset) {
    fs::path folder = dataset;
    if (folder.extension() == ".zds") {
        folder.replace_extension();
    }
    std::vector<std::string> out = {""};
    if (fs::is_directory(folder / "collections")) {
        for (const fs::path& c : sortedEntries(folder / "collections", true)) {
            out.push_back(c.filename().string());
        }
    }
    return out;
}

std::vector<std::string> withCollection(std::vector<std::string> args,
                                        const std::string& collection) {
    if (!collection.empty()) {
        args.push_back("--collection");
        args.push_back(collection);
    }
    return args;
}

class ZdsRemote : public test::CliRemoteFixture {
protected:
    void SetUp() override {
        requireSites("zds");
        if (!IsSkipped() && !HasFailure()) {
            uploadFolder(kValid);
            for (const fs::path& c : sortedEntries(kCorrupt, true)) {
                uploadFolder(c);
            }
            for (const fs::path& c : sortedEntries(kCorrupt, false)) {
                if (c.extension() == ".zds" || c.extension() == ".zip") {
                    uploadFile(c);
                }
            }
        }
    }

    // The folder's files (tests/remote/s3rver_start.js makes s3rver list nested folders as S3
    // does).
    static void uploadFolder(const fs::path& folder) {
        test::CorpusSites::get().upload(fs::relative(folder, kCorpus).generic_string());
    }

    static void uploadFile(const fs::path& file) {
        test::CorpusSites& sites = test::CorpusSites::get();
        const std::string key = fs::relative(file, kCorpus).generic_string();
        if (sites.uploaded.insert(key).second) {
            sites.s3->put("corpus", key, test::readAll(file));
        }
    }

    // Every read command on one dataset (folder or archive), per collection.
    static void expectDatasetReadsAsLocally(const fs::path& dataset) {
        SCOPED_TRACE(dataset.string());
        expectSameEverywhere({"detect", "{}"}, dataset);
        expectSameEverywhere({"info", "{}"}, dataset);
        expectSameEverywhere({"validate", "{}"}, dataset);
        expectSameEverywhere({"zds", "validate", "{}"}, dataset);
        expectSameEverywhere({"zds", "validate", "{}", "--json"}, dataset);
        for (const std::string& collection : collectionsOf(dataset)) {
            expectSameEverywhere(withCollection({"zds", "ls", "{}"}, collection), dataset);
            expectSameEverywhere(withCollection({"zds", "search", "{}", "--text", "--op",
                                                 "contains", "_id", "--limit", "3"},
                                                collection),
                                 dataset);
            expectSameEverywhere(withCollection({"zds", "search", "{}", "--id", "--op", "regex",
                                                 "[05]$", "--limit", "4", "--json"},
                                                collection),
                                 dataset);
            // The first and last live ids, as the local copy lists them.
            const CliRun ls = runCli(withCollection({"zds", "ls", dataset.string()}, collection));
            if (ls.exit != 0 || ls.out.empty()) {
                continue;
            }
            const std::string first = ls.out.substr(0, ls.out.find('\n'));
            const std::string trimmed = ls.out.substr(0, ls.out.size() - 1);
            const std::string last = trimmed.substr(trimmed.rfind('\n') + 1);
            for (const std::string& id : {first, last}) {
                expectSameEverywhere(withCollection({"zds", "get", "{}", id}, collection), dataset);
                expectSameEverywhere(
                    withCollection({"zds", "get", "{}", id, "--raw", "--with-id"}, collection),
                    dataset);
            }
            expectSameEverywhere(withCollection({"zds", "get", "{}", "no-such-id"}, collection),
                                 dataset);
        }
    }
};

// The 100,000-document dataset reads its 2 MB index for every command over a URL: it has a
// test of its own with fewer commands, so each test stays well inside its time limit under the
// sanitizers.
constexpr const char* kLargeDataset = "jsonl_100k";

TEST_F(ZdsRemote, EveryValidDatasetFolderReadsAsLocally) {
    int datasets = 0;
    for (const fs::path& folder : sortedEntries(kValid, true)) {
        if (folder.filename() != kLargeDataset) {
            expectDatasetReadsAsLocally(folder);
            ++datasets;
        }
    }
    EXPECT_GE(datasets, 11);
}

TEST_F(ZdsRemote, LargeDatasetReadsAsLocally) {
    const fs::path dataset = kValid / kLargeDataset;
    if (!fs::is_directory(dataset)) {
        GTEST_SKIP() << dataset << " is not in the corpus";
    }
    expectSameEverywhere({"info", "{}"}, dataset);
    expectSameEverywhere({"zds", "validate", "{}"}, dataset);
    expectSameEverywhere({"zds", "ls", "{}"}, dataset);
    const CliRun ls = runCli({"zds", "ls", dataset.string()});
    ASSERT_EQ(ls.exit, 0) << ls.err;
    const std::string trimmed = ls.out.substr(0, ls.out.size() - 1);
    expectSameEverywhere({"zds", "get", "{}", trimmed.substr(trimmed.rfind('\n') + 1)}, dataset);
}

TEST_F(ZdsRemote, EveryValidArchiveReadsAsLocally) {
    int archives = 0;
    for (const fs::path& file : sortedEntries(kValid, false)) {
        if (file.extension() == ".zds") {
            expectDatasetReadsAsLocally(file);
            ++archives;
        }
    }
    EXPECT_GE(archives, 5);
}

TEST_F(ZdsRemote, CollectionFolderAndIndexFileReadAsLocally) {
    const fs::path collection = kValid / "jsonl_two_collections/collections";
    for (const fs::path& c : sortedEntries(collection, true)) {
        expectSameEverywhere({"info", "{}"}, c);
        expectSameEverywhere({"zds", "ls", "{}"}, c);
        expectSameEverywhere({"info", "{}"}, c / "meta/index.bin");
    }
}

TEST_F(ZdsRemote, EveryDamagedZdsCaseHasTheLocalVerdict) {
    int cases = 0;
    for (const fs::path& folder : sortedEntries(kCorrupt, true)) {
        expectSameEverywhere({"zds", "validate", "{}"}, folder);
        expectSameEverywhere({"validate", "{}"}, folder);
        ++cases;
    }
    for (const fs::path& file : sortedEntries(kCorrupt, false)) {
        if (file.extension() != ".zds" && file.extension() != ".zip") {
            continue;
        }
        expectSameEverywhere({"zds", "validate", "{}"}, file);
        expectSameEverywhere({"zds", "validate", "{}", "--json"}, file);
        expectSameEverywhere({"validate", "{}"}, file);
        expectSameEverywhere({"info", "{}"}, file);
        expectSameEverywhere({"zds", "ls", "{}"}, file);
        ++cases;
    }
    EXPECT_GE(cases, 30);
}

// diff between two URLs: the same report as between the two local datasets (folder against
// archive, two datasets, a damaged side, text and JSON), over HTTP and S3.
TEST_F(ZdsRemote, DiffOfTwoUrlsIsTheLocalDiff) {
    const std::vector<std::pair<std::string, std::string>> pairs = {
        {"valid/jsonl_two_collections", "valid/jsonl_two_collections.zds"},
        {"valid/docs_mode", "valid/docs_mode.zds"},
        {"valid/jsonl_compacted", "valid/jsonl_index_absent"},
        {"valid/zds_json_minimal", "valid/zds_json_documented"},
        {"valid/jsonl_compacted", "corrupt/jsonl_duplicate_id"},
        {"corrupt/zdx_count_too_low", "valid/jsonl_compacted"},
        {"valid/docs_mode", "corrupt/zip_not_a_zip.zds"},
    };
    const fs::path zds = kCorpus / "zds";
    for (const auto& [a, b] : pairs) {
        SCOPED_TRACE(a + " against " + b);
        expectSameEverywhere({"diff", "{}", "{1}"}, {zds / a, zds / b});
        expectSameEverywhere({"diff", "{}", "{1}", "--json"}, {zds / a, zds / b});
    }
}

TEST_F(ZdsRemote, WriteCommandsRefuseUrls) {
    const std::string url = test::CorpusSites::get().http(kValid / "jsonl_two_collections");
    const std::string archive = test::CorpusSites::get().http(kValid / "docs_mode.zds");
    for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
             {"zds", "reindex", url},
             {"zds", "compact", url},
             {"zds", "convert", url, "--to", "docs"},
             {"zds", "pack", url, "/nonexistent/out.zds"},
             {"zds", "unpack", archive, "/nonexistent/out"},
             {"repair", archive, "--out", "/nonexistent/out.zds"}}) {
        const CliRun run = runCli(args);
        EXPECT_EQ(run.exit, 2) << args[1] << ": " << run.err;
        EXPECT_NE(run.err.find("is a URL"), std::string::npos) << run.err;
        EXPECT_TRUE(run.out.empty()) << run.out;
    }
}

TEST_F(ZdsRemote, MissingDatasetNamesTheUrl) {
    for (const std::string& url : {test::CorpusSites::get().http(kValid / "no-such-dataset"),
                                   test::CorpusSites::s3Url(kValid / "no-such-dataset")}) {
        for (const char* command : {"ls", "validate"}) {
            std::vector<std::string> args;
            if (url.starts_with("s3://")) {
                args = {"--endpoint-url", test::CorpusSites::get().s3->endpoint()};
            }
            args.insert(args.end(), {"zds", command, url});
            const CliRun run = runCli(args);
            EXPECT_EQ(run.exit, 2) << url;
            EXPECT_NE(run.err.find("no-such-dataset"), std::string::npos) << run.err;
        }
    }
}

}  // namespace
}  // namespace strata
