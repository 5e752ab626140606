// Reads ZDS datasets, folders or `.zds` ZIP archives: zds.json, collections, their JSONL data
// with its ZDX index (meta/index.bin) and the file-per-document layout (docs/, order.ids).
// Everything is lazy: opening a collection of a million documents reads only the index header;
// the entry table (one pass over index.bin) or the line table (one memchr pass over data.jsonl
// when there is no usable index) is built on first use.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "formats/common/byte_source.h"
#include "formats/common/file_tree.h"
#include "formats/common/location.h"
#include "formats/common/region.h"
#include "formats/common/zip_member_source.h"

namespace strata::zds {

// Folder or archive, addressed by '/'-separated paths relative to the dataset root.
class ZdsStorage {
public:
    virtual ~ZdsStorage() = default;
    virtual bool isArchive() const = 0;
    // Whether each open may wait for a server (a remote tree), rather than the disk.
    virtual bool isRemote() const { return false; }
    virtual bool hasFile(const std::string& rel) const = 0;
    virtual bool hasDirectory(const std::string& rel) const = 0;
    // Names (not paths) of the immediate sub-folders / regular files of `rel`, sorted.
    virtual std::vector<std::string> directories(const std::string& rel) const = 0;
    virtual std::vector<std::string> files(const std::string& rel) const = 0;
    // The file's bytes, or nullptr when it is absent or cannot be read. Cached: the same
    // source is returned every time, and it lives as long as the storage.
    ByteSourcePtr open(const std::string& rel) const;
    // Every source opened so far (the document keeps them alive).
    std::vector<ByteSourcePtr> openedSources() const;
    // A file looked at once by a pass over many (the validator reads each docs/ file once):
    // its source and whole bytes (none when larger than `limit`), not cached unless keep()
    // is called; no source when it is absent or cannot be read.
    virtual FileReadOnce readOnce(const std::string& rel, std::uint64_t limit) const;
    // Keeps a source readOnce() gave alive as long as the storage (diagnostics point into
    // it); open() returns it from then on unless another was opened first.
    void keep(const std::string& rel, ByteSourcePtr source) const;
    virtual std::string displayPath(const std::string& rel) const = 0;

protected:
    virtual ByteSourcePtr openUncached(const std::string& rel) const = 0;

private:
    mutable std::mutex mutex_;
    mutable std::unordered_map<std::string, ByteSourcePtr> cache_;
    mutable std::vector<ByteSourcePtr> opened_;  // in the order they were opened
};

std::unique_ptr<ZdsStorage> makeFolderStorage(const std::filesystem::path& root);
std::unique_ptr<ZdsStorage> makeArchiveStorage(std::shared_ptr<ZipArchive> archive);
// A dataset folder in a remote tree (an HTTP folder with JSON listings, an S3 prefix). Each
// folder is listed once, on first use, and every hasFile/hasDirectory/files/directories below
// it is answered from that listing (no request per name); a file absent from its folder's
// listing is not asked for. A file that is listed but is missing when opened
// (StoreError::missing) reads as absent; any other failure of the store (403, the server
// failing) throws its StoreError.
std::unique_ptr<ZdsStorage> makeTreeStorage(FileTreePtr tree, Location root);

inline constexpr std::uint64_t kZdxHeaderSize = 16;
inline constexpr std::uint64_t kZdxEntryFixedSize = 14;  // u16 id length + u64 + u32

enum class ZdxLayout { Binary, Text, Unknown };

struct ZdxEntry {
    std::string id;
    std::uint64_t offset = 0;  // of the line in data.jsonl
    std::uint64_t length = 0;  // including the line's '\n'
    Region entry;              // the whole entry in index.bin
    Region idRegion, offsetRegion, lengthRegion;
    bool parsed = true;  // false for a text-index line that is not id\toffset\tlength
};

// meta/index.bin: the binary ZDX layout, or the legacy text layout (id\toffset\tlength lines)
// some writers produce.
class ZdxIndex {
public:
    explicit ZdxIndex(ByteSourcePtr source);

    const ByteSourcePtr& source() const { return source_; }
    ZdxLayout layout() const { return layout_; }
    bool magicOk() const { return layout_ == ZdxLayout::Binary; }
    bool headerComplete() const { return headerComplete_; }
    std::uint32_t version() const { return version_; }
    std::uint64_t declaredCount() const { return count_; }

    // Entries actually present (binary: at most the declared count; one pass, bounded by the
    // file size, never by the declared count).
    std::uint64_t entryCount() const;
    ZdxEntry entry(std::uint64_t i) const;
    // Binary: true when an entry is cut off by the end of the file; where it starts.
    bool truncated() const;
    std::uint64_t truncatedAt() const;
    // Binary: where the declared entries end (bytes after it are trailing garbage).
    std::uint64_t entriesEnd() const;

private:
    void scan() const;

    ByteSourcePtr source_;
    ZdxLayout layout_ = ZdxLayout::Unknown;
    bool headerComplete_ = false;
    std::uint32_t version_ = 0;
    std::uint64_t count_ = 0;
    mutable std::once_flag scanned_;
    mutable std::vector<std::uint64_t> starts_;
    mutable bool truncated_ = false;
    mutable std::uint64_t end_ = 0;
};

// Offsets of the lines of a JSONL source: line i is [start(i), start(i + 1)) including its
// '\n' (the last line may lack one). Built with memchr in chunks.
std::vector<std::uint64_t> scanLineStarts(const ByteSource& source);

enum class ZdsStorageMode { Jsonl, Docs, None };

struct ZdsDocument {
    std::string id;
    Region region;  // the line in data.jsonl (with its '\n') or the whole docs/<id>.json
    std::optional<std::uint64_t> entryIndex;  // the ZDX entry it came from
    std::uint8_t flags = 0;                   // ZdsLiveFlag bits: how its bytes were found
};

class ZdsLiveSet;
struct ZdsLiveOptions;

class ZdsCollection {
public:
    ZdsCollection(const ZdsStorage& storage, std::string name, std::string dir);

    const std::string& name() const { return name_; }
    const std::string& dir() const { return dir_; }  // "collections/<name>"
    const ZdsStorage& storage() const { return storage_; }
    std::string path(const std::string& rel) const;

    ByteSourcePtr data, index, manifest, orderIds, docIndex;
    bool hasDocsDir = false;
    bool hasMetaDir = false;
    const ZdxIndex* zdx() const { return zdx_.get(); }
    // JSONL when data.jsonl exists, docs when docs/ or order.ids does.
    ZdsStorageMode mode() const;
    // True when the live documents come from the index rather than from a line scan.
    bool usesIndex() const;

    // The live documents (zds_live_set.h), computed on first use and kept. With options the
    // computation can be cancelled (nothing is returned or kept) and can count the lines that
    // are not live (census).
    std::shared_ptr<const ZdsLiveSet> liveSet() const;
    std::shared_ptr<const ZdsLiveSet> liveSet(const ZdsLiveOptions& options) const;

    // Non-blank lines of data.jsonl, in file order (the raw structure, live or not).
    const std::vector<std::uint64_t>& lineStarts() const;
    // docs/ file names (sorted) and order.ids lines, read on first use.
    const std::vector<std::string>& docFiles() const;
    const std::vector<std::string>& orderList() const;

    // Live document i (liveSet() order, which is stored order).
    std::uint64_t documentCount() const;
    ZdsDocument document(std::uint64_t i) const;
    // The document's bytes: the JSONL line without its line ending, or the docs/ file.
    ByteView documentBytes(std::uint64_t i) const;
    ByteView documentBytes(const ZdsDocument& doc) const;

private:
    const ZdsStorage& storage_;
    std::string name_;
    std::string dir_;
    std::unique_ptr<ZdxIndex> zdx_;
    mutable std::once_flag linesOnce_, docsOnce_, orderOnce_;
    mutable std::vector<std::uint64_t> lines_;  // non-blank line starts, then a sentinel
    mutable std::vector<std::string> docFiles_, orderIds_;
    mutable std::mutex liveMutex_;
    mutable std::shared_ptr<const ZdsLiveSet> live_;
};

class ZdsDataset {
public:
    // Opens a dataset folder, a single collection folder, or a ZIP archive. Throws SourceError
    // (ZipError for a file that is not a readable ZIP).
    static std::shared_ptr<ZdsDataset> open(const std::filesystem::path& path,
                                            bool checkZipConsistency = false);
    // The same for a location in a tree: a local location opens as above; a remote one is a
    // folder read through makeTreeStorage or a `.zds` read by range (ZipArchive over the
    // source). `opened`, when given, is the remote file already open (the probe's source).
    static std::shared_ptr<ZdsDataset> open(const FileTreePtr& tree, const Location& location,
                                            bool checkZipConsistency = false,
                                            ByteSourcePtr opened = nullptr);

    // The path, or for a remote dataset the URL's text.
    const std::filesystem::path& path() const { return path_; }
    // The remote tree the dataset is read through; null for a local dataset. A remote dataset
    // is read-only: writes, repairs and rebuilt indexes need a local copy.
    const FileTreePtr& tree() const { return tree_; }
    bool remote() const { return tree_ != nullptr; }
    const ZdsStorage& storage() const { return *storage_; }
    const std::shared_ptr<ZipArchive>& archive() const { return archive_; }
    ByteSourcePtr zdsJson;
    bool hasCollectionsDir = false;
    bool singleCollection = false;  // the path is a collection folder itself
    std::vector<std::unique_ptr<ZdsCollection>> collections;

private:
    void readLayout();

    std::filesystem::path path_;
    FileTreePtr tree_;
    std::shared_ptr<ZipArchive> archive_;
    std::unique_ptr<ZdsStorage> storage_;
};

// The `_id` of a JSON text (parsed properly, escapes decoded), or nothing.
std::optional<std::string> extractJsonId(std::span<const std::uint8_t> line);

}  // namespace strata::zds
