#include "format_handler.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "directory_listing.h"

namespace strata {

namespace fs = std::filesystem;

std::ostream& operator<<(std::ostream& out, const FormatId& id) {
    return out << id.name();
}

std::unique_ptr<Differ> FormatHandler::makeDiffer(const OpenedDocument&,
                                                  const OpenedDocument&) const {
    throw DiffError("comparing " + std::string(formatName(id())) + " files is not supported yet");
}

RepairReport FormatHandler::repair(const fs::path&, const fs::path&, const RepairOptions&) const {
    throw RepairError("repairing " + std::string(formatName(id())) + " is not supported yet");
}

std::string displayName(const Detection& detection) {
    std::string name(formatName(detection.format));
    if (detection.description.empty() || detection.description == name ||
        detection.description == name + " file") {
        return name;
    }
    return name + " (" + detection.description + ")";
}

namespace {

// Reads up to out.size() bytes at `offset`, retrying short reads; returns how many were read.
std::size_t readAt(int fd, std::uint64_t offset, std::span<std::uint8_t> out) {
    std::size_t done = 0;
    while (done < out.size()) {
        const ssize_t n =
            ::pread(fd, out.data() + done, out.size() - done, static_cast<off_t>(offset + done));
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            break;
        }
        done += static_cast<std::size_t>(n);
    }
    return done;
}

void readHeadAndTail(ProbeInput& input) {
    const int fd = ::open(input.path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        throw SourceError(input.path.string() + ": cannot open: " + std::strerror(errno));
    }
    const std::uint64_t headSize = std::min<std::uint64_t>(input.fileSize, ProbeInput::kHeadSize);
    input.head.resize(static_cast<std::size_t>(headSize));
    input.head.resize(readAt(fd, 0, input.head));
    const std::uint64_t tailSize = std::min<std::uint64_t>(input.fileSize, ProbeInput::kTailSize);
    input.tail.resize(static_cast<std::size_t>(tailSize));
    input.tail.resize(readAt(fd, input.fileSize - tailSize, input.tail));
    ::close(fd);
}

}  // namespace

ProbeInput ProbeInput::fromPath(const fs::path& path) {
    ProbeInput input;
    input.path = path;
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (ec || !fs::exists(status)) {
        const std::string reason = ec ? ec.message() : "No such file or directory";
        throw SourceError(path.string() + ": cannot access: " + reason);
    }
    input.extension = lowerExtension(path);
    if (fs::is_directory(status)) {
        input.isDirectory = true;
        DirectoryListing listing = listDirectory(path, kMaxEntries);
        if (listing.failed) {
            throw SourceError(path.string() + ": cannot list the folder");
        }
        input.entries = std::move(listing.entries);
        input.entriesTruncated = listing.truncated;
        return input;
    }
    if (!fs::is_regular_file(status)) {
        throw SourceError(path.string() + ": not a regular file or folder");
    }
    input.fileSize = fs::file_size(path, ec);
    if (ec) {
        throw SourceError(path.string() + ": cannot read the size: " + ec.message());
    }
    readHeadAndTail(input);
    return input;
}

ProbeInput ProbeInput::fromSource(const ByteSourcePtr& source) {
    ProbeInput input;
    input.path = source->name();
    input.extension = lowerExtension(input.path);
    input.fileSize = source->size();
    const ByteView head = source->view(0, kHeadSize);
    input.head.assign(head.bytes.begin(), head.bytes.end());
    const std::uint64_t tailSize = std::min<std::uint64_t>(input.fileSize, kTailSize);
    const ByteView tail = source->view(input.fileSize - tailSize, tailSize);
    input.tail.assign(tail.bytes.begin(), tail.bytes.end());
    return input;
}

std::unique_ptr<OpenedDocument> FormatHandler::openSource(const ByteSourcePtr& source,
                                                          const Detection& detection) const {
    throw SourceError(source->name() + ": " + displayName(detection) +
                      " cannot be opened from a URL: it is read together with the files beside "
                      "it; open its folder's URL, or download it and open the local copy");
}

std::unique_ptr<OpenedDocument> FormatHandler::openTree(const ProbeInput& input,
                                                        const Detection& detection) const {
    if (input.source) {
        return openSource(input.source, detection);
    }
    throw SourceError(input.path.string() + ": " + displayName(detection) +
                      " cannot be opened from a URL; download it and open the local copy");
}

namespace {

void fillHeadAndTail(ProbeInput& input, const ByteSourcePtr& source) {
    input.fileSize = source->size();
    const std::uint64_t headSize = std::min<std::uint64_t>(input.fileSize, ProbeInput::kHeadSize);
    const ByteView head = source->view(0, headSize);
    input.head.assign(head.bytes.begin(), head.bytes.end());
    const std::uint64_t tailSize = std::min<std::uint64_t>(input.fileSize, ProbeInput::kTailSize);
    const ByteView tail = source->view(input.fileSize - tailSize, tailSize);
    input.tail.assign(tail.bytes.begin(), tail.bytes.end());
}

Location remoteLocation(const fs::path& path) {
    return Location::parse(path.string());
}

}  // namespace

ProbeInput ProbeInput::fromTree(const FileTreePtr& tree, const Location& location) {
    if (!tree->remote()) {
        return fromPath(location.localPath());
    }
    ProbeInput input;
    input.tree = tree;
    input.path = location.text();
    input.extension = lowerExtension(input.path);
    FileOrFolder found = tree->openOrList(location, kMaxEntries);
    if (found.file) {
        input.source = std::move(found.file);
        fillHeadAndTail(input, input.source);
        return input;
    }
    input.isDirectory = true;
    for (const FileTreeEntry& e : found.entries) {
        input.entries.push_back({e.name, e.isDirectory, !e.isDirectory});
    }
    input.entriesTruncated = found.truncated;
    return input;
}

DirectoryListing ProbeInput::listAt(const fs::path& folder, std::size_t limit) const {
    if (!tree) {
        return listDirectory(folder, limit);
    }
    DirectoryListing listing;
    try {
        for (const FileTreeEntry& e :
             tree->list(remoteLocation(folder), limit, &listing.truncated)) {
            listing.entries.push_back({e.name, e.isDirectory, !e.isDirectory});
        }
    } catch (const std::exception&) {
        listing.failed = true;
    }
    return listing;
}

std::string ProbeInput::readHeadAt(const fs::path& file, std::size_t limit) const {
    if (!tree) {
        return readFileHead(file, limit);
    }
    try {
        const ByteSourcePtr opened = tree->open(remoteLocation(file));
        const ByteView start = opened->view(0, std::min<std::uint64_t>(opened->size(), limit));
        return {reinterpret_cast<const char*>(start.bytes.data()), start.bytes.size()};
    } catch (const std::exception&) {
        return {};
    }
}

bool ProbeInput::isDirectoryAt(const fs::path& location) const {
    if (!tree) {
        return strata::isDirectory(location);
    }
    try {
        const std::optional<FileTreeEntry> entry = tree->stat(remoteLocation(location));
        return entry && entry->isDirectory;
    } catch (const std::exception&) {
        return false;
    }
}

bool ProbeInput::isFileAt(const fs::path& location) const {
    if (!tree) {
        return isRegularFile(location);
    }
    try {
        const std::optional<FileTreeEntry> entry = tree->stat(remoteLocation(location));
        return entry && !entry->isDirectory;
    } catch (const std::exception&) {
        return false;
    }
}

bool ProbeInput::headStartsWith(std::string_view magic) const {
    return head.size() >= magic.size() &&
           std::equal(magic.begin(), magic.end(), head.begin(),
                      [](char a, std::uint8_t b) { return static_cast<std::uint8_t>(a) == b; });
}

bool ProbeInput::tailEndsWith(std::string_view magic) const {
    return tail.size() >= magic.size() &&
           std::equal(magic.begin(), magic.end(), tail.end() - static_cast<long>(magic.size()),
                      [](char a, std::uint8_t b) { return static_cast<std::uint8_t>(a) == b; });
}

std::string_view ProbeInput::headText() const {
    return {reinterpret_cast<const char*>(head.data()), head.size()};
}

const ProbeEntry* ProbeInput::entry(std::string_view name) const {
    const auto it = std::lower_bound(
        entries.begin(), entries.end(), name,
        [](const ProbeEntry& e, std::string_view n) { return std::string_view(e.name) < n; });
    return it != entries.end() && it->name == name ? &*it : nullptr;
}

// A name missing from a truncated listing may still exist: ask the file system.
bool ProbeInput::hasDirectory(std::string_view name) const {
    if (const ProbeEntry* e = entry(name)) {
        return e->isDirectory;
    }
    return entriesTruncated && isDirectoryAt(path / name);
}

bool ProbeInput::hasFile(std::string_view name) const {
    if (const ProbeEntry* e = entry(name)) {
        return e->isRegularFile;
    }
    return entriesTruncated && isFileAt(path / name);
}

}  // namespace strata
