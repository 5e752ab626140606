// strata-cli on OZDF at URLs: every valid document, directory document (with its .ozdp parts)
// and corpus of the conformance corpus, served by nginx with JSON folder listings and uploaded
// to s3rver, gives the same stdout, stderr and exit code as the local copy (the echoed location
// swapped before comparing); every damaged case gets the local verdict; writes refuse URLs.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "corpus_sites.h"

namespace strata {
namespace {

namespace fs = std::filesystem;

using test::CliRun;
using test::runCli;

const fs::path kCorpus = STRATA_CORPUS_DIR;

// What is compared for every valid input.
const std::vector<std::vector<std::string>> kReadCommands = {
    {"detect", "{}"},           {"info", "{}"},
    {"validate", "{}"},         {"ozdf", "dump", "{}"},
    {"ozdf", "validate", "{}"}, {"ozdf", "validate", "{}", "--json"},
};

// `args` with "{}" replaced by the local path, then by the URLs asked for: the runs must agree.
void expectSameAt(const std::vector<std::string>& args, const fs::path& local, bool http, bool s3) {
    std::vector<std::pair<std::string, bool>> urls;
    if (http) {
        urls.emplace_back(test::CorpusSites::get().http(local), false);
    }
    if (s3) {
        urls.emplace_back(test::CorpusSites::s3Url(local), true);
    }
    const auto with = [&](const std::string& location, bool s3Endpoint) {
        std::vector<std::string> out;
        if (s3Endpoint) {
            out = {"--endpoint-url", test::CorpusSites::get().s3->endpoint()};
        }
        for (const std::string& arg : args) {
            out.push_back(arg == "{}" ? location : arg);
        }
        return out;
    };
    const CliRun a = runCli(with(local.string(), false));
    for (const auto& [url, isS3] : urls) {
        const CliRun b = runCli(with(url, isS3));
        EXPECT_EQ(a.exit, b.exit) << args[0] << ' ' << local << " at " << url
                                  << "\nlocal stderr: " << a.err << "\nremote stderr: " << b.err;
        EXPECT_EQ(test::replaceAll(a.out, local.string(), url), b.out) << local << " at " << url;
        EXPECT_EQ(test::replaceAll(a.err, local.string(), url), b.err) << local << " at " << url;
    }
}

class OzdfRemote : public test::CliRemoteFixture {
protected:
    void SetUp() override {
        requireSites("ozdf");
        if (!IsSkipped() && !HasFailure()) {
            test::CorpusSites::get().upload("ozdf/valid");
            test::CorpusSites::get().upload("ozdf/corrupt");
        }
    }

    static void expectReadsAsLocally(const fs::path& path) {
        for (const std::vector<std::string>& args : kReadCommands) {
            expectSameAt(args, path, true, true);
        }
    }
};

std::vector<fs::path> entriesOf(const fs::path& folder) {
    std::vector<fs::path> out;
    for (const auto& entry : fs::directory_iterator(folder)) {
        out.push_back(entry.path());
    }
    std::sort(out.begin(), out.end());
    return out;
}

// diff between two URLs: the same report as between the two local inputs (documents,
// directory documents, corpora, a damaged side; text and JSON), over HTTP and S3.
TEST_F(OzdfRemote, DiffOfTwoUrlsIsTheLocalDiff) {
    const std::vector<std::pair<std::string, std::string>> pairs = {
        {"valid/handwritten/docs/two_blocks.ozdf", "valid/handwritten/docs/single_block.ozdf"},
        {"valid/handwritten/docs/crlf_line_endings.ozdf",
         "valid/handwritten/docs/cr_only_line_endings.ozdf"},
        {"valid/handwritten/docs/list_named_items.ozdf",
         "valid/handwritten/docs/list_unnamed_items.ozdf"},
        {"valid/handwritten/dirdocs/basic", "valid/handwritten/dirdocs/two_external_lists"},
        // (Not corpora/mixed: nginx's listings leave out its .hidden.ozdf.)
        {"valid/written_by_reference/api_corpus", "corrupt/corpus_one_bad_doc"},
        {"corrupt/corpus_one_bad_doc", "valid/written_by_reference/api_corpus"},
        {"valid/handwritten/docs/comments.ozdf", "corrupt/duplicate_block.ozdf"},
    };
    const fs::path ozdf = kCorpus / "ozdf";
    int compared = 0;
    for (const auto& [a, b] : pairs) {
        SCOPED_TRACE(a + " against " + b);
        expectSameEverywhere({"diff", "{}", "{1}"}, {ozdf / a, ozdf / b});
        expectSameEverywhere({"diff", "{}", "{1}", "--json"}, {ozdf / a, ozdf / b});
        ++compared;
    }
    EXPECT_GE(compared, 5);
}

TEST_F(OzdfRemote, StandaloneDocumentsReadAsLocally) {
    int documents = 0;
    for (const fs::path& path : entriesOf(kCorpus / "ozdf/valid/handwritten/docs")) {
        expectReadsAsLocally(path);
        ++documents;
    }
    EXPECT_GT(documents, 30);
}

TEST_F(OzdfRemote, DirectoryDocumentsReadWithTheirPartsAsLocally) {
    int documents = 0;
    for (const fs::path& path : entriesOf(kCorpus / "ozdf/valid/handwritten/dirdocs")) {
        expectReadsAsLocally(path);
        ++documents;
    }
    EXPECT_GE(documents, 9);
    // A part file on its own, and the metadata file of a directory document.
    expectReadsAsLocally(kCorpus / "ozdf/valid/handwritten/dirdocs/basic/_metadata.ozdf");
    expectSameEverywhere(
        {"ozdf", "dump", "{}"},
        kCorpus / "ozdf/valid/handwritten/dirdocs/two_external_lists/MESSAGES-02.ozdp");
}

TEST_F(OzdfRemote, CorporaReadAsLocally) {
    for (const char* corpus : {"ozdf/valid/written_by_reference/api_corpus",
                               "ozdf/valid/handwritten/docs", "ozdf/valid/handwritten/dirdocs"}) {
        expectReadsAsLocally(kCorpus / corpus);
    }
    for (const fs::path& path : entriesOf(kCorpus / "ozdf/valid/written_by_reference/api_corpus")) {
        expectReadsAsLocally(path);
    }
}

// Web servers leave dot files out of their listings: over HTTP the corpus is read without its
// `.hidden.ozdf` (one document fewer, the same verdict); over S3 exactly as locally.
TEST_F(OzdfRemote, MixedCorpusReadsAsLocally) {
    const fs::path mixed = kCorpus / "ozdf/valid/handwritten/corpora/mixed";
    ASSERT_TRUE(fs::is_regular_file(mixed / ".hidden.ozdf"));
    for (const std::vector<std::string>& args : kReadCommands) {
        expectSameAt(args, mixed, false, true);
    }
    for (const fs::path& path : entriesOf(mixed)) {
        expectSameAt({"ozdf", "validate", "{}"}, path, !path.filename().string().starts_with("."),
                     true);
    }
    const CliRun local = runCli({"info", mixed.string()});
    const CliRun http = runCli({"info", test::CorpusSites::get().http(mixed)});
    EXPECT_EQ(local.exit, http.exit) << http.err;
    const auto documents = [](const std::string& out) {
        const auto at = out.find("documents: ");
        return at == std::string::npos ? -1 : std::stoi(out.substr(at + 11));
    };
    EXPECT_EQ(documents(http.out), documents(local.out) - 1) << local.out << http.out;
    const CliRun validate = runCli({"ozdf", "validate", test::CorpusSites::get().http(mixed)});
    EXPECT_EQ(validate.exit, 0) << validate.out << validate.err;
}

TEST_F(OzdfRemote, EveryDamagedOzdfCaseHasTheLocalVerdict) {
    int cases = 0;
    for (const fs::path& path : entriesOf(kCorpus / "ozdf/corrupt")) {
        const std::string name = path.filename().string();
        if (name == "cases.json" || name == "RESULTS.md") {
            continue;
        }
        expectSameAt({"ozdf", "validate", "{}"}, path, true, true);
        expectSameAt({"ozdf", "dump", "{}"}, path, true, true);
        expectSameAt({"validate", "{}"}, path, true, true);
        ++cases;
    }
    EXPECT_GE(cases, 38);
}

TEST_F(OzdfRemote, WritesRefuseUrls) {
    const std::string url = test::CorpusSites::get().http(kCorpus / "ozdf/valid/handwritten/docs");
    for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
             {"ozdf", "fmt", url},
             {"ozdf", "fmt", "--check", url},
             {"ozdf", "import", "/nonexistent.jsonl", url},
             {"ozdf", "export", (kCorpus / "ozdf/valid/handwritten/docs").string(), "-o", url}}) {
        const CliRun run = runCli(args);
        EXPECT_EQ(run.exit, 2) << args[1] << ": " << run.err;
        EXPECT_NE(run.err.find("cannot write to a URL"), std::string::npos) << run.err;
    }
}

// Served without folder listings (nginx's root location): a standalone document still reads as
// locally, but a directory document or corpus is an error naming the URL, never a document whose
// parts are "missing".
TEST_F(OzdfRemote, FolderWithoutListingIsAnErrorNotAMissingPart) {
    const std::string base = test::CorpusSites::get().nginx->url("/ozdf/valid/handwritten/");
    const fs::path local = kCorpus / "ozdf/valid/handwritten/docs/comments.ozdf";
    ASSERT_TRUE(fs::is_regular_file(local));
    const CliRun expected = runCli({"ozdf", "dump", local.string()});
    const CliRun file = runCli({"ozdf", "dump", base + "docs/comments.ozdf"});
    EXPECT_EQ(file.exit, expected.exit) << file.err;
    EXPECT_EQ(file.out, expected.out);
    for (const std::string& folder : std::vector<std::string>{"dirdocs/basic", "corpora/mixed"}) {
        for (const char* command : {"dump", "validate"}) {
            const CliRun run = runCli({"ozdf", command, base + folder});
            EXPECT_EQ(run.exit, 2) << folder << ": " << run.out << run.err;
            EXPECT_NE(run.err.find("does not list folders"), std::string::npos) << run.err;
            EXPECT_NE(run.err.find(base + folder), std::string::npos) << run.err;
        }
    }
}

TEST_F(OzdfRemote, MissingDocumentNamesTheUrl) {
    const std::string url = test::CorpusSites::get().http(kCorpus / "ozdf/no-such-document.ozdf");
    for (const char* command : {"dump", "validate"}) {
        const CliRun run = runCli({"ozdf", command, url});
        EXPECT_EQ(run.exit, 2) << run.err;
        EXPECT_NE(run.err.find("no-such-document.ozdf"), std::string::npos) << run.err;
    }
}

}  // namespace
}  // namespace strata
