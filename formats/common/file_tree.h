// A tree of files that can be read: the local file system, an HTTP(S) server, an S3 bucket.
// Every reader that looks beyond one file (probes listing a folder, ZDS collections, OZDF part
// files, Shardlake shards) goes through a FileTree, so remote data is read the same way as
// local data, and only the bytes a view touches are fetched.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "byte_source.h"
#include "location.h"

namespace strata {

struct FileTreeEntry {
    std::string name;  // the last part of the location
    bool isDirectory = false;
    std::uint64_t size = 0;  // regular files
    // What tells this version of a file from another, when the tree's listing gives it for
    // free (a scan's results cache keys on it): an S3 object's ETag; the modification time
    // (local files: nanoseconds since the epoch; S3 and HTTP listings: the server's text).
    // Empty when unknown.
    std::string etag;
    std::string modified;
};

// What is at a location, found in one step: a file opened, or a folder's first entries.
struct FileOrFolder {
    ByteSourcePtr file;  // null for a folder
    std::vector<FileTreeEntry> entries;
    bool truncated = false;
};

class FileTree {
public:
    virtual ~FileTree() = default;

    // True for HTTP and S3: opening and listing cost a network round trip, writes go elsewhere.
    virtual bool remote() const = 0;
    // The file's bytes. Throws SourceError naming the location and what went wrong (no such
    // file, permission denied, the server does not serve ranges...).
    virtual ByteSourcePtr open(const Location& file) const = 0;
    // The same for a file a list() of its folder returned as `listed` (its size known): a tree
    // may skip what it need not ask (an empty S3 object is opened without a request, which
    // some S3 servers would refuse as an unsatisfiable range). The default opens it.
    virtual ByteSourcePtr openListed(const Location& file, const FileTreeEntry& listed) const;
    // Whether list() shows names that start with '.'. A web server's listing leaves them out
    // (nginx's autoindex does): a reader that needs such a file asks for it by name (stat).
    virtual bool listsDotFiles() const { return true; }
    // What is at `location`: a file (with its size), a folder, or nothing.
    virtual std::optional<FileTreeEntry> stat(const Location& location) const = 0;
    // The immediate children of a folder, sorted by name, at most `limit` of them (0 = all);
    // `truncated` (when given) says whether there were more. Throws SourceError when the tree
    // cannot list folders (a plain HTTP server without directory listings).
    virtual std::vector<FileTreeEntry> list(const Location& folder, std::size_t limit = 0,
                                            bool* truncated = nullptr) const = 0;

    // The file at `location` opened, or the folder there listed (at most `limit` entries, as
    // list does). A remote tree does it as one operation, with one deadline and one set of
    // retries (the first answer tells a file from a folder); this default asks stat first.
    // Throws SourceError as open and list do, or when nothing is there.
    virtual FileOrFolder openOrList(const Location& location, std::size_t limit) const;
};

using FileTreePtr = std::shared_ptr<const FileTree>;

// The local file system: files are memory-mapped (openMappedFile).
FileTreePtr localFileTree();

}  // namespace strata
