// Reads OZDF documents (standalone `.ozdf` files and directory documents with their `.ozdp`
// parts) and corpora the way the reference does, keeping the bytes every element came from.
// Reading never stops at the first problem: everything the reference would refuse is recorded
// as an Error diagnostic and the rest of the input is still read, so a damaged document still
// shows a tree.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "formats/common/file_tree.h"
#include "formats/common/validator.h"
#include "ozdf_document.h"

namespace strata::ozdf {

enum class Grammar {
    Document,  // .ozdf files and _metadata.ozdf: blocks, lists, comments, external lists
    DataPart,  // .ozdp files: plain blocks and comments only
};

// A file or a directory document. Throws SourceError when the path is neither or cannot be
// opened; every other problem becomes a diagnostic.
Document readDocument(const std::filesystem::path& path);

// A standalone document (or a data part, with Grammar::DataPart) held in `source`.
Document readDocumentSource(ByteSourcePtr source, std::string filename,
                            Grammar grammar = Grammar::Document);

// A folder of documents: `.ozdf` files and folders holding `_metadata.ozdf` (or the interrupted
// save marker), sorted by full path. Throws SourceError when the folder cannot be listed.
Corpus readCorpus(const std::filesystem::path& folder);

// One document of a corpus folder: a `.ozdf` file or a directory document.
struct CorpusEntry {
    std::filesystem::path path;
    bool isDirectory = false;
};

// A corpus folder listed without reading any document: what readCorpus reads, in its order,
// and the problems of the folder itself.
struct CorpusListing {
    std::filesystem::path path;
    std::vector<CorpusEntry> entries;
    std::vector<Diagnostic> diagnostics;
};

// Throws SourceError when the folder cannot be listed.
CorpusListing listCorpus(const std::filesystem::path& folder);
// One listed document, as readDocument reads it. Throws SourceError when it cannot be opened.
Document readCorpusEntry(const CorpusEntry& entry);
// Every listed document, on kDocumentThreads threads: the corpus readCorpus returns. nullopt
// when `cancel` stopped the read; `done(n)` runs on the caller's thread after each document it
// read, with the number read so far.
std::optional<Corpus> readListedCorpus(const CorpusListing& listing,
                                       const CancelToken* cancel = nullptr,
                                       const std::function<void(std::size_t)>& done = {});

// Whether a folder is read as one directory document rather than as a corpus: it holds
// `_metadata.ozdf` or the interrupted save marker, or it holds `.ozdp` part files and no
// documents (a directory document that lost its metadata, reported as such).
bool opensAsDocument(const std::filesystem::path& folder);

class RemoteFolders;

// The same reads for a document or corpus wherever its files are: on disk (a null or local
// tree: the functions above, memory-mapped, a corpus read on kDocumentThreads threads), or in a
// remote tree (an http(s):// folder with JSON listings, an S3 prefix), where `path` holds the
// URL's text. Remotely every folder is listed once per reader (the listing answers "is there a
// _metadata.ozdf / a part file"), and only a missing file counts as missing: any other remote
// error (403, 5xx, a server that does not list folders) propagates as a SourceError naming the
// URL. Documents and corpora read remotely are marked `remote` (nothing beside them is looked at
// on disk). Thread-safe; keep one reader for the questions and reads about one input.
class TreeReader {
public:
    explicit TreeReader(FileTreePtr tree = nullptr);

    bool remote() const { return remote_ != nullptr; }
    // Whether `path` is a folder (false when there is nothing there).
    bool isDirectory(const std::filesystem::path& path) const;
    bool opensAsDocument(const std::filesystem::path& folder) const;
    // `isDirectory`, when known, saves asking; `opened`, a remote file already open (a probe's),
    // is read instead of opening it again.
    Document readDocument(const std::filesystem::path& path,
                          std::optional<bool> isDirectory = std::nullopt,
                          ByteSourcePtr opened = nullptr) const;
    Corpus readCorpus(const std::filesystem::path& folder) const;

private:
    std::shared_ptr<const RemoteFolders> remote_;  // null: the local file system
};

// The part file key of an external list: its upper-cased name with every space turned into '_'.
std::string partFileKey(std::string_view listName);

}  // namespace strata::ozdf
