// The OZDF reader (ozdf_parser.h): standalone documents and corpora, on disk or remote, and what
// they share with directory documents (files opened for their parse, folder contents).
#include "ozdf_parser.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <exception>
#include <functional>
#include <system_error>

#include "formats/common/counted.h"
#include "ozdf_parallel.h"
#include "ozdf_parser_internal.h"
#include "ozdf_text.h"

namespace strata::ozdf {

namespace fs = std::filesystem;

std::string_view elementKindName(ElementKind kind) {
    switch (kind) {
        case ElementKind::Block:
            return "block";
        case ElementKind::List:
            return "list";
        case ElementKind::ExternalList:
            return "external_list";
        case ElementKind::Comment:
            return "comment";
    }
    return "block";
}

namespace {

bool hasErrors(const std::vector<Diagnostic>& diagnostics) {
    return std::any_of(diagnostics.begin(), diagnostics.end(),
                       [](const Diagnostic& d) { return d.severity == Severity::Error; });
}

// Files up to this size are read into memory for their parse instead of mapped: for small files
// one read() costs less than mapping, faulting the pages in and unmapping (which interrupts
// every core).
constexpr std::uint64_t kCopyLimit = 4U << 20U;

// Closes a file descriptor when it goes out of scope.
struct FdCloser {
    int fd;
    ~FdCloser() { ::close(fd); }
};

}  // namespace

std::string partsWithoutMetadataText(std::size_t parts) {
    return "holds " + std::to_string(parts) + " .ozdp part file" + (parts == 1 ? "" : "s") +
           " but no " + std::string(kMetadataFile) +
           " (a directory document that lost its metadata file, or whose save was cut short)";
}

std::string fileNameOf(const fs::path& path) {
    fs::path clean = path.lexically_normal();
    if (!clean.has_filename() && clean.has_parent_path()) {
        clean = clean.parent_path();
    }
    return clean.filename().string();
}

OpenedFile openFileSource(const fs::path& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);  // never wait on a FIFO
    if (fd < 0) {
        throw SourceError("cannot open " + path.string() + ": " + std::strerror(errno));
    }
    const FdCloser closer{fd};
    struct stat info {};
    if (::fstat(fd, &info) != 0) {
        throw SourceError("cannot stat " + path.string() + ": " + std::strerror(errno));
    }
    if (!S_ISREG(info.st_mode)) {
        throw SourceError(path.string() + ": not a regular file");
    }
    OpenedFile out{openFileOnDemand(path), nullptr};
    if (static_cast<std::uint64_t>(info.st_size) > kCopyLimit) {
        out.bytes = openMappedFile(path);
        return out;
    }
    // Read at once into a buffer for the parse; a file that shrinks meanwhile is cut.
    const auto size = static_cast<std::size_t>(info.st_size);
    std::unique_ptr<std::uint8_t[]> bytes(new std::uint8_t[size]);  // not zeroed: read fills it
    std::size_t got = 0;
    while (got < size) {
        const ssize_t n = ::read(fd, bytes.get() + got, size - got);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            throw SourceError("cannot read " + path.string() + ": " + std::strerror(errno));
        }
        if (n == 0) {
            break;
        }
        got += static_cast<std::size_t>(n);
    }
    out.bytes = makeBufferSource(std::move(bytes), got, path.string());
    return out;
}

bool isDocumentFolder(const fs::path& folder) {
    std::error_code ec;
    return fs::is_regular_file(folder / kMetadataFile, ec) ||
           fs::is_regular_file(folder / kWritingMarker, ec);
}

FolderContents contentsOf(const fs::path& folder, bool lookIntoSubfolders, bool firstDocument) {
    FolderContents out;
    std::error_code ec;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
        std::error_code typeEc;
        const std::string extension = it->path().extension().string();
        if (it->is_regular_file(typeEc)) {
            out.parts += extension == ".ozdp" ? 1 : 0;
            out.documents += extension == ".ozdf" ? 1 : 0;
        } else if (lookIntoSubfolders && it->is_directory(typeEc) && isDocumentFolder(it->path())) {
            ++out.documents;
        }
        if (firstDocument && out.documents > 0) {
            break;
        }
    }
    return out;
}

bool isDocumentFolder(const RemoteFolders& remote, const fs::path& folder) {
    return remote.hasFile(folder, kMetadataFile) || remote.hasFile(folder, kWritingMarker);
}

FolderContents contentsOf(const RemoteFolders& remote, const fs::path& folder,
                          bool lookIntoSubfolders, bool firstDocument) {
    FolderContents out;
    const auto listing = remote.list(folder);
    for (const FileTreeEntry& entry : listing->entries) {
        const std::string extension = fs::path(entry.name).extension().string();
        if (!entry.isDirectory) {
            out.parts += extension == ".ozdp" ? 1 : 0;
            out.documents += extension == ".ozdf" ? 1 : 0;
        } else if (lookIntoSubfolders && isDocumentFolder(remote, folder / entry.name)) {
            ++out.documents;
        }
        if (firstDocument && out.documents > 0) {
            break;
        }
    }
    return out;
}

namespace {

// A corpus sub-folder the reference skips because it has no `_metadata.ozdf`: worth a word
// when it holds OZDF files, damage when it holds part files.
void reportSkippedFolder(const fs::path& path, Reporter& reporter,
                         const RemoteFolders* remote = nullptr) {
    const std::string name = path.filename().string();
    const FolderContents contents =
        remote != nullptr ? contentsOf(*remote, path, false) : contentsOf(path, false);
    if (contents.parts > 0) {
        reporter.warningInFile(codes::kPartsWithoutMetadata,
                               "sub-folder '" + name +
                                   "': " + partsWithoutMetadataText(contents.parts) +
                                   "; the reference skips it silently, losing its parts",
                               path.string());
    } else if (contents.documents > 0) {
        reporter.warningInFile(codes::kCorpusSkipped,
                               "sub-folder '" + name + "' holds OZDF files but no " +
                                   std::string(kMetadataFile) + "; the reference skips it silently",
                               path.string());
    }
}

// .ozdp files at the top of a corpus folder belong to no document.
void reportEmptyCorpus(const fs::path& folder, Reporter& reporter) {
    reporter.infoInFile(codes::kCorpusEmpty,
                        "the corpus holds no documents (the format says a corpus holds one or "
                        "more; the reference reads it as empty)",
                        folder.string());
}

void reportLooseParts(const fs::path& folder, std::size_t parts, Reporter& reporter) {
    if (parts > 0) {
        reporter.warningInFile(codes::kPartsWithoutMetadata,
                               "the corpus folder itself holds " +
                                   counted(parts, ".ozdp part file") +
                                   ", which belong to no directory document "
                                   "(the reference ignores them)",
                               folder.string());
    }
}

struct ReadOutcome {
    Document document;
    std::exception_ptr error;
};

// A remote document: a file (the probe's source when given) or a directory document.
Document readRemoteDocument(const RemoteFolders& remote, const fs::path& path,
                            std::optional<bool> isDirectory, ByteSourcePtr opened) {
    if (!isDirectory) {
        const std::optional<FileTreeEntry> entry = remote.stat(path);
        if (!entry) {
            throw SourceError(path.string() + ": no such file or folder");
        }
        isDirectory = entry->isDirectory;
    }
    if (*isDirectory) {
        return readDirectoryDocument(path, &remote);
    }
    const Grammar grammar = path.extension() == ".ozdp" ? Grammar::DataPart : Grammar::Document;
    Document document =
        readDocumentSource(opened ? opened : remote.open(path), fileNameOf(path), grammar);
    document.path = path;
    document.remote = true;
    return document;
}

// readCorpus for a remote folder: the same decisions from the folder's listing and those of its
// sub-folders, the documents read on the same threads.
Corpus readRemoteCorpus(const RemoteFolders& remote, const fs::path& folder) {
    Corpus corpus;
    corpus.path = folder;
    corpus.remote = true;
    const auto listing = remote.list(folder);
    if (!listing->found) {
        throw SourceError(folder.string() + ": cannot list the folder: no such folder");
    }
    Reporter reporter(corpus.diagnostics);
    std::vector<std::pair<fs::path, bool>> documents;  // path, is a folder
    std::size_t looseParts = 0;
    for (const FileTreeEntry& entry : listing->entries) {
        const fs::path path = folder / entry.name;
        if (entry.name.ends_with(".ozdf") && !entry.isDirectory) {
            documents.emplace_back(path, false);
        } else if (entry.name.ends_with(".ozdp") && !entry.isDirectory) {
            ++looseParts;
        } else if (entry.isDirectory) {
            if (isDocumentFolder(remote, path)) {
                documents.emplace_back(path, true);
            } else {
                reportSkippedFolder(path, reporter, &remote);
            }
        }
    }
    reportLooseParts(folder, looseParts, reporter);
    if (documents.empty()) {
        reportEmptyCorpus(folder, reporter);
    }
    std::sort(documents.begin(), documents.end(),
              [](const auto& a, const auto& b) { return a.first.string() < b.first.string(); });
    std::vector<ReadOutcome> outcomes(documents.size());
    forEachIndex(documents.size(), kDocumentThreads, [&](std::size_t i) {
        try {
            outcomes[i].document =
                readRemoteDocument(remote, documents[i].first, documents[i].second, nullptr);
        } catch (...) {
            outcomes[i].error = std::current_exception();
        }
    });
    corpus.documents.reserve(outcomes.size());
    for (std::size_t i = 0; i < outcomes.size(); ++i) {
        try {
            if (outcomes[i].error) {
                std::rethrow_exception(outcomes[i].error);
            }
            corpus.documents.push_back(std::move(outcomes[i].document));
        } catch (const StoreError& error) {
            // Only a document gone missing since the listing is the corpus's problem.
            if (!error.missing()) {
                throw;
            }
            reporter.errorInFile(codes::kIo, error.what(), documents[i].first.string());
        }
    }
    return corpus;
}

}  // namespace

TreeReader::TreeReader(FileTreePtr tree)
    : remote_(tree && tree->remote() ? std::make_shared<const RemoteFolders>(std::move(tree))
                                     : nullptr) {}

bool TreeReader::isDirectory(const fs::path& path) const {
    if (!remote_) {
        std::error_code ec;
        return fs::is_directory(path, ec);
    }
    const std::optional<FileTreeEntry> entry = remote_->stat(path);
    return entry && entry->isDirectory;
}

bool TreeReader::opensAsDocument(const fs::path& folder) const {
    if (!remote_) {
        return ozdf::opensAsDocument(folder);
    }
    if (isDocumentFolder(*remote_, folder)) {
        return true;
    }
    const FolderContents contents = contentsOf(*remote_, folder, true, true);
    return contents.parts > 0 && contents.documents == 0;
}

Document TreeReader::readDocument(const fs::path& path, std::optional<bool> isDirectory,
                                  ByteSourcePtr opened) const {
    if (!remote_) {
        return ozdf::readDocument(path);
    }
    return readRemoteDocument(*remote_, path, isDirectory, std::move(opened));
}

Corpus TreeReader::readCorpus(const fs::path& folder) const {
    return remote_ ? readRemoteCorpus(*remote_, folder) : ozdf::readCorpus(folder);
}

bool Document::accepted() const {
    return !hasErrors(diagnostics);
}

bool Corpus::accepted() const {
    return !hasErrors(diagnostics) && std::all_of(documents.begin(), documents.end(),
                                                  [](const Document& d) { return d.accepted(); });
}

bool opensAsDocument(const fs::path& folder) {
    if (isDocumentFolder(folder)) {
        return true;
    }
    const FolderContents contents = contentsOf(folder, true, true);
    return contents.parts > 0 && contents.documents == 0;
}

std::string partFileKey(std::string_view listName) {
    std::string key = upperCase(sanitizeUtf8(listName));
    std::replace(key.begin(), key.end(), ' ', '_');
    return key;
}

namespace {

Document readOpenedFile(const OpenedFile& file, std::string filename, Grammar grammar) {
    Document document;
    document.filename = std::move(filename);
    document.path = file.kept->name();
    document.sources.push_back(file.kept);
    Reporter reporter(document.diagnostics);
    document.elements = parseElements(*file.kept, *file.bytes, grammar, false, reporter, {});
    return document;
}

}  // namespace

Document readDocumentSource(ByteSourcePtr source, std::string filename, Grammar grammar) {
    return readOpenedFile({source, source}, std::move(filename), grammar);
}

Document readDocument(const fs::path& path) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
        return readDirectoryDocument(path);
    }
    if (!fs::is_regular_file(path, ec)) {
        throw SourceError(path.string() + ": not a file or folder");
    }
    const Grammar grammar = path.extension() == ".ozdp" ? Grammar::DataPart : Grammar::Document;
    Document document = readOpenedFile(openFileSource(path), fileNameOf(path), grammar);
    document.path = path;
    return document;
}

CorpusListing listCorpus(const fs::path& folder) {
    CorpusListing listing;
    listing.path = folder;
    std::error_code ec;
    fs::directory_iterator it(folder, ec);
    if (ec) {
        throw SourceError(folder.string() + ": cannot list the folder: " + ec.message());
    }
    Reporter reporter(listing.diagnostics);
    std::size_t looseParts = 0;
    for (fs::directory_iterator end; !ec && it != end; it.increment(ec)) {
        const fs::path path = it->path();
        const std::string name = path.filename().string();
        std::error_code typeEc;
        if (name.ends_with(".ozdf") && it->is_regular_file(typeEc)) {
            listing.entries.push_back({path, false});
        } else if (name.ends_with(".ozdp") && it->is_regular_file(typeEc)) {
            ++looseParts;
        } else if (it->is_directory(typeEc)) {
            if (fs::exists(path / kMetadataFile, typeEc) ||
                fs::exists(path / kWritingMarker, typeEc)) {
                listing.entries.push_back({path, true});
            } else {
                reportSkippedFolder(path, reporter);
            }
        }
    }
    reportLooseParts(folder, looseParts, reporter);
    if (listing.entries.empty()) {
        reportEmptyCorpus(folder, reporter);
    }
    std::sort(listing.entries.begin(), listing.entries.end(),
              [](const CorpusEntry& a, const CorpusEntry& b) {
                  return a.path.native() < b.path.native();
              });
    return listing;
}

Document readCorpusEntry(const CorpusEntry& entry) {
    if (entry.isDirectory) {
        return readDirectoryDocument(entry.path);
    }
    Document document =
        readOpenedFile(openFileSource(entry.path), fileNameOf(entry.path), Grammar::Document);
    document.path = entry.path;
    return document;
}

namespace {

// Thrown inside the read of one document once the corpus read is cancelled.
struct ReadStopped {};

}  // namespace

std::optional<Corpus> readListedCorpus(const CorpusListing& listing, const CancelToken* cancel,
                                       const std::function<void(std::size_t)>& done) {
    std::vector<ReadOutcome> outcomes(listing.entries.size());
    try {
        forEachIndex(
            outcomes.size(), kDocumentThreads,
            [&](std::size_t i) {
                if (cancel != nullptr && cancel->cancelled()) {
                    throw ReadStopped{};
                }
                try {
                    outcomes[i].document = readCorpusEntry(listing.entries[i]);
                } catch (...) {
                    outcomes[i].error = std::current_exception();  // reported in order below
                }
            },
            done);
    } catch (const ReadStopped&) {
        return std::nullopt;
    }
    Corpus corpus;
    corpus.path = listing.path;
    corpus.diagnostics = listing.diagnostics;
    Reporter reporter(corpus.diagnostics);
    corpus.documents.reserve(outcomes.size());
    for (std::size_t i = 0; i < outcomes.size(); ++i) {
        try {
            if (outcomes[i].error) {
                std::rethrow_exception(outcomes[i].error);
            }
            corpus.documents.push_back(std::move(outcomes[i].document));
        } catch (const SourceError& error) {
            reporter.errorInFile(codes::kIo, error.what(), listing.entries[i].path.string());
        }
    }
    return corpus;
}

Corpus readCorpus(const fs::path& folder) {
    return *readListedCorpus(listCorpus(folder));
}

}  // namespace strata::ozdf
