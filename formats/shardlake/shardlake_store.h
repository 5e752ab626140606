// A Shardlake storage root: keys ("indexes/v1/shards/shard-0000.sidx") map to files under the
// root, on disk or under a URL (an HTTP folder, an S3 prefix: Shardlake keys are object-store
// keys by design). Files are opened on first use and kept, so every Region handed out stays
// valid for as long as the store lives. A local file is kept as openFileOnDemand keeps it (no
// mapping, no descriptor): a root of 100,000 shards opens them all, where one mapping each ran
// out at the kernel's limit and later shards read as missing. A remote file is read by range
// through the remote tree.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "formats/common/byte_source.h"
#include "formats/common/file_tree.h"
#include "formats/registry/format_handler.h"

namespace strata::shardlake {

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
    // missing (or not a regular file), or a symbolic link leads out of the root. A file that is
    // there but cannot be read throws SourceError naming it and why (permission denied, out of
    // descriptors; remotely a StoreError: 403, the server failing): an I/O error, not a missing
    // file. Thread-safe.
    ByteSourcePtr source(std::string_view key) const;
    // The file of `key` when source(key) has opened it already; nullptr otherwise (never opens).
    ByteSourcePtr openedSource(std::string_view key) const;
    // Whether source(key) would find the file; throws as source() does.
    bool exists(std::string_view key) const;
    // Opens these keys ahead of use, several at once, when the root is remote (each open is a
    // round trip); a no-op for a local root. Errors wait for the caller's own source() call.
    void prefetch(const std::vector<std::string>& keys) const;
    // Every source opened so far, in the order they were first opened.
    std::vector<ByteSourcePtr> sources() const;

    // Sorted names of all the sub-folders (or regular files) of a folder key ("indexes"), however
    // many there are: an orphan check or a diff that saw only some of a shards/ folder would be
    // wrong. Empty when the folder is missing; throws SourceError when it is there but cannot be
    // listed to the end.
    std::vector<std::string> folders(std::string_view key) const;
    std::vector<std::string> files(std::string_view key) const;

private:
    // `failed`, when given, says whether the path could not be resolved (then it is judged as
    // written).
    bool insideRoot(const std::filesystem::path& path, bool* failed = nullptr) const;
    bool folderInsideRoot(const std::filesystem::path& folder) const;
    bool isLocalFile(const std::filesystem::path& path) const;
    ByteSourcePtr openFile(const std::filesystem::path& path) const;
    std::vector<ProbeEntry> list(std::string_view key) const;

    FileTreePtr tree_;  // null: the local file system
    std::filesystem::path root_;
    std::filesystem::path canonicalRoot_;
    mutable std::mutex mutex_;
    mutable std::map<std::string, ByteSourcePtr, std::less<>> cache_;
    mutable std::vector<ByteSourcePtr> order_;
    // Whether each folder a file was opened in resolves inside the root: canonicalised once per
    // folder, not once per file (a shards/ folder of 10,000 files).
    mutable std::unordered_map<std::string, bool> folderInside_;
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
