// What killed ZDS writes leave behind: stage folders and temporary files are reported by the
// validator (never the documents of a collection listed for them), a stage holding a
// collection moved out of the dataset is an error that no one removes, and archives are built
// inside the stage so nothing half-written lies beside them.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include "formats/common/save_leftovers.h"
#include "formats/zds/zds_jobs.h"
#include "formats/zds/zds_reader.h"
#include "formats/zds/zds_writer.h"
#include "zds_test_support.h"

namespace strata {
namespace {

namespace fs = std::filesystem;
using zds_test::corpusDir;
using zds_test::ScratchDir;

pid_t deadPid() {
    const pid_t child = ::fork();
    if (child == 0) {
        ::_exit(0);
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    return child;
}

std::vector<Diagnostic> leftoverDiagnostics(const fs::path& path) {
    CollectingSink sink;
    zds_test::validate(path, sink);
    std::vector<Diagnostic> out;
    for (const Diagnostic& d : sink.diagnostics()) {
        if (isLeftoverCode(d.code)) {
            out.push_back(d);
        }
    }
    return out;
}

class ZdsLeftovers : public ::testing::Test {
protected:
    void SetUp() override {
        if (!fs::exists(corpusDir() / "valid" / "jsonl_two_collections")) {
            GTEST_SKIP() << "corpus not present (STRATA_CORPUS_DIR)";
        }
        dataset_ = dir_.path() / "set";
        fs::copy(corpusDir() / "valid" / "jsonl_two_collections", dataset_,
                 fs::copy_options::recursive);
    }

    ScratchDir dir_{"leftovers"};
    fs::path dataset_;
};

TEST_F(ZdsLeftovers, StageFoldersAndTemporaryFilesAreReported) {
    EXPECT_TRUE(leftoverDiagnostics(dataset_).empty());
    const fs::path stage = dataset_ / (".strata-stage-" + std::to_string(deadPid()));
    zds_test::writeAll(stage / "c-x" / "meta" / "data.jsonl", "{\"_id\":\"a\"}\n");
    const fs::path collection = *fs::directory_iterator(dataset_ / "collections");
    const fs::path temp = collection / "meta" / ".index.bin.strata-abc123def456";
    zds_test::writeAll(temp, "ISDZ");
    // Documents of a collection are never listed for leftovers.
    zds_test::writeAll(collection / "docs" / ".a.json.strata-abc123def456", "{");

    const auto found = leftoverDiagnostics(dataset_);
    ASSERT_EQ(found.size(), 2U);
    EXPECT_EQ(found[0].code, "ZDS-LEFTOVER-STAGE");  // sorted by path
    EXPECT_EQ(found[0].file, stage.string());
    EXPECT_EQ(found[0].severity, Severity::Warning);
    EXPECT_EQ(found[1].code, "ZDS-LEFTOVER-TEMP");
    EXPECT_EQ(found[1].file, temp.string());
    fs::remove_all(collection / "docs");

    // The next write removes the stale stage.
    {
        const auto ds = zds::ZdsDataset::open(dataset_);
        std::vector<zds::ZdsCollectionWrite> all;
        for (const auto& c : ds->collections) {
            all.push_back(zds::unchangedCollection(*c));
        }
        zds::writeZdsDataset(ds.get(), all, dataset_);
    }
    EXPECT_FALSE(fs::exists(stage));
}

TEST_F(ZdsLeftovers, AStageHoldingAMovedOutCollectionIsAnErrorAndIsKept) {
    const fs::path stage = dataset_ / (".strata-stage-" + std::to_string(deadPid()));
    fs::create_directories(stage);
    const fs::path collection = *fs::directory_iterator(dataset_ / "collections");
    // As if killed between the two renames of a replacement without RENAME_EXCHANGE.
    fs::rename(collection, stage / ("c-" + collection.filename().string() + ".old"));

    const auto found = leftoverDiagnostics(dataset_);
    ASSERT_EQ(found.size(), 1U);
    EXPECT_EQ(found[0].code, "ZDS-LEFTOVER-STAGE");
    EXPECT_EQ(found[0].severity, Severity::Error);
    EXPECT_NE(found[0].message.find(".old"), std::string::npos) << found[0].message;

    const LeftoverRemoval removal = removeLeftovers({stage});
    EXPECT_TRUE(removal.removed.empty());
    EXPECT_TRUE(fs::exists(stage / ("c-" + collection.filename().string() + ".old")));
    // A write refuses rather than deleting the stage.
    const auto ds = zds::ZdsDataset::open(dataset_);
    std::vector<zds::ZdsCollectionWrite> all;
    for (const auto& c : ds->collections) {
        all.push_back(zds::unchangedCollection(*c));
    }
    EXPECT_THROW(zds::writeZdsDataset(ds.get(), all, dataset_), zds::ZdsWriteError);
    EXPECT_TRUE(fs::exists(stage / ("c-" + collection.filename().string() + ".old")));
}

TEST_F(ZdsLeftovers, ArchivesAreBuiltInsideTheStage) {
    const fs::path archive = dir_.path() / "set.zds";
    zds::packZds(dataset_, archive, {});
    ASSERT_TRUE(fs::is_regular_file(archive));
    std::vector<std::string> beside;
    for (const auto& entry : fs::directory_iterator(dir_.path())) {
        beside.push_back(entry.path().filename().string());
    }
    std::sort(beside.begin(), beside.end());
    EXPECT_EQ(beside, (std::vector<std::string>{"set", "set.zds"}));

    // Packing again over it keeps the archive's permissions, as every other save does.
    fs::remove(archive);
    zds_test::writeAll(archive, "old");
    fs::permissions(archive, fs::perms::owner_read | fs::perms::owner_write);
    zds::packZds(dataset_, archive, {});
    EXPECT_EQ(fs::status(archive).permissions(), fs::perms::owner_read | fs::perms::owner_write);

    // A pack killed while libzip writes the archive leaves its stage beside the archive, under
    // the name validators look for, and the archive as it was.
    const std::uintmax_t before = fs::file_size(archive);
    const pid_t child = ::fork();
    if (child == 0) {
        zds::ZdsJobOptions options;
        options.progress = [](double, const std::string& text) {
            if (text == "writing archive") {
                ::_exit(0);  // as if killed
            }
        };
        zds::packZds(dataset_, archive, options);
        ::_exit(1);
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    const fs::path stage = dir_.path() / (".set.zds.strata-stage-" + std::to_string(child));
    ASSERT_TRUE(fs::is_directory(stage));
    EXPECT_EQ(fs::file_size(archive), before);
    const auto found = leftoverDiagnostics(archive);
    ASSERT_EQ(found.size(), 1U);
    EXPECT_EQ(found[0].code, "ZDS-LEFTOVER-STAGE");
    EXPECT_EQ(found[0].severity, Severity::Warning);
    EXPECT_EQ(found[0].file, stage.string());

    // The next pack removes it.
    zds::packZds(dataset_, archive, {});
    EXPECT_FALSE(fs::exists(stage));
}

}  // namespace
}  // namespace strata
