// strata-cli on folder formats at URLs: the corpus's Shardlake storage root (and every damaged
// Shardlake case) served by nginx with JSON folder listings, and uploaded to s3rver, gives the
// same stdout, stderr and exit code as the local folder (the echoed location is swapped before
// comparing).
#include <gtest/gtest.h>

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

class ShardlakeRemote : public test::CliRemoteFixture {
protected:
    void SetUp() override {
        requireSites("shardlake");
        if (!IsSkipped() && !HasFailure()) {
            test::CorpusSites::get().upload("shardlake/root");
            test::CorpusSites::get().upload("shardlake/corrupt");
        }
    }
};

TEST_F(ShardlakeRemote, RootReadsAsLocally) {
    const fs::path root = kCorpus / "shardlake/root";
    for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
             {"detect", "{}"},
             {"info", "{}"},
             {"validate", "{}"},
             {"shardlake", "info", "{}"},
             {"shardlake", "info", "{}", "--json"},
             {"shardlake", "validate", "{}"},
             {"shardlake", "validate", "{}", "--json"},
             {"shardlake", "validate", "{}", "--index", "idx-l2"},
             {"shardlake", "query", "{}", "--index", "idx-l2", "--id", "7", "-k", "5"},
             {"shardlake", "query", "{}", "--index", "idx-ip", "--id", "3", "--exact", "--json"}}) {
        expectSameEverywhere(args, root);
    }
}

TEST_F(ShardlakeRemote, IndexFolderAndFilesReadAsLocally) {
    const fs::path index = kCorpus / "shardlake/root/indexes/idx-cosine";
    for (const fs::path& path :
         {index, index / "manifest.json", index / "shards/shard-0001.sidx",
          index / "coarse_quantizer.cq", kCorpus / "shardlake/root/datasets/ds-v1"}) {
        expectSameEverywhere({"info", "{}"}, path);
        expectSameEverywhere({"validate", "{}"}, path);
    }
}

TEST_F(ShardlakeRemote, EveryDamagedShardlakeCaseHasTheLocalVerdict) {
    int cases = 0;
    for (const auto& entry : fs::directory_iterator(kCorpus / "shardlake/corrupt")) {
        if (!entry.is_directory() || entry.path().filename() == "_base") {
            continue;
        }
        expectSameEverywhere({"shardlake", "validate", "{}"}, entry.path());
        ++cases;
    }
    EXPECT_GT(cases, 40);
}

TEST_F(ShardlakeRemote, MissingRootNamesTheUrl) {
    const std::string url = test::CorpusSites::get().http(kCorpus / "shardlake/no-such-root");
    const CliRun run = runCli({"shardlake", "info", url});
    EXPECT_EQ(run.exit, 2);
    EXPECT_NE(run.err.find("no-such-root"), std::string::npos) << run.err;
}

}  // namespace
}  // namespace strata
