// A Shardlake storage root on disk: keys ("indexes/v1/shards/shard-0000.sidx") map to files
// under the root. Files are memory-mapped on first use and kept, so every Region handed out
// stays valid for as long as the store lives.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "formats/common/byte_source.h"

namespace strata::shardlake {

// How many entries of one folder are looked at (index versions, aliases, worker outputs).
inline constexpr std::size_t kFolderEntryLimit = 10000;

class Store {
public:
    explicit Store(std::filesystem::path root);

    const std::filesystem::path& root() const { return root_; }
    std::filesystem::path pathOf(std::string_view key) const;

    // The mapped file for a clean key (see keyProblem); nullptr when the key is unsafe, the file
    // is missing, a symbolic link leads out of the root, or it cannot be mapped. Thread-safe.
    ByteSourcePtr source(std::string_view key) const;
    bool exists(std::string_view key) const;
    // Every source mapped so far, in the order they were first mapped.
    std::vector<ByteSourcePtr> sources() const;

    // Sorted names of the sub-folders (or regular files) of a folder key ("indexes").
    std::vector<std::string> folders(std::string_view key) const;
    std::vector<std::string> files(std::string_view key) const;

private:
    bool insideRoot(const std::filesystem::path& path) const;

    std::filesystem::path root_;
    std::filesystem::path canonicalRoot_;
    mutable std::mutex mutex_;
    mutable std::map<std::string, ByteSourcePtr, std::less<>> cache_;
    mutable std::vector<ByteSourcePtr> order_;
};

}  // namespace strata::shardlake
