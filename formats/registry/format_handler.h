// What each format plugs into the registry: a probe that recognises it, and an opener that
// turns a path into sources, a lazy Node tree and a validator.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "../common/byte_source.h"
#include "../common/diff.h"
#include "../common/file_tree.h"
#include "../common/location.h"
#include "../common/node.h"
#include "../common/repair.h"
#include "../common/save_leftovers.h"
#include "../common/validator.h"

namespace strata {

// Which format a handler reads: a short key that names it in code, settings and tests ("zs")
// and the name users see and strata-cli prints ("ZS"). Not a closed list: each format defines
// its own beside its handler (kZsFormat in formats/zs/zs_format.h); a default-constructed id
// is raw binary, the registry's fallback for any other file.
class FormatId {
public:
    constexpr FormatId() = default;
    constexpr FormatId(std::string_view key, std::string_view name) : key_(key), name_(name) {}
    constexpr std::string_view key() const { return key_; }
    constexpr std::string_view name() const { return name_; }
    constexpr bool operator==(const FormatId& other) const { return key_ == other.key_; }

private:
    std::string_view key_ = "raw";
    std::string_view name_ = "raw binary";
};

inline constexpr FormatId kRawBinaryFormat{};

// For test failures and logs: the name users see.
std::ostream& operator<<(std::ostream& out, const FormatId& id);

// The name users see and strata-cli prints: "ZS", "ZDS", "Shardlake", "OZDF", "zTensor",
// "raw binary".
inline std::string_view formatName(FormatId id) {
    return id.name();
}

// One entry of a folder listing, as probes see it.
struct ProbeEntry {
    std::string name;
    bool isDirectory = false;
    bool isRegularFile = false;
};

// A bounded folder listing (see listDirectory in directory_listing.h and ProbeInput::listAt).
struct DirectoryListing {
    // Sorted by name.
    std::vector<ProbeEntry> entries;
    // True when the folder held more than the limit (the first `limit` found are listed).
    bool truncated = false;
    // True when the folder could not be opened at all.
    bool failed = false;
};

// What a probe looks at. `head` holds the first bytes of a regular file (empty for folders),
// `tail` its last bytes (they overlap `head` for small files); `entries` the first entries of a
// folder, sorted by name. Nothing here grows with the size of the file or folder.
struct ProbeInput {
    std::filesystem::path path;
    bool isDirectory = false;
    std::uint64_t fileSize = 0;
    std::vector<std::uint8_t> head;
    std::vector<std::uint8_t> tail;
    // Lower-case extension with the dot (".zs"), empty when there is none.
    std::string extension;
    std::vector<ProbeEntry> entries;
    // True when the folder has more than kMaxEntries entries (only the first are listed).
    bool entriesTruncated = false;
    // Where `path` lives when it is remote (an HTTP server or an S3 bucket): `path` then holds
    // the URL's text, so names still join with '/' and parent_path() walks up the URL. Null for
    // the local file system.
    FileTreePtr tree;
    // A remote file opened while probing, kept so that opening it fetches nothing again.
    ByteSourcePtr source;

    static constexpr std::size_t kHeadSize = 4096;
    static constexpr std::size_t kTailSize = 64;
    static constexpr std::size_t kMaxEntries = 4096;

    // Throws SourceError naming the path when it does not exist, is neither a regular file nor
    // a folder, or cannot be read.
    static ProbeInput fromPath(const std::filesystem::path& path);
    // A file already open as a byte source (a remote file): head and tail come from views of
    // it, the extension from its name. Throws what the source's views throw.
    static ProbeInput fromSource(const ByteSourcePtr& source);
    // A location in a tree: FileTree::openOrList finds a file (opened with one read of its
    // first block) or a folder (listed) in one operation. A local location reads as fromPath.
    // Throws SourceError naming the location.
    static ProbeInput fromTree(const FileTreePtr& tree, const Location& location);

    // Looks beyond `path` (at children, siblings, parents), through `tree` when it is remote:
    // what the local helpers of directory_listing.h do for a local path. Never throw.
    DirectoryListing listAt(const std::filesystem::path& folder, std::size_t limit) const;
    std::string readHeadAt(const std::filesystem::path& file, std::size_t limit = 4096) const;
    bool isDirectoryAt(const std::filesystem::path& location) const;
    bool isFileAt(const std::filesystem::path& location) const;

    // Byte-exact comparisons; `magic` may contain NULs (pass a string_view with its length).
    bool headStartsWith(std::string_view magic) const;
    bool tailEndsWith(std::string_view magic) const;
    // The head as text, for probes that look for JSON keys or text headers.
    std::string_view headText() const;
    // The listed entry with this exact name, or nullptr.
    const ProbeEntry* entry(std::string_view name) const;
    // Whether the folder holds a sub-folder / regular file of this name (checked on disk when
    // the listing was truncated).
    bool hasDirectory(std::string_view name) const;
    bool hasFile(std::string_view name) const;
};

struct Detection {
    FormatId format = kRawBinaryFormat;
    // 100 = certain (magic bytes), 50 = layout or extension, lower = a guess.
    int confidence = 0;
    // What exactly was recognised: "ZS file", "incomplete ZS file", "Shardlake storage root",
    // "zTensor v0.1 file". strata-cli detect prints it after the format name.
    std::string description;
};

// What `strata-cli detect` prints: the format name, then the description in parentheses unless
// it only repeats the name ("ZS", "ZS (incomplete ZS file)", "raw binary").
std::string displayName(const Detection& detection);

// The parsed object a format's open() built (a dataset, a corpus, a file's header and index).
// Each format derives its own type in its own folder, with a typed accessor beside it; shared
// code only carries it.
class FormatState {
public:
    virtual ~FormatState() = default;
};

// A path opened by a format: the byte sources it uses, the structure tree, facts for `info`.
struct OpenedDocument {
    FormatId format = kRawBinaryFormat;
    std::filesystem::path path;
    // The remote tree `path` was read through (a URL's folder formats read more files through
    // it later); null for local paths.
    FileTreePtr tree;
    std::vector<ByteSourcePtr> sources;
    // A source the format opened after open() (a folder's file its tree reads when first
    // shown), found by its address; nullptr when unknown. Null when nothing opens later.
    std::function<ByteSourcePtr(const ByteSource*)> sourceOpenedLater;
    std::unique_ptr<Node> root;
    // Ordered key/value facts shown by `strata-cli info` and the properties panel.
    std::vector<std::pair<std::string, std::string>> facts;
    // Makes a validator over this document; may return nullptr when the format has none yet.
    std::function<std::unique_ptr<Validator>()> makeValidator;
    // What open() parsed, kept so that views, editors and differs reuse it instead of parsing
    // the files a second time; null when the format keeps nothing.
    std::shared_ptr<const FormatState> state;

    // The state as format type S (declared in that format's folder, read through its accessor
    // there), or null when the document holds another format's state or none.
    template <class S>
    std::shared_ptr<const S> stateOf() const {
        return std::dynamic_pointer_cast<const S>(state);
    }
};

class FormatHandler {
public:
    virtual ~FormatHandler() = default;
    virtual FormatId id() const = 0;
    virtual std::optional<Detection> probe(const ProbeInput& input) const = 0;
    // Throws SourceError (or a format's own std::runtime_error) when the path cannot be opened
    // at all; damage that still lets a tree be shown is reported by the validator instead.
    virtual std::unique_ptr<OpenedDocument> open(const std::filesystem::path& path,
                                                 const Detection& detection) const = 0;
    // The same for a file already open as a byte source (an http(s):// or s3:// file); the
    // document's path is the source's name. Formats that read beyond one file (folders,
    // siblings) do not open this way: the default throws SourceError saying so.
    virtual std::unique_ptr<OpenedDocument> openSource(const ByteSourcePtr& source,
                                                       const Detection& detection) const;
    // A location in a remote tree (what `input` = ProbeInput::fromTree found there): a file or
    // a folder, with its siblings and children read through the tree. The default opens a file
    // with openSource and refuses folders with a SourceError.
    virtual std::unique_ptr<OpenedDocument> openTree(const ProbeInput& input,
                                                     const Detection& detection) const;

    // What killed saves of this format leave, and how deep under an opened folder its validator
    // looks for them (the widest of its scans: a Shardlake root down to indexes/<v>/shards).
    // `strata-cli clean-leftovers` joins every format's. The default: none.
    virtual LeftoverScan leftoverScan() const { return {}; }

    // File-name patterns of this format's files for the Open dialog's filter ("*.zs"); none
    // for a format of folders only.
    virtual std::vector<std::string> fileDialogPatterns() const { return {}; }

    // Compares two documents this format opened (the caller checked both are of it), from the
    // parsed state open() kept. The default throws DiffError: the format has no compare yet.
    virtual std::unique_ptr<Differ> makeDiffer(const OpenedDocument& a,
                                               const OpenedDocument& b) const;
    // Whether repair() rebuilds this format's damaged files and folders.
    virtual bool canRepair() const { return false; }
    // Where repair() into `output` puts what it could not use (a quarantine file or folder
    // beside the output, which a repair never replaces), or nothing when it quarantines nothing.
    virtual std::optional<std::filesystem::path> repairQuarantinePath(
        const std::filesystem::path& /*output*/) const {
        return std::nullopt;
    }
    // What `choice` keeps in this format's repair, in sentences: the app's question before
    // planning again with it and strata-cli repair's help say it. Empty when the format's
    // repair does not offer the choice.
    virtual std::string repairChoiceText(RepairChoice /*choice*/) const { return {}; }
    // Repairs `input` (detected as this format) into `output` (formats/common/repair.h). The
    // default throws RepairError: the format has no repair yet.
    virtual RepairReport repair(const std::filesystem::path& input,
                                const std::filesystem::path& output,
                                const RepairOptions& options) const;
};

}  // namespace strata
