// The steps every repair shares (formats/common/repair.h): the stage folder is gone afterwards
// whatever happened, other errors become RepairErrors naming the output, and an output is
// published with its quarantine or not at all.
#include <gtest/gtest.h>

#include <fstream>
#include <stdexcept>
#include <string>

#include "formats/common/repair.h"
#include "scratch_dir.h"

namespace strata {
namespace {

namespace fs = std::filesystem;

void writeText(const fs::path& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

std::string readText(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

bool anyStageLeft(const fs::path& folder) {
    for (const auto& entry : fs::directory_iterator(folder)) {
        if (entry.path().filename().string().find(".strata-repair-") != std::string::npos) {
            return true;
        }
    }
    return false;
}

TEST(RepairStage, IsRemovedAfterTheWorkWhateverHappens) {
    test::ScratchDir dir("repair_stage");
    const fs::path output = dir.path() / "out";
    fs::path seen;
    runInRepairStage(output, [&](const fs::path& stage) {
        seen = stage;
        EXPECT_TRUE(fs::is_directory(stage));
        writeText(stage / "half", "written");
    });
    EXPECT_FALSE(seen.empty());
    EXPECT_FALSE(anyStageLeft(dir.path()));

    try {
        runInRepairStage(output, [](const fs::path&) { throw std::runtime_error("disk full"); });
        ADD_FAILURE() << "no error";
    } catch (const RepairError& e) {
        EXPECT_EQ(std::string(e.what()), output.string() + ": disk full");
    }
    EXPECT_THROW(runInRepairStage(output, [](const fs::path&) { throw JobCancelled(); }),
                 JobCancelled);
    EXPECT_FALSE(anyStageLeft(dir.path()));
    EXPECT_FALSE(fs::exists(output));
}

TEST(RepairPublish, TheQuarantineGoesWithTheOutputOrNotAtAll) {
    test::ScratchDir dir("repair_publish");
    const fs::path output = dir.path() / "out";
    const fs::path quarantine = dir.path() / "out.quarantine.jsonl";
    runInRepairStage(output, [&](const fs::path& stage) {
        fs::create_directory(stage / "out");
        writeText(stage / "q", "bad line");
        publishRepairWithQuarantine(stage / "out", output, stage / "q", quarantine);
    });
    EXPECT_TRUE(fs::is_directory(output));
    EXPECT_EQ(readText(quarantine), "bad line");

    // The output's name is taken: the quarantine published first is removed again.
    const fs::path taken = dir.path() / "taken.zs";
    const fs::path takenQuarantine = dir.path() / "taken.quarantine";
    writeText(taken, "mine");
    EXPECT_THROW(runInRepairStage(taken,
                                  [&](const fs::path& stage) {
                                      writeText(stage / "new", "repaired");
                                      fs::create_directory(stage / "q");
                                      publishRepairWithQuarantine(stage / "new", taken, stage / "q",
                                                                  takenQuarantine);
                                  }),
                 RepairError);
    EXPECT_EQ(readText(taken), "mine");
    EXPECT_FALSE(fs::exists(takenQuarantine));

    // Nothing quarantined: the output alone.
    const fs::path alone = dir.path() / "alone.zt";
    runInRepairStage(alone, [&](const fs::path& stage) {
        writeText(stage / "new", "repaired");
        publishRepairWithQuarantine(stage / "new", alone, stage / "q", dir.path() / "alone.q");
    });
    EXPECT_EQ(readText(alone), "repaired");
    EXPECT_FALSE(fs::exists(dir.path() / "alone.q"));
    EXPECT_FALSE(anyStageLeft(dir.path()));
}

}  // namespace
}  // namespace strata
