// Blocks kept on disk between runs (--cache-dir). Each object gets a folder named by a hash of
// its URL, ETag/Last-Modified, length and block size, so a changed object never meets the
// blocks of its old version. Files are written to a temporary name and renamed, so a crash
// leaves whole blocks or none; any unreadable or wrong-sized block is ignored and refetched.
#pragma once

#include <filesystem>
#include <string>

#include "block_cache.h"

namespace strata {

class DiskCache {
public:
    explicit DiskCache(std::filesystem::path dir) : dir_(std::move(dir)) {}

    // The folder for one object identity.
    std::filesystem::path objectDir(const std::string& identity) const;
    // The block, when present with exactly `expectedSize` bytes; null otherwise.
    Block load(const std::filesystem::path& objectDir, std::uint64_t index,
               std::size_t expectedSize) const;
    // Best effort: a full disk or a read-only folder only means no caching.
    void store(const std::filesystem::path& objectDir, std::uint64_t index,
               const std::vector<std::uint8_t>& bytes) const;

private:
    std::filesystem::path dir_;
};

}  // namespace strata
