#include "formats/common/atomic_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "test_bytes.h"

namespace strata {
namespace {

namespace fs = std::filesystem;

class AtomicFileTest : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() /
               ("strata-atomic-" + std::to_string(::getpid()) + "-" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }
    void TearDown() override {
        std::error_code ec;
        fs::permissions(dir_, fs::perms::owner_all, fs::perm_options::add, ec);
        fs::remove_all(dir_, ec);
    }

    static std::string slurp(const fs::path& path) {
        std::ifstream in(path, std::ios::binary);
        std::ostringstream out;
        out << in.rdbuf();
        return out.str();
    }
    static void put(const fs::path& path, std::string_view text) {
        std::ofstream(path, std::ios::binary) << text;
    }
    std::size_t entries() const {
        return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir_), {}));
    }

    fs::path dir_;
};

TEST_F(AtomicFileTest, ReplacesTheTargetOnlyAtCommit) {
    const auto target = dir_ / "data.zs";
    put(target, "old contents");
    {
        AtomicFile file(target);
        EXPECT_EQ(file.tempPath().parent_path(), dir_);
        EXPECT_TRUE(fs::exists(file.tempPath()));
        file.write(test::bytesOf("new "));
        file.write(std::string_view("contents, longer"));
        EXPECT_EQ(slurp(target), "old contents");
        EXPECT_EQ(file.bytesWritten(), 20u);
        file.commit();
        EXPECT_TRUE(file.committed());
    }
    EXPECT_EQ(slurp(target), "new contents, longer");
    EXPECT_EQ(entries(), 1u);
}

TEST_F(AtomicFileTest, CreatesAMissingTarget) {
    const auto target = dir_ / "fresh.bin";
    writeFileAtomically(target, test::bytesOf("hello"));
    EXPECT_EQ(slurp(target), "hello");
}

TEST_F(AtomicFileTest, AbandonedWriteLeavesOldFileAndNoTemporary) {
    const auto target = dir_ / "keep.txt";
    put(target, "precious");
    fs::path temp;
    {
        AtomicFile file(target);
        temp = file.tempPath();
        file.write(test::bytesOf("half-written garbage"));
    }
    EXPECT_FALSE(fs::exists(temp));
    EXPECT_EQ(slurp(target), "precious");
    EXPECT_EQ(entries(), 1u);
}

TEST_F(AtomicFileTest, ExplicitAbandonThenWriteThrows) {
    const auto target = dir_ / "x";
    AtomicFile file(target);
    file.abandon();
    EXPECT_EQ(entries(), 0u);
    EXPECT_THROW(file.write(test::bytesOf("a")), FileWriteError);
    EXPECT_THROW(file.commit(), FileWriteError);
    EXPECT_FALSE(fs::exists(target));
}

TEST_F(AtomicFileTest, TwoWritersGetDistinctTemporaries) {
    const auto target = dir_ / "same";
    AtomicFile a(target);
    AtomicFile b(target);
    EXPECT_NE(a.tempPath(), b.tempPath());
}

TEST_F(AtomicFileTest, KeepsTheTargetsPermissions) {
    const auto target = dir_ / "mode";
    put(target, "x");
    fs::permissions(target, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
    writeFileAtomically(target, test::bytesOf("y"));
    EXPECT_EQ(fs::status(target).permissions(),
              fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
}

TEST_F(AtomicFileTest, MissingDirectoryErrorNamesThePath) {
    const auto target = dir_ / "no-such-dir" / "file.zs";
    try {
        writeFileAtomically(target, test::bytesOf("x"));
        FAIL() << "expected FileWriteError";
    } catch (const FileWriteError& e) {
        EXPECT_NE(std::string(e.what()).find(target.string()), std::string::npos) << e.what();
    }
}

TEST_F(AtomicFileTest, UnwritableDirectoryErrorNamesThePath) {
    if (::geteuid() == 0) {
        GTEST_SKIP() << "root ignores directory permissions";
    }
    const auto locked = dir_ / "locked";
    fs::create_directory(locked);
    fs::permissions(locked, fs::perms::owner_read | fs::perms::owner_exec);
    const auto target = locked / "file.zs";
    try {
        AtomicFile file(target);
        FAIL() << "expected FileWriteError";
    } catch (const FileWriteError& e) {
        EXPECT_NE(std::string(e.what()).find(target.string()), std::string::npos) << e.what();
    }
}

TEST_F(AtomicFileTest, FailedRenameKeepsTargetAndRemovesTemporary) {
    // A directory in the target's place: the rename fails, whatever the user's privileges.
    const auto target = dir_ / "occupied";
    fs::create_directory(target);
    put(target / "inside", "still here");
    AtomicFile file(target);
    file.write(test::bytesOf("data"));
    try {
        file.commit();
        FAIL() << "expected FileWriteError";
    } catch (const FileWriteError& e) {
        EXPECT_NE(std::string(e.what()).find(target.string()), std::string::npos) << e.what();
    }
    EXPECT_TRUE(fs::is_directory(target));
    EXPECT_EQ(slurp(target / "inside"), "still here");
    EXPECT_EQ(entries(), 1u);
}

TEST_F(AtomicFileTest, ImmediateCommitSyncsTheFileAndItsFolder) {
    const std::uint64_t before = AtomicFile::syncCount();
    AtomicFile file(dir_ / "durable.txt");
    EXPECT_EQ(file.durability(), Durability::Immediate);
    file.write(std::string_view("now"));
    file.commit();
    EXPECT_EQ(AtomicFile::syncCount() - before, 2u);
}

TEST_F(AtomicFileTest, DeferredCommitRenamesWithoutSyncingUntilTheFileSystemSync) {
    const std::uint64_t before = AtomicFile::syncCount();
    for (int i = 0; i < 3; ++i) {
        AtomicFile file(dir_ / ("batch-" + std::to_string(i)), Durability::Deferred);
        EXPECT_EQ(file.durability(), Durability::Deferred);
        file.write(std::string_view("batch"));
        EXPECT_FALSE(fs::exists(dir_ / ("batch-" + std::to_string(i))));
        file.commit();
        EXPECT_TRUE(file.committed());
    }
    EXPECT_EQ(AtomicFile::syncCount(), before);  // nothing synced yet
    EXPECT_EQ(slurp(dir_ / "batch-2"), "batch");
    EXPECT_EQ(entries(), 3u);  // no temporary file left behind
    syncFileSystemOf(dir_);
    EXPECT_EQ(AtomicFile::syncCount() - before, 2u);  // one syncfs, one fsync of the folder
}

TEST_F(AtomicFileTest, DeferredAbandonLeavesNothing) {
    {
        AtomicFile file(dir_ / "never", Durability::Deferred);
        file.write(std::string_view("x"));
    }
    EXPECT_EQ(entries(), 0u);
}

TEST_F(AtomicFileTest, FileSystemSyncOfAMissingPathNamesIt) {
    const auto missing = dir_ / "missing";
    try {
        syncFileSystemOf(missing);
        FAIL() << "expected FileWriteError";
    } catch (const FileWriteError& e) {
        EXPECT_NE(std::string(e.what()).find(missing.string()), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace strata
