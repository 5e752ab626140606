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

class AtomicFile {
public:
    // Creates the temporary file (same directory, unique name, created exclusively, mode
    // 0666 & ~umask, or the target's mode when the target exists). Throws FileWriteError.
    explicit AtomicFile(std::filesystem::path target);
    // Without commit(), removes the temporary file and leaves the target untouched.
    ~AtomicFile();
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    // Appends bytes to the temporary file. Throws FileWriteError (e.g. disk full).
    void write(std::span<const std::uint8_t> bytes);
    void write(std::string_view text);

    // Flushes and fsyncs the temporary file, renames it over the target and fsyncs the
    // directory. Throws FileWriteError; the temporary file is removed on failure.
    void commit();
    // Drops the temporary file now; later write() or commit() calls throw.
    void abandon();

    const std::filesystem::path& target() const { return target_; }
    const std::filesystem::path& tempPath() const { return tempPath_; }
    std::uint64_t bytesWritten() const { return written_; }
    bool committed() const { return committed_; }

private:
    void requireOpen(const char* action) const;
    void closeAndRemove() noexcept;

    std::filesystem::path target_;
    std::filesystem::path tempPath_;
    int fd_ = -1;
    std::uint64_t written_ = 0;
    bool committed_ = false;
};

// Replaces `path` with `bytes` through an AtomicFile. Throws FileWriteError.
void writeFileAtomically(const std::filesystem::path& path, std::span<const std::uint8_t> bytes);

}  // namespace strata
