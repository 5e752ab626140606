// A Shardlake storage root: keys ("indexes/v1/shards/shard-0000.sidx") map to files under the
// root, on disk or under a URL (an HTTP folder, an S3 prefix: Shardlake keys are object-store
// keys by design). Files are opened on first use (memory-mapped, or read by range through the
// remote tree) and kept, so every Region handed out stays valid for as long as the store lives.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "formats/common/byte_source.h"
#include "formats/common/file_tree.h"
#include "formats/registry/format_handler.h"

namespace strata::shardlake {

// How many entries of one folder are looked at (index versions, aliases, worker outputs).
inline constexpr std::size_t kFolderEntryLimit = 10000;

class Store {
public:
    explicit Store(std::filesystem::path root);
    // A root in a remote tree: `root` holds the URL's text (see ProbeInput::tree).
    Store(FileTreePtr tree, std::filesystem::path root);

    const std::filesystem::path& root() const { return root_; }
    // True when the root is a URL: nothing beside it is looked at on disk.
    bool remote() const { return tree_ != nullptr; }
    std::filesystem::path pathOf(std::string_view key) const;

    // The file for a clean key (see keyProblem); nullptr when the key is unsafe, the file is
    // missing, a symbolic link leads out of the root, or it cannot be mapped. A remote file that
    // exists but cannot be read (403, the server failing) throws RemoteError. Thread-safe.
    ByteSourcePtr source(std::string_view key) const;
    bool exists(std::string_view key) const;
    // Opens these keys ahead of use, several at once, when the root is remote (each open is a
    // round trip); a no-op for a local root. Errors wait for the caller's own source() call.
    void prefetch(const std::vector<std::string>& keys) const;
    // Every source mapped so far, in the order they were first mapped.
    std::vector<ByteSourcePtr> sources() const;

    // Sorted names of the sub-folders (or regular files) of a folder key ("indexes").
    std::vector<std::string> folders(std::string_view key) const;
    std::vector<std::string> files(std::string_view key) const;

private:
    bool insideRoot(const std::filesystem::path& path) const;
    ByteSourcePtr openFile(const std::filesystem::path& path) const;
    std::vector<ProbeEntry> list(std::string_view key) const;

    FileTreePtr tree_;  // null: the local file system
    std::filesystem::path root_;
    std::filesystem::path canonicalRoot_;
    mutable std::mutex mutex_;
    mutable std::map<std::string, ByteSourcePtr, std::less<>> cache_;
    mutable std::vector<ByteSourcePtr> order_;
};

// One index version of a store: what an opened index folder is compared by.
struct StoreIndex {
    std::shared_ptr<const Store> store;
    std::string version;
};

// One dataset of a store: what an opened dataset folder is compared by.
struct StoreDataset {
    std::shared_ptr<const Store> store;
    std::string name;
};

// A single `.sidx` shard opened on its own (its file name in `name`).
struct ShardFile {
    ByteSourcePtr source;
    std::string name;
};

}  // namespace strata::shardlake
