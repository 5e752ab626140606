// Crash-safe file replacement: write everything to a temporary file beside the target, then
// rename it over the target. Readers see either the old file or the whole new one, never a mix.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <stdexcept>
#include <string_view>

namespace strata {

// Thrown when a file cannot be written; what() names the path and the system's reason.
class FileWriteError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// When a committed AtomicFile reaches the disk.
enum class Durability {
    // commit() fsyncs the file before the rename and the folder after it (the default).
    Immediate,
    // commit() only renames; the caller makes a whole batch durable at once afterwards with
    // syncFileSystemOf(). For new files only: a crash before that sync may leave a new file
    // empty or missing, so never use it where an old file is being replaced.
    Deferred,
};

class AtomicFile {
public:
    // Creates the temporary file (same directory, unique name, created exclusively, mode
    // 0666 & ~umask, or the target's mode when the target exists). Throws FileWriteError.
    explicit AtomicFile(std::filesystem::path target,
                        Durability durability = Durability::Immediate);
    // Without commit(), removes the temporary file and leaves the target untouched.
    ~AtomicFile();
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    // Appends bytes to the temporary file. Throws FileWriteError (e.g. disk full). With
    // Durability::Immediate, every 32 MiB written are handed to the disk without waiting, so
    // the fsync in commit() only waits for the tail of a large file.
    void write(std::span<const std::uint8_t> bytes);
    void write(std::string_view text);

    // Flushes and fsyncs the temporary file, renames it over the target and fsyncs the
    // directory (Durability::Deferred: only renames). Throws FileWriteError; the temporary file
    // is removed on failure.
    void commit();
    // Drops the temporary file now; later write() or commit() calls throw.
    void abandon();

    const std::filesystem::path& target() const { return target_; }
    const std::filesystem::path& tempPath() const { return tempPath_; }
    std::uint64_t bytesWritten() const { return written_; }
    bool committed() const { return committed_; }
    Durability durability() const { return durability_; }

    // How many fsync calls AtomicFiles of this process have made (tests and benchmarks check
    // that a deferred save really skips them).
    static std::uint64_t syncCount();

private:
    void requireOpen(const char* action) const;
    void closeAndRemove() noexcept;
    void startWriteback() noexcept;

    std::filesystem::path target_;
    std::filesystem::path tempPath_;
    Durability durability_ = Durability::Immediate;
    int fd_ = -1;
    std::uint64_t written_ = 0;
    std::uint64_t writebackStarted_ = 0;  // bytes already handed to the disk
    bool committed_ = false;
};

// Makes everything written so far to the file system that holds `path` (a file or folder)
// durable, in one syncfs call, then fsyncs `path` itself when it is a folder. What ends a batch
// of Durability::Deferred commits. Throws FileWriteError.
void syncFileSystemOf(const std::filesystem::path& path);

// Replaces `path` with `bytes` through an AtomicFile. Throws FileWriteError.
void writeFileAtomically(const std::filesystem::path& path, std::span<const std::uint8_t> bytes);

}  // namespace strata
