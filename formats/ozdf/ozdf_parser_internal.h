// Internal to the OZDF reader (ozdf_parser.h): what its files share. The names of a directory
// document's files, opening a file for its parse, folder contents, remote listings and the parse
// of one file's lines. Parts: ozdf_parser.cpp (documents, corpora), ozdf_element_parser.cpp
// (one file's lines), ozdf_directory_document.cpp (a directory document and its part files).
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ozdf_diagnostics.h"
#include "ozdf_parser.h"

namespace strata::ozdf {

inline constexpr std::string_view kMetadataFile = "_metadata.ozdf";
inline constexpr std::string_view kWritingMarker = ".ozdf_writing";
inline constexpr std::string_view kBackupFolder = ".ozdf_backup";

// What a folder holding `parts` part files and no metadata is, for a report.
std::string partsWithoutMetadataText(std::size_t parts);

// The file or folder name of `path` (a folder's even when written with a trailing slash).
std::string fileNameOf(const std::filesystem::path& path);

// A document's file: `kept`, the source the document keeps and its regions point at, and
// `bytes`, the same bytes for the parse to read. Locally `kept` reads the file again for each
// view (no mapping, no descriptor, no copy: a corpus of a hundred thousand files held them all,
// and a thousand files of 16 MiB ran out of descriptors) and `bytes` is a copy, or for a large
// file a mapping, dropped once the file is parsed. Remotely both are the tree's source.
struct OpenedFile {
    ByteSourcePtr kept;
    ByteSourcePtr bytes;
};

// Opens a local file for its parse. Throws SourceError when it cannot be.
OpenedFile openFileSource(const std::filesystem::path& path);

// The folders of a remote tree, each listed once (and shared by the threads reading a corpus):
// whether a folder holds `_metadata.ozdf` or a part file is answered from its listing, not by
// a request per name.
class RemoteFolders {
public:
    struct Listing {
        bool found = false;  // false: the tree has no such folder
        std::vector<FileTreeEntry> entries;
    };

    explicit RemoteFolders(FileTreePtr tree) : tree_(std::move(tree)) {}

    // A missing folder gives found = false; any other error propagates.
    std::shared_ptr<const Listing> list(const std::filesystem::path& folder) const {
        const std::string key = folder.string();
        {
            std::lock_guard lock(mutex_);
            if (const auto it = listings_.find(key); it != listings_.end()) {
                return it->second;
            }
        }
        // Listed outside the lock: a listing is a round trip, and documents read in parallel.
        auto listing = std::make_shared<Listing>();
        const Location location = Location::parse(key);
        try {
            listing->entries = tree_->list(location);
            listing->found = true;
        } catch (const StoreError& e) {
            if (!e.missing()) {
                throw;
            }
        }
        // A tree whose listings leave out dot files (a web server's): the interrupted save
        // marker is asked for by name.
        if (listing->found && !tree_->listsDotFiles() && !hasFile(*listing, kWritingMarker)) {
            const auto marker = tree_->stat(location.child(kWritingMarker));
            if (marker && !marker->isDirectory) {
                FileTreeEntry entry = *marker;
                entry.name = std::string(kWritingMarker);
                const auto at = std::lower_bound(
                    listing->entries.begin(), listing->entries.end(), entry.name,
                    [](const FileTreeEntry& e, const std::string& name) { return e.name < name; });
                listing->entries.insert(at, std::move(entry));
            }
        }
        std::lock_guard lock(mutex_);
        return listings_.emplace(key, std::move(listing)).first->second;
    }

    bool hasFile(const std::filesystem::path& folder, std::string_view name) const {
        return hasFile(*list(folder), name);
    }

    ByteSourcePtr open(const std::filesystem::path& file) const {
        return tree_->open(Location::parse(file.string()));
    }
    std::optional<FileTreeEntry> stat(const std::filesystem::path& path) const {
        return tree_->stat(Location::parse(path.string()));
    }

private:
    static bool hasFile(const Listing& listing, std::string_view name) {
        return std::any_of(
            listing.entries.begin(), listing.entries.end(),
            [&](const FileTreeEntry& e) { return !e.isDirectory && e.name == name; });
    }

    FileTreePtr tree_;
    mutable std::mutex mutex_;
    mutable std::map<std::string, std::shared_ptr<const Listing>, std::less<>> listings_;
};

// What a folder that is not a directory document holds: .ozdp parts, .ozdf files, and
// sub-folders that are directory documents.
struct FolderContents {
    std::size_t parts = 0;
    std::size_t documents = 0;
};

bool isDocumentFolder(const std::filesystem::path& folder);
// `firstDocument`: stop at the first document found (all a caller asking "any documents?"
// needs, without looking into every sub-folder of a large corpus).
FolderContents contentsOf(const std::filesystem::path& folder, bool lookIntoSubfolders,
                          bool firstDocument = false);
bool isDocumentFolder(const RemoteFolders& remote, const std::filesystem::path& folder);
// contentsOf from the folder's listing (and its sub-folders' listings).
FolderContents contentsOf(const RemoteFolders& remote, const std::filesystem::path& folder,
                          bool lookIntoSubfolders, bool firstDocument = false);

// Called for every `[[Name]]` header of a directory document, to read its parts.
using ExternalReader = std::function<void(Element&)>;

// The elements of the file `source` holds, read from `bytes` (see LineParser::parse). `directory`:
// the file is a directory document's metadata, whose external lists `externalReader` reads.
std::vector<Element> parseElements(const ByteSource& source, const ByteSource& bytes,
                                   Grammar grammar, bool directory, Reporter& reporter,
                                   ExternalReader externalReader);

// A directory document (`remote` null: on the local file system).
Document readDirectoryDocument(const std::filesystem::path& folder,
                               const RemoteFolders* remote = nullptr);

}  // namespace strata::ozdf
