#include "ozdf_parser.h"

#include <fcntl.h>
#include <fnmatch.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <exception>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <system_error>

#include "ozdf_diagnostics.h"
#include "ozdf_parallel.h"
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

constexpr std::string_view kMetadataFile = "_metadata.ozdf";
constexpr std::string_view kWritingMarker = ".ozdf_writing";
constexpr std::string_view kBackupFolder = ".ozdf_backup";

std::string partsWithoutMetadataText(std::size_t parts) {
    return "holds " + std::to_string(parts) + " .ozdp part file" + (parts == 1 ? "" : "s") +
           " but no " + std::string(kMetadataFile) +
           " (a directory document that lost its metadata file, or whose save was cut short)";
}

// Files up to this size are read into memory for their parse instead of mapped: for small files
// one read() costs less than mapping, faulting the pages in and unmapping (which interrupts
// every core).
constexpr std::uint64_t kCopyLimit = 4U << 20U;

// One physical line: [start, end) is its content, `next` where the following line starts;
// `scan` what one pass over it found.
struct Line {
    std::uint64_t start = 0;
    std::uint64_t end = 0;
    std::uint64_t next = 0;
    ScannedLine scan;
};

// A stripped content line of the element being read: [begin, end) in the file. `clean` when
// its bytes are already what the reader keeps (valid UTF-8, no whitespace run to collapse), so
// a paragraph of clean lines is copied once instead of sanitised and collapsed.
struct TextLine {
    std::uint64_t begin = 0;
    std::uint64_t end = 0;
    bool clean = true;

    bool blank() const { return begin == end; }
};

// Called for every `[[Name]]` header of a directory document, to read its parts.
using ExternalReader = std::function<void(Element&)>;

class LineParser {
public:
    LineParser(const ByteSource& source, Grammar grammar, bool directory, Reporter& reporter,
               ExternalReader externalReader)
        : source_(source),
          grammar_(grammar),
          directory_(directory),
          reporter_(reporter),
          externalReader_(std::move(externalReader)) {}

    // Reads `bytes`: the source's bytes held for the parse (a file read once, where the source
    // may read it again for every view), or the source itself. Regions point at the source.
    std::vector<Element> parse(const ByteSource& bytes) {
        const ByteView whole = bytes.view(0, bytes.size());
        bytes_ = std::string_view(reinterpret_cast<const char*>(whole.data()), whole.size());
        std::uint64_t at = 0;
        if (bytes_.starts_with("\xEF\xBB\xBF")) {
            reporter_.error(codes::kBom,
                            "the file starts with a UTF-8 byte order mark; the reference reads it "
                            "as content before the first header",
                            region(0, 3));
            at = 3;
        }
        while (at < bytes_.size()) {
            const Line line = nextLine(at);
            handleLine(line);
            at = line.next;
        }
        closeElement(bytes_.size());
        return std::move(elements_);
    }

private:
    Line nextLine(std::uint64_t at) const {
        const ScannedLine scan = scanLine(bytes_, static_cast<std::size_t>(at));
        return {at, scan.end, scan.next, scan};
    }

    Region region(std::uint64_t offset, std::uint64_t length) const {
        return {&source_, offset, length};
    }

    void checkUtf8(const Line& line) {
        if (!line.scan.invalidUtf8) {
            return;
        }
        const std::string_view raw = bytes_.substr(line.start, line.end - line.start);
        for (std::size_t at = 0; at < raw.size();) {
            const DecodedChar ch = decodeUtf8(raw, at);
            if (!ch.valid) {
                reporter_.error(codes::kUtf8,
                                "invalid UTF-8 byte 0x" + hexByte(raw[at]) +
                                    "; the reference refuses the whole file",
                                region(line.start + at, 1));
            }
            at += ch.length;
        }
    }

    static std::string hexByte(char c) {
        static constexpr char kDigits[] = "0123456789ABCDEF";
        const auto value = static_cast<unsigned char>(c);
        return {kDigits[value >> 4U], kDigits[value & 0xFU]};
    }

    void handleLine(const Line& line) {
        checkUtf8(line);
        const ScannedLine& scan = line.scan;
        const std::string_view s = bytes_.substr(scan.textBegin, scan.textEnd - scan.textBegin);
        const Region lineRegion = region(line.start, line.end - line.start);
        if (!s.empty() && (scan.textBegin != line.start || scan.textEnd != line.end)) {
            reporter_.warning(codes::kWhitespace,
                              "leading or trailing whitespace on this line is dropped when read",
                              lineRegion);
        }
        if (s.starts_with("#### ")) {
            handleHeader(line, s);
        } else if (grammar_ == Grammar::Document && (s == "====" || s.starts_with("==== "))) {
            handleItem(line, s);
        } else if (s.starts_with("###") || s.starts_with("===")) {
            handleReservedLine(line, s, lineRegion);
        } else {
            handleText(line, s, lineRegion);
        }
        prevBlank_ = s.empty();
        prevText_ = !s.empty() && !structuralLine_;
        structuralLine_ = false;
    }

    void requireBlankLine(const Line& line, bool item) {
        if (blankRequired_ && !prevBlank_) {
            reporter_.error(codes::kBlankLine,
                            item ? "a list item marker must follow a blank line"
                                 : "a header must follow a blank line",
                            region(line.start, line.end - line.start));
        }
    }

    void handleHeader(const Line& line, std::string_view s) {
        requireBlankLine(line, false);
        closeElement(line.start);
        structuralLine_ = true;
        recovering_ = false;
        const std::string_view afterMarker = s.substr(5);
        const Trimmed t = trimSpaces(afterMarker);
        const std::string header = sanitizeUtf8(afterMarker.substr(t.begin, t.end - t.begin));
        Element element;
        element.headerRegion = region(line.start, line.end - line.start);
        element.region = region(line.start, 0);
        if (grammar_ == Grammar::Document && header.size() >= 4 && header.starts_with("[[") &&
            header.ends_with("]]")) {
            element.kind = ElementKind::ExternalList;
            element.writtenName = header.substr(2, header.size() - 4);
        } else if (grammar_ == Grammar::Document && header.size() >= 2 && header.starts_with("[") &&
                   header.ends_with("]")) {
            element.kind = ElementKind::List;
            element.writtenName = header.substr(1, header.size() - 2);
        } else if (upperCase(header) == "COMMENT") {
            element.kind = ElementKind::Comment;
            element.writtenName = header;
        } else {
            element.kind = ElementKind::Block;
            element.writtenName = header;
        }
        if (element.kind != ElementKind::Comment) {
            element.name = upperCase(element.writtenName);
            checkName(element);
        }
        elements_.push_back(std::move(element));
        Element& added = elements_.back();
        switch (added.kind) {
            case ElementKind::ExternalList:
                inList_ = false;
                building_ = false;
                blankRequired_ = true;
                if (!directory_) {
                    reporter_.error(codes::kExternalInStandalone,
                                    "external list blocks [[" + added.writtenName +
                                        "]] are only allowed in directory documents",
                                    added.headerRegion);
                } else if (externalReader_) {
                    externalReader_(added);
                }
                break;
            case ElementKind::List:
                inList_ = true;
                building_ = false;
                blankRequired_ = false;
                break;
            case ElementKind::Comment:
            case ElementKind::Block:
                inList_ = false;
                building_ = true;
                blankRequired_ = true;
                break;
        }
    }

    void checkName(const Element& element) {
        const bool isList = element.kind != ElementKind::Block;
        std::set<std::string>& seen = isList ? listNames_ : blockNames_;
        if (!seen.insert(element.name).second) {
            const bool part = grammar_ == Grammar::DataPart;
            reporter_.error(isList ? codes::kDuplicateList : codes::kDuplicateBlock,
                            std::string(isList ? "list block '" : "block '") + element.writtenName +
                                "' already exists in this " + (part ? "data part" : "document") +
                                " (names compare upper-cased)",
                            element.headerRegion);
        }
        if (element.name != element.writtenName) {
            reporter_.warning(
                codes::kNameCase,
                "block name '" + element.writtenName + "' is read as '" + element.name + "'",
                element.headerRegion);
        }
        const std::string& n = element.writtenName;
        const bool oddBrackets =
            element.kind == ElementKind::List
                ? (n.starts_with("[") || n.ends_with("]"))
                : (element.kind == ElementKind::Block && (n.starts_with("[") || n.ends_with("]")));
        if (oddBrackets && grammar_ == Grammar::Document) {
            reporter_.warning(codes::kBrackets,
                              "unbalanced brackets: this header is read as a " +
                                  std::string(elementKindName(element.kind)) + " named '" +
                                  element.name + "'",
                              element.headerRegion);
        }
    }

    void handleItem(const Line& line, std::string_view s) {
        const Region lineRegion = region(line.start, line.end - line.start);
        if (!inList_) {
            reporter_.error(codes::kItemOutsideList, "list item marker outside of a list block",
                            lineRegion);
            recovering_ = true;
            return;
        }
        requireBlankLine(line, true);
        closeItem(line.start);
        structuralLine_ = true;
        recovering_ = false;
        const std::string_view afterMarker = s.size() > 5 ? s.substr(5) : std::string_view{};
        const Trimmed t = trimSpaces(afterMarker);
        Item item;
        if (t.end > t.begin) {
            item.name = sanitizeUtf8(afterMarker.substr(t.begin, t.end - t.begin));
        }
        item.markerRegion = lineRegion;
        item.region = region(line.start, 0);
        elements_.back().items.push_back(std::move(item));
        building_ = true;
        blankRequired_ = true;
    }

    void handleReservedLine(const Line& line, std::string_view s, const Region& lineRegion) {
        (void)line;
        const bool hash = s[0] == '#';
        std::string_view code = hash ? codes::kHeader : codes::kItemMarker;
        std::string message;
        if (prevText_ && building_) {
            code = codes::kReservedLine;
            message = "a text line cannot start with '###' or '==='; OZDF has no escape syntax";
        } else if (hash) {
            message = "malformed header: a header is exactly '#### ' followed by a name";
        } else if (grammar_ == Grammar::DataPart) {
            message = "list item markers are not allowed in data parts";
        } else {
            message = "malformed list item marker: a marker is exactly '====' or '==== NAME'";
        }
        reporter_.error(code, message, lineRegion);
        if (code != codes::kReservedLine) {
            // Do not blame the lines that belong to the malformed header as stray content.
            closeElement(line.start);
            recovering_ = true;
        }
    }

    void handleText(const Line& line, std::string_view s, const Region& lineRegion) {
        if (building_) {
            Element& element = elements_.back();
            if (element.kind != ElementKind::Comment && line.scan.collapsible) {
                reporter_.warning(codes::kWhitespace,
                                  "whitespace runs in this line collapse to one space when read",
                                  lineRegion);
            }
            lines_.push_back({line.scan.textBegin, line.scan.textEnd,
                              !line.scan.invalidUtf8 && !line.scan.collapsible});
            return;
        }
        if (s.empty() || recovering_) {
            return;
        }
        std::string where = "before the first header";
        if (!elements_.empty() && elements_.back().kind == ElementKind::List) {
            where = "in a list block before its first '====' item";
        } else if (!elements_.empty() && elements_.back().kind == ElementKind::ExternalList) {
            where = "after an external list header (its items live in part files)";
        }
        reporter_.error(codes::kContentBeforeHeader, "text " + where, lineRegion);
        recovering_ = true;
    }

    std::string_view lineText(const TextLine& line) const {
        return bytes_.substr(line.begin, line.end - line.begin);
    }

    // Lines [first, last) joined with one space; normalised only when a line needs it.
    std::string paragraphText(std::size_t first, std::size_t last) const {
        std::size_t total = last - first - 1;
        bool clean = true;
        for (std::size_t i = first; i < last; ++i) {
            total += lines_[i].end - lines_[i].begin;
            clean = clean && lines_[i].clean;
        }
        std::string joined;
        joined.reserve(total);
        for (std::size_t i = first; i < last; ++i) {
            if (i != first) {
                joined.push_back(' ');
            }
            if (clean) {
                joined += lineText(lines_[i]);
            } else {
                joined += sanitizeUtf8(lineText(lines_[i]));
            }
        }
        return clean ? joined : collapseSpaces(joined);
    }

    std::vector<Paragraph> paragraphs() const {
        std::vector<Paragraph> out;
        std::size_t i = 0;
        while (i < lines_.size()) {
            if (lines_[i].blank()) {
                ++i;
                continue;
            }
            const std::size_t first = i;
            while (i < lines_.size() && !lines_[i].blank()) {
                ++i;
            }
            const std::uint64_t begin = lines_[first].begin;
            out.push_back({paragraphText(first, i), region(begin, lines_[i - 1].end - begin)});
        }
        return out;
    }

    void closeItem(std::uint64_t end) {
        if (elements_.empty() || elements_.back().items.empty() || !building_) {
            lines_.clear();
            return;
        }
        Item& item = elements_.back().items.back();
        item.paragraphs = paragraphs();
        item.region.length = end - item.region.offset;
        lines_.clear();
        building_ = false;
    }

    void closeElement(std::uint64_t end) {
        if (elements_.empty()) {
            lines_.clear();
            building_ = false;
            return;
        }
        Element& element = elements_.back();
        if (element.kind == ElementKind::List) {
            closeItem(end);
        } else if (building_ && element.kind == ElementKind::Comment) {
            std::string text;
            for (std::size_t i = 0; i < lines_.size(); ++i) {
                if (i != 0) {
                    text.push_back('\n');
                }
                text += sanitizeUtf8(lineText(lines_[i]));
            }
            element.text = std::move(text);
        } else if (building_ && element.kind == ElementKind::Block) {
            element.paragraphs = paragraphs();
        }
        if (element.region.end() <= end) {
            element.region.length = end - element.region.offset;
        }
        lines_.clear();
        building_ = false;
    }

    const ByteSource& source_;
    Grammar grammar_;
    bool directory_;
    Reporter& reporter_;
    ExternalReader externalReader_;
    std::string_view bytes_;

    std::vector<Element> elements_;
    std::vector<TextLine> lines_;
    std::set<std::string> blockNames_;
    std::set<std::string> listNames_;
    bool building_ = false;       // text lines go to the last element (or its last item)
    bool inList_ = false;         // item markers are allowed
    bool blankRequired_ = false;  // the next header or marker needs a blank line before it
    bool prevBlank_ = false;
    bool prevText_ = false;
    bool structuralLine_ = false;
    bool recovering_ = false;  // after an error: stray text is not reported again
};

std::string fileNameOf(const fs::path& path) {
    fs::path clean = path.lexically_normal();
    if (!clean.has_filename() && clean.has_parent_path()) {
        clean = clean.parent_path();
    }
    return clean.filename().string();
}

// Closes a file descriptor when it goes out of scope.
struct FdCloser {
    int fd;
    ~FdCloser() { ::close(fd); }
};

// A document's file: `kept`, the source the document keeps and its regions point at, and
// `bytes`, the same bytes for the parse to read. Locally `kept` reads the file again for each
// view (no mapping, no descriptor, no copy: a corpus of a hundred thousand files held them all,
// and a thousand files of 16 MiB ran out of descriptors) and `bytes` is a copy, or for a large
// file a mapping, dropped once the file is parsed. Remotely both are the tree's source.
struct OpenedFile {
    ByteSourcePtr kept;
    ByteSourcePtr bytes;
};

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

// A part file name KEY-<digits>.ozdp: the index, whether it used non-ASCII digits.
struct PartName {
    bool matches = false;
    std::uint64_t index = 0;
    bool unicodeDigits = false;
};

PartName parsePartName(std::string_view name, std::string_view key) {
    PartName out;
    const std::string prefix = std::string(key) + "-";
    if (!name.starts_with(prefix) || !name.ends_with(".ozdp") || name.size() <= prefix.size() + 5) {
        return out;
    }
    const std::string_view digits = name.substr(prefix.size(), name.size() - prefix.size() - 5);
    std::uint64_t value = 0;
    for (std::size_t at = 0; at < digits.size();) {
        const DecodedChar ch = decodeUtf8(digits, at);
        const int digit = ch.valid ? decimalDigitValue(ch.codePoint) : -1;
        if (digit < 0) {
            return out;
        }
        out.unicodeDigits = out.unicodeDigits || ch.codePoint >= 0x80;
        const std::uint64_t limit = (UINT64_MAX - static_cast<std::uint64_t>(digit)) / 10;
        value = value > limit ? UINT64_MAX : value * 10 + static_cast<std::uint64_t>(digit);
        at += ch.length;
    }
    out.matches = true;
    out.index = value;
    return out;
}

}  // namespace

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
    std::shared_ptr<const Listing> list(const fs::path& folder) const {
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

    bool hasFile(const fs::path& folder, std::string_view name) const {
        return hasFile(*list(folder), name);
    }

    ByteSourcePtr open(const fs::path& file) const {
        return tree_->open(Location::parse(file.string()));
    }
    std::optional<FileTreeEntry> stat(const fs::path& path) const {
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

namespace {

// What a folder that is not a directory document holds: .ozdp parts, .ozdf files, and
// sub-folders that are directory documents.
struct FolderContents {
    std::size_t parts = 0;
    std::size_t documents = 0;
};

bool isDocumentFolder(const fs::path& folder) {
    std::error_code ec;
    return fs::is_regular_file(folder / kMetadataFile, ec) ||
           fs::is_regular_file(folder / kWritingMarker, ec);
}

// `firstDocument`: stop at the first document found (all a caller asking "any documents?"
// needs, without looking into every sub-folder of a large corpus).
FolderContents contentsOf(const fs::path& folder, bool lookIntoSubfolders,
                          bool firstDocument = false) {
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

// contentsOf from the folder's listing (and its sub-folders' listings).
FolderContents contentsOf(const RemoteFolders& remote, const fs::path& folder,
                          bool lookIntoSubfolders, bool firstDocument = false) {
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

// Opens a file of a document: a null `kept` (the problem reported) when it cannot be. Remotely
// only a missing file is reported; any other error propagates.
OpenedFile openOrReport(const RemoteFolders* remote, const fs::path& path, Reporter& reporter) {
    try {
        if (remote != nullptr) {
            ByteSourcePtr source = remote->open(path);
            return {source, source};
        }
        return openFileSource(path);
    } catch (const StoreError& error) {
        if (!error.missing()) {
            throw;
        }
        reporter.errorInFile(codes::kIo, error.what(), path.string());
    } catch (const SourceError& error) {
        if (remote != nullptr) {
            throw;
        }
        reporter.errorInFile(codes::kIo, error.what(), path.string());
    }
    return {};
}

class DirectoryReader {
public:
    DirectoryReader(Document& document, Reporter& reporter, const RemoteFolders* remote)
        : document_(document), reporter_(reporter), remote_(remote) {}

    void read() {
        const fs::path& folder = document_.path;
        listFolder(folder);
        if (hasEntry(kWritingMarker)) {
            reporter_.errorInFile(codes::kWritingMarker,
                                  "the folder holds the " + std::string(kWritingMarker) +
                                      " marker of an interrupted save; the reference refuses it",
                                  (folder / kWritingMarker).string());
        }
        const fs::path metadata = folder / kMetadataFile;
        if (remote_ != nullptr ? !hasRegularEntry(kMetadataFile) : !fs::is_regular_file(metadata)) {
            reportNoMetadata(metadata);
            return;
        }
        const OpenedFile file = openOrReport(remote_, metadata, reporter_);
        if (!file.kept) {
            return;
        }
        document_.sources.push_back(file.kept);
        LineParser parser(*file.kept, Grammar::Document, true, reporter_,
                          [this](Element& element) { readParts(element); });
        document_.elements = parser.parse(*file.bytes);
        reportIgnoredParts();
        reportNestedDocuments();
    }

private:
    // Part files without the metadata that names their lists: a directory document that lost
    // `_metadata.ozdf`, or whose save was cut short before writing it.
    void reportNoMetadata(const fs::path& metadata) {
        const std::size_t parts = static_cast<std::size_t>(std::count_if(
            entries_.begin(), entries_.end(),
            [](const auto& entry) { return entry.second && entry.first.ends_with(".ozdp"); }));
        if (parts == 0) {
            reporter_.errorInFile(
                codes::kNoMetadata,
                "a directory document needs a " + std::string(kMetadataFile) + " file",
                metadata.string());
            return;
        }
        reporter_.errorInFile(
            codes::kPartsWithoutMetadata,
            partsWithoutMetadataText(parts) + ": the reference refuses to open it as a document",
            document_.path.string());
    }

    void listFolder(const fs::path& folder) {
        if (remote_ != nullptr) {
            const auto listing = remote_->list(folder);
            if (!listing->found) {
                reporter_.errorInFile(codes::kIo, "cannot list the folder: no such folder",
                                      folder.string());
            }
            for (const FileTreeEntry& entry : listing->entries) {
                entries_.push_back({entry.name, !entry.isDirectory});
                if (entry.isDirectory) {
                    subfolders_.push_back(entry.name);
                }
            }
            std::sort(entries_.begin(), entries_.end());
            return;
        }
        std::error_code ec;
        for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
            std::error_code typeEc;
            entries_.push_back({it->path().filename().string(), it->is_regular_file(typeEc)});
            if (it->is_directory(typeEc) && !it->is_symlink(typeEc)) {
                subfolders_.push_back(it->path().filename().string());
            }
        }
        if (ec) {
            reporter_.errorInFile(codes::kIo, "cannot list the folder: " + ec.message(),
                                  folder.string());
        }
        std::sort(entries_.begin(), entries_.end());
    }

    bool hasEntry(std::string_view name) const {
        return std::any_of(entries_.begin(), entries_.end(),
                           [&](const auto& entry) { return entry.first == name; });
    }

    bool hasRegularEntry(std::string_view name) const {
        return std::any_of(entries_.begin(), entries_.end(),
                           [&](const auto& entry) { return entry.second && entry.first == name; });
    }

    struct Candidate {
        std::string name;
        PartName parsed;
    };

    void readParts(Element& element) {
        const std::string key = partFileKey(element.writtenName);
        const std::string pattern = key + "-*.ozdp";
        // The reference globs KEY-*.ozdp. Without glob characters in the key that is the
        // entries from KEY- on while they start with it (they are sorted), not every entry of a
        // folder of a hundred thousand parts for each list.
        // (A NUL ends the pattern fnmatch sees: that too is left to it.)
        const bool glob = key.find_first_of(std::string_view("*?[\\\0", 5)) != std::string::npos;
        const std::string prefix = key + "-";
        auto from = entries_.begin();
        if (!glob) {
            from = std::lower_bound(
                entries_.begin(), entries_.end(), prefix,
                [](const auto& entry, const std::string& p) { return entry.first < p; });
        }
        std::vector<Candidate> parts;
        for (auto it = from; it != entries_.end(); ++it) {
            const auto& [name, regular] = *it;
            if (!glob && !name.starts_with(prefix)) {
                break;
            }
            const bool matches =
                glob ? fnmatch(pattern.c_str(), name.c_str(), FNM_NOESCAPE | FNM_PERIOD) == 0
                     : name.ends_with(".ozdp") && name.size() >= prefix.size() + 5;
            if (!regular || !matches) {
                continue;
            }
            claimed_.insert(name);
            const PartName parsed = parsePartName(name, key);
            const std::string file = (document_.path / name).string();
            if (!parsed.matches) {
                reporter_.errorInFile(codes::kPartName,
                                      "part file name '" + name + "' does not have the form " +
                                          key + "-<digits>.ozdp",
                                      file);
                continue;
            }
            if (parsed.unicodeDigits) {
                reporter_.warningInFile(codes::kPartUnicodeDigits,
                                        "part number of '" + name +
                                            "' uses non-ASCII digits (the reference accepts them)",
                                        file);
            }
            parts.push_back({name, parsed});
        }
        std::stable_sort(parts.begin(), parts.end(), [](const Candidate& a, const Candidate& b) {
            return a.parsed.index < b.parsed.index;
        });
        if (parts.empty()) {
            reporter_.info(codes::kPartMissing,
                           "external list [[" + element.writtenName + "]] has no " + key +
                               "-NN.ozdp part files: it is read as an empty list",
                           element.headerRegion);
        }
        checkNumbering(parts, key);
        for (const Candidate& part : parts) {
            element.items.push_back(readPart(part));
        }
    }

    void checkNumbering(const std::vector<Candidate>& parts, const std::string& key) {
        std::uint64_t expected = 1;
        for (std::size_t i = 0; i < parts.size(); ++i) {
            const std::uint64_t index = parts[i].parsed.index;
            const std::string file = (document_.path / parts[i].name).string();
            if (i > 0 && index == parts[i - 1].parsed.index) {
                reporter_.errorInFile(codes::kPartDuplicate,
                                      "part '" + parts[i].name + "' repeats number " +
                                          std::to_string(index) + " of '" + parts[i - 1].name + "'",
                                      file);
                continue;
            }
            if (index != expected) {
                const bool start = i == 0;
                reporter_.errorInFile(start ? codes::kPartStart : codes::kPartGap,
                                      start ? "the parts of " + key + " start at " +
                                                  std::to_string(index) + " instead of 1"
                                            : "part " + std::to_string(expected) + " of " + key +
                                                  " is missing (next is '" + parts[i].name + "')",
                                      file);
            }
            expected = index == UINT64_MAX ? index : index + 1;
        }
    }

    Item readPart(const Candidate& part) {
        Item item;
        item.partFile = part.name;
        item.partIndex = part.parsed.index;
        const fs::path path = document_.path / part.name;
        const OpenedFile file = openOrReport(remote_, path, reporter_);
        if (!file.kept) {
            return item;
        }
        document_.sources.push_back(file.kept);
        item.partRegion = {file.kept.get(), 0, file.kept->size()};
        LineParser parser(*file.kept, Grammar::DataPart, false, reporter_, {});
        std::vector<Element> blocks = parser.parse(*file.bytes);
        bool hasData = false;
        for (Element& block : blocks) {
            if (block.kind != ElementKind::Block) {
                continue;
            }
            if (block.name == "DATA" && !hasData) {
                hasData = true;
                item.paragraphs = std::move(block.paragraphs);
                item.region = block.region;
                item.markerRegion = block.headerRegion;
            } else if (block.name == "NAME" && !item.name) {
                item.name = joinParagraphs(block.paragraphs);
            } else if (block.name != "DATA" && block.name != "NAME") {
                reporter_.info(codes::kPartExtraBlock,
                               "block '" + block.name + "' of a data part is ignored",
                               block.headerRegion);
            }
        }
        if (!hasData) {
            reporter_.error(codes::kPartNoData, "data part '" + part.name + "' has no DATA block",
                            item.partRegion);
            item.region = item.partRegion;
        }
        return item;
    }

    static std::string joinParagraphs(const std::vector<Paragraph>& paragraphs) {
        std::string out;
        for (std::size_t i = 0; i < paragraphs.size(); ++i) {
            if (i != 0) {
                out += "\n\n";
            }
            out += paragraphs[i].text;
        }
        return out;
    }

    void reportIgnoredParts() {
        for (const auto& [name, regular] : entries_) {
            if (regular && name.ends_with(".ozdp") && !claimed_.contains(name)) {
                reporter_.infoInFile(codes::kPartIgnored,
                                     "'" + name + "' belongs to no external list and is ignored",
                                     (document_.path / name).string());
            }
        }
    }

    // Documents cannot hold documents: the reference reads none of a sub-folder's files.
    void reportNestedDocuments() {
        std::sort(subfolders_.begin(), subfolders_.end());
        for (const std::string& name : subfolders_) {
            if (name == kBackupFolder) {
                continue;  // the reference's own save backup
            }
            const fs::path path = document_.path / name;
            const FolderContents contents =
                remote_ != nullptr ? contentsOf(*remote_, path, false) : contentsOf(path, false);
            const bool document =
                remote_ != nullptr ? isDocumentFolder(*remote_, path) : isDocumentFolder(path);
            if (document || contents.parts > 0 || contents.documents > 0) {
                reporter_.warningInFile(codes::kNestedDocument,
                                        "sub-folder '" + name +
                                            "' holds OZDF files, but a document cannot hold "
                                            "documents: the reference reads none of them",
                                        path.string());
            }
        }
    }

    Document& document_;
    Reporter& reporter_;
    std::vector<std::pair<std::string, bool>> entries_;  // name, is a regular file
    std::vector<std::string> subfolders_;
    std::set<std::string> claimed_;
    const RemoteFolders* remote_;  // null: the local file system
};

Document readDirectoryDocument(const fs::path& folder, const RemoteFolders* remote = nullptr) {
    Document document;
    document.filename = fileNameOf(folder);
    document.isDirectory = true;
    document.path = folder;
    document.remote = remote != nullptr;
    Reporter reporter(document.diagnostics);
    DirectoryReader(document, reporter, remote).read();
    return document;
}

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
                               "the corpus folder itself holds " + std::to_string(parts) +
                                   " .ozdp part file(s), which belong to no directory document "
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
    LineParser parser(*file.kept, grammar, false, reporter, {});
    document.elements = parser.parse(*file.bytes);
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
