#include "atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <random>
#include <string>

namespace strata {

namespace {

constexpr int kCreateAttempts = 100;
constexpr std::uint64_t kWritebackStep = 32ull << 20;

std::atomic<std::uint64_t> syncCalls{0};

int countedFsync(int fd) {
    syncCalls.fetch_add(1, std::memory_order_relaxed);
    return ::fsync(fd);
}

std::string describe(const std::string& what, const std::filesystem::path& path, int error) {
    return what + " " + path.string() + ": " + std::strerror(error);
}

std::filesystem::path directoryOf(const std::filesystem::path& target) {
    const auto parent = target.parent_path();
    return parent.empty() ? std::filesystem::path(".") : parent;
}

std::string randomSuffix() {
    static constexpr char kChars[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    thread_local std::mt19937_64 rng{std::random_device{}()};
    std::string suffix(12, 'x');
    for (char& c : suffix) {
        c = kChars[rng() % (sizeof kChars - 1)];
    }
    return suffix;
}

// Makes the directory entry of a rename durable; some file systems refuse to fsync a
// directory, which is not worth failing a save for once the rename itself succeeded.
void syncDirectory(const std::filesystem::path& directory) {
    const int fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        countedFsync(fd);
        ::close(fd);
    }
}

}  // namespace

AtomicFile::AtomicFile(std::filesystem::path target, Durability durability)
    : target_(std::move(target)), durability_(durability) {
    if (target_.filename().empty()) {
        throw FileWriteError("cannot write " + target_.string() + ": not a file name");
    }
    mode_t mode = 0666;
    struct stat existing {};
    const bool keepMode = ::stat(target_.c_str(), &existing) == 0 && S_ISREG(existing.st_mode);
    if (keepMode) {
        mode = existing.st_mode & 07777;
    }
    const auto directory = directoryOf(target_);
    for (int attempt = 0; attempt < kCreateAttempts; ++attempt) {
        // Appended piece by piece: `"." + string` trips GCC 12's -Wrestrict at -O3.
        std::string name = ".";
        name += target_.filename().string();
        name += ".strata-";
        name += randomSuffix();
        tempPath_ = directory / name;
        fd_ = ::open(tempPath_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
        if (fd_ >= 0) {
            break;
        }
        if (errno != EEXIST) {
            const int error = errno;
            tempPath_.clear();
            throw FileWriteError(
                describe("cannot create a temporary file to write", target_, error));
        }
    }
    if (fd_ < 0) {
        tempPath_.clear();
        throw FileWriteError("cannot create a temporary file to write " + target_.string() +
                             ": every name tried exists");
    }
    if (keepMode) {
        ::fchmod(fd_, mode);  // the target's mode, not narrowed by the umask
    }
}

AtomicFile::~AtomicFile() {
    closeAndRemove();
}

void AtomicFile::requireOpen(const char* action) const {
    if (fd_ < 0) {
        throw FileWriteError(std::string("cannot ") + action + " " + target_.string() +
                             ": the file was already committed or abandoned");
    }
}

void AtomicFile::write(std::span<const std::uint8_t> bytes) {
    requireOpen("write");
    while (!bytes.empty()) {
        const ssize_t n = ::write(fd_, bytes.data(), bytes.size());
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            throw FileWriteError(describe("cannot write", target_, errno));
        }
        bytes = bytes.subspan(static_cast<std::size_t>(n));
        written_ += static_cast<std::uint64_t>(n);
    }
    if (durability_ == Durability::Immediate && written_ - writebackStarted_ >= kWritebackStep) {
        startWriteback();
    }
}

void AtomicFile::startWriteback() noexcept {
    // Only a hint: commit() still fsyncs, so a failure here changes nothing.
    (void)::sync_file_range(fd_, static_cast<off_t>(writebackStarted_),
                            static_cast<off_t>(written_ - writebackStarted_),
                            SYNC_FILE_RANGE_WRITE);
    writebackStarted_ = written_;
}

void AtomicFile::write(std::string_view text) {
    write(std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(text.data()),
                                        text.size()));
}

void AtomicFile::commit() {
    requireOpen("commit");
    const bool durable = durability_ == Durability::Immediate;
    if (durable && countedFsync(fd_) != 0) {
        const int error = errno;
        closeAndRemove();
        throw FileWriteError(describe("cannot flush", target_, error));
    }
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) {
        const int error = errno;
        closeAndRemove();
        throw FileWriteError(describe("cannot close", target_, error));
    }
    if (::rename(tempPath_.c_str(), target_.c_str()) != 0) {
        const int error = errno;
        closeAndRemove();
        throw FileWriteError(describe("cannot replace", target_, error));
    }
    committed_ = true;
    tempPath_.clear();
    if (durable) {
        syncDirectory(directoryOf(target_));
    }
}

std::uint64_t AtomicFile::syncCount() {
    return syncCalls.load(std::memory_order_relaxed);
}

void AtomicFile::abandon() {
    closeAndRemove();
}

void AtomicFile::closeAndRemove() noexcept {
    if (fd_ >= 0) {
        ::close(fd_);
        fd_ = -1;
    }
    if (!tempPath_.empty()) {
        ::unlink(tempPath_.c_str());
        tempPath_.clear();
    }
}

void syncFileSystemOf(const std::filesystem::path& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        throw FileWriteError(describe("cannot open to make durable", path, errno));
    }
    syncCalls.fetch_add(1, std::memory_order_relaxed);
    if (::syncfs(fd) != 0) {
        const int error = errno;
        ::close(fd);
        throw FileWriteError(describe("cannot make durable", path, error));
    }
    struct stat info {};
    if (::fstat(fd, &info) == 0 && S_ISDIR(info.st_mode)) {
        countedFsync(fd);
    }
    ::close(fd);
}

void writeFileAtomically(const std::filesystem::path& path, std::span<const std::uint8_t> bytes) {
    AtomicFile file(path);
    file.write(bytes);
    file.commit();
}

}  // namespace strata
