#include "formats/common/save_leftovers.h"

#include <gtest/gtest.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>

#include "formats/common/atomic_file.h"

namespace strata {
namespace {

namespace fs = std::filesystem;

class SaveLeftoversTest : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() /
               ("strata-leftovers-" + std::to_string(::getpid()) + "-" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }
    void TearDown() override {
        std::error_code ec;
        fs::remove_all(dir_, ec);
    }

    static void put(const fs::path& path, std::string_view text) {
        fs::create_directories(path.parent_path());
        std::ofstream(path, std::ios::binary) << text;
    }

    // The pid of a process that has exited (and been reaped).
    static pid_t deadPid() {
        const pid_t child = ::fork();
        if (child == 0) {
            ::_exit(0);
        }
        int status = 0;
        ::waitpid(child, &status, 0);
        return child;
    }

    // Leaves the temporary file of an AtomicFile whose process was killed mid-save.
    static fs::path killedAtomicSave(const fs::path& target) {
        int pipeFds[2];
        EXPECT_EQ(::pipe(pipeFds), 0);
        const pid_t child = ::fork();
        if (child == 0) {
            ::close(pipeFds[0]);
            AtomicFile file(target);
            file.write(std::string_view("half of the new bytes"));
            const std::string temp = file.tempPath().string();
            (void)!::write(pipeFds[1], temp.data(), temp.size());
            ::_exit(0);  // no destructor: as if killed
        }
        ::close(pipeFds[1]);
        std::string temp(4096, '\0');
        const ssize_t n = ::read(pipeFds[0], temp.data(), temp.size());
        ::close(pipeFds[0]);
        int status = 0;
        ::waitpid(child, &status, 0);
        temp.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
        return temp;
    }

    static std::vector<std::string> names(const std::vector<Leftover>& leftovers) {
        std::vector<std::string> out;
        for (const Leftover& l : leftovers) {
            out.push_back(l.path.filename().string());
        }
        return out;
    }

    fs::path dir_;
};

TEST_F(SaveLeftoversTest, ClassifiesTheNamesWritersGiveAndNothingElse) {
    put(dir_ / ".data.zt.strata-abc123def456", "x");
    put(dir_ / ".big.zs.0123abcd.part", "x");
    fs::create_directories(dir_ / ".set.zds.strata-stage-4242");
    fs::create_directories(dir_ / ".strata-stage-17");
    const auto temp = classifyLeftover(dir_ / ".data.zt.strata-abc123def456");
    ASSERT_TRUE(temp);
    EXPECT_EQ(temp->kind, LeftoverKind::TempFile);
    EXPECT_EQ(temp->target, "data.zt");
    const auto part = classifyLeftover(dir_ / ".big.zs.0123abcd.part");
    ASSERT_TRUE(part);
    EXPECT_EQ(part->kind, LeftoverKind::PartFile);
    EXPECT_EQ(part->target, "big.zs");
    const auto stage = classifyLeftover(dir_ / ".set.zds.strata-stage-4242");
    ASSERT_TRUE(stage);
    EXPECT_EQ(stage->kind, LeftoverKind::StageFolder);
    EXPECT_EQ(stage->target, "set.zds");
    EXPECT_EQ(stage->writerPid, 4242);
    const auto inner = classifyLeftover(dir_ / ".strata-stage-17");
    ASSERT_TRUE(inner);
    EXPECT_EQ(inner->target, "");
    // Early builds wrote no dot before the marker.
    fs::create_directories(dir_ / ".set.zdsstrata-stage-5");
    const auto early = classifyLeftover(dir_ / ".set.zdsstrata-stage-5");
    ASSERT_TRUE(early);
    EXPECT_EQ(early->target, "set.zds");

    // A repair's stage: a file, or a folder for folder formats.
    put(dir_ / ".fixed.zs.strata-repair-321", "x");
    fs::create_directories(dir_ / ".fixed-set.strata-repair-322");
    const auto repairFile = classifyLeftover(dir_ / ".fixed.zs.strata-repair-321");
    ASSERT_TRUE(repairFile);
    EXPECT_EQ(repairFile->kind, LeftoverKind::TempFile);
    EXPECT_TRUE(repairFile->repairOutput);
    EXPECT_EQ(repairFile->target, "fixed.zs");
    EXPECT_EQ(repairFile->writerPid, 321);
    const auto repairFolder = classifyLeftover(dir_ / ".fixed-set.strata-repair-322");
    ASSERT_TRUE(repairFolder);
    EXPECT_EQ(repairFolder->kind, LeftoverKind::StageFolder);
    EXPECT_TRUE(repairFolder->isFolder);
    EXPECT_EQ(repairFolder->target, "fixed-set");

    for (const char* name : {".x.strata-repair-", ".x.strata-repair-12a", ".strata-repair-5",
                             "data.zt.strata-abc123def456", ".data.zt.strata-ABC123DEF456",
                             ".data.zt.strata-abc", ".strata-abc123def456", ".big.zs.0123ABCD.part",
                             ".big.zs.123abcd.part", "notes.txt", ".hidden"}) {
        SCOPED_TRACE(name);
        put(dir_ / name, "x");
        EXPECT_FALSE(classifyLeftover(dir_ / name));
    }
    // A stage name on a file, a temp name on a folder, a link with a temp name: none of them.
    put(dir_ / ".x.strata-stage-5", "x");
    fs::create_directories(dir_ / ".y.strata-abc123def456");
    fs::create_symlink(dir_ / "notes.txt", dir_ / ".z.strata-abc123def456");
    EXPECT_FALSE(classifyLeftover(dir_ / ".x.strata-stage-5"));
    EXPECT_FALSE(classifyLeftover(dir_ / ".y.strata-abc123def456"));
    EXPECT_FALSE(classifyLeftover(dir_ / ".z.strata-abc123def456"));
}

TEST_F(SaveLeftoversTest, AKilledAtomicSaveLeavesATempFileThatIsFoundAndUnused) {
    const fs::path target = dir_ / "data.zt";
    put(target, "old");
    const fs::path temp = killedAtomicSave(target);
    ASSERT_TRUE(fs::exists(temp));
    put(dir_ / ".other.zt.strata-abc123def456", "not ours");
    const auto found = findSaveLeftovers(target, {kAllLeftoverKinds});
    ASSERT_EQ(found.size(), 1U);
    EXPECT_EQ(found[0].path, temp);
    EXPECT_EQ(found[0].use, LeftoverUse::Unused);
    EXPECT_EQ(found[0].bytes, 21U);

    CollectingSink sink;
    reportSaveLeftovers(target, "ZT", {kAllLeftoverKinds}, sink);
    ASSERT_EQ(sink.diagnostics().size(), 1U);
    const Diagnostic& d = sink.diagnostics()[0];
    EXPECT_EQ(d.code, "ZT-LEFTOVER-TEMP");
    EXPECT_EQ(d.severity, Severity::Warning);
    EXPECT_EQ(d.file, temp.string());
    EXPECT_NE(d.message.find("'data.zt'"), std::string::npos) << d.message;
    EXPECT_TRUE(isLeftoverCode(d.code));
    EXPECT_FALSE(isLeftoverCode("ZT-DIGEST"));
}

TEST_F(SaveLeftoversTest, ASaveInProgressIsANoteAndIsNeverRemoved) {
    const fs::path target = dir_ / "data.zt";
    put(target, "old");
    AtomicFile saving(target);  // open: a save in progress in this process
    saving.write(std::string_view("new"));
    CollectingSink sink;
    reportSaveLeftovers(target, "ZT", {kAllLeftoverKinds}, sink);
    ASSERT_EQ(sink.diagnostics().size(), 1U);
    EXPECT_EQ(sink.diagnostics()[0].severity, Severity::Info);
    EXPECT_NE(sink.diagnostics()[0].message.find(std::to_string(::getpid())), std::string::npos);

    const LeftoverRemoval removal = removeLeftovers({saving.tempPath()});
    EXPECT_TRUE(removal.removed.empty());
    ASSERT_EQ(removal.kept.size(), 1U);
    EXPECT_TRUE(fs::exists(saving.tempPath()));
    saving.commit();
}

TEST_F(SaveLeftoversTest, StageFoldersOfExitedAndRunningWriters) {
    const fs::path dataset = dir_ / "set";
    fs::create_directories(dataset / "collections" / "c" / "meta");
    const fs::path dead = dataset / (".strata-stage-" + std::to_string(deadPid()));
    const fs::path alive = dataset / (".strata-stage-" + std::to_string(::getpid()));
    put(dead / "c-x" / "meta" / "data.jsonl", "{}\n");
    put(alive / "c-y" / "meta" / "data.jsonl", "{}\n");
    const fs::path beside = dir_ / (".set.strata-stage-" + std::to_string(deadPid()));
    put(beside / "x", "12345");

    const auto found = findSaveLeftovers(dataset, {kAllLeftoverKinds, 3, {}});
    ASSERT_EQ(found.size(), 3U);
    for (const Leftover& l : found) {
        SCOPED_TRACE(l.path.string());
        EXPECT_EQ(l.kind, LeftoverKind::StageFolder);
        EXPECT_EQ(l.use, l.path == alive ? LeftoverUse::InUse : LeftoverUse::Unused);
    }
    EXPECT_EQ(found[0].path, beside);  // sorted by path
    EXPECT_EQ(found[0].bytes, 5U);

    const LeftoverRemoval removal = removeLeftovers({dead, alive, beside});
    EXPECT_EQ(removal.removed.size(), 2U);
    ASSERT_EQ(removal.kept.size(), 1U);
    EXPECT_EQ(removal.kept[0].first, alive);
    EXPECT_FALSE(fs::exists(dead));
    EXPECT_FALSE(fs::exists(beside));
    EXPECT_TRUE(fs::exists(alive / "c-y" / "meta" / "data.jsonl"));
    EXPECT_TRUE(fs::exists(dataset / "collections" / "c" / "meta"));
}

TEST_F(SaveLeftoversTest, AStageNamedAfterAProcessStartedSinceIsNotItsWriter) {
    // After a reboot, say, the writer's id belongs to another process, which started after the
    // stage was last changed: that process cannot be the writer.
    const fs::path stage = dir_ / (".set.strata-stage-" + std::to_string(::getpid()));
    fs::create_directories(stage);
    const struct timeval old[2] = {{946684800, 0}, {946684800, 0}};  // 2000-01-01
    ASSERT_EQ(::utimes(stage.c_str(), old), 0);
    const auto found = findSaveLeftovers(dir_ / "set", {kAllLeftoverKinds});
    ASSERT_EQ(found.size(), 1U);
    EXPECT_EQ(found[0].use, LeftoverUse::Unused) << found[0].useText();
}

TEST_F(SaveLeftoversTest, InsideScanHonoursDepthKindsAndSkippedFolders) {
    const fs::path root = dir_ / "root";
    put(root / ".a.strata-abc123def456", "1");
    put(root / "one" / ".b.strata-abc123def456", "1");
    put(root / "one" / "two" / ".c.strata-abc123def456", "1");
    put(root / "docs" / ".d.strata-abc123def456", "1");
    put(root / ".e.0123abcd.part", "1");
    EXPECT_EQ(names(findSaveLeftovers(root, {kAllLeftoverKinds, 0, {}})),
              (std::vector<std::string>{".a.strata-abc123def456", ".e.0123abcd.part"}));
    EXPECT_EQ(names(findSaveLeftovers(
                  root, {static_cast<unsigned>(LeftoverKind::TempFile), 1,
                         [](const fs::path& rel) { return rel.filename() != "docs"; }})),
              (std::vector<std::string>{".a.strata-abc123def456", ".b.strata-abc123def456"}));
    EXPECT_EQ(findSaveLeftovers(root, {kAllLeftoverKinds, 2, {}}).size(), 5U);
    EXPECT_TRUE(findSaveLeftovers(dir_ / "missing", {kAllLeftoverKinds, 2, {}}).empty());
}

TEST_F(SaveLeftoversTest, RemovalTouchesNothingButLeftovers) {
    put(dir_ / "keep.txt", "user data");
    fs::create_symlink(dir_ / "keep.txt", dir_ / ".keep.txt.strata-abc123def456");
    put(dir_ / "data.zt", "new");
    const fs::path temp = killedAtomicSave(dir_ / "data.zt");
    const LeftoverRemoval removal = removeLeftovers(
        {dir_ / "keep.txt", dir_ / ".keep.txt.strata-abc123def456", temp, dir_ / "gone"});
    EXPECT_EQ(removal.removed, std::vector<fs::path>{temp});
    EXPECT_EQ(removal.kept.size(), 3U);
    EXPECT_TRUE(fs::exists(dir_ / "keep.txt"));
    EXPECT_TRUE(fs::is_symlink(dir_ / ".keep.txt.strata-abc123def456"));
    EXPECT_TRUE(fs::exists(dir_ / "data.zt"));
    EXPECT_FALSE(fs::exists(temp));
}

}  // namespace
}  // namespace strata
