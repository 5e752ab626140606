#include "ozdf_repair.h"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "formats/common/byte_source.h"
#include "formats/common/diagnostic.h"
#include "ozdf_diagnostics.h"
#include "ozdf_diff.h"
#include "ozdf_edit.h"
#include "ozdf_parser.h"
#include "ozdf_save.h"
#include "ozdf_text.h"
#include "ozdf_validator.h"
#include "ozdf_writer.h"

namespace strata {

namespace fs = std::filesystem;

namespace {

using ozdf::Document;
using ozdf::Element;
using ozdf::ElementKind;
using ozdf::Grammar;
using ozdf::Item;

constexpr std::string_view kMetadataFile = "_metadata.ozdf";
constexpr std::string_view kWritingMarker = ".ozdf_writing";
// Mended lines and renumbered parts listed one by one per file or list; the rest are counted.
constexpr std::size_t kListed = 20;

std::string bytesText(std::uint64_t offset, std::uint64_t length) {
    return "bytes " + std::to_string(offset) + " to " + std::to_string(offset + length);
}

// A piece of text for a message: control bytes as '?', invalid UTF-8 as U+FFFD, cut after 60
// bytes.
std::string shown(std::string_view text) {
    std::string out = ozdf::sanitizeUtf8(text.substr(0, 60));
    std::replace_if(
        out.begin(), out.end(), [](char ch) { return static_cast<unsigned char>(ch) < 0x20; }, '?');
    return out + (text.size() > 60 ? "..." : "");
}

RepairStep fileStep(std::string description, const fs::path& file, std::uint64_t offset = 0,
                    std::uint64_t length = 0) {
    RepairStep step;
    step.description = std::move(description);
    step.bytes = {file.string(), offset, length};
    return step;
}

// The 1-based line of an offset ("\n", "\r\n" and a lone "\r" end a line), for offsets asked
// in increasing order (as diagnostics and mends come), so a large file is scanned once.
class LineCounter {
public:
    explicit LineCounter(std::string_view bytes) : bytes_(bytes) {}

    std::uint64_t at(std::uint64_t offset) {
        const std::size_t end =
            static_cast<std::size_t>(std::min<std::uint64_t>(offset, bytes_.size()));
        if (end < pos_) {
            pos_ = 0;
            line_ = 1;
        }
        for (; pos_ < end; ++pos_) {
            const char c = bytes_[pos_];
            if (c == '\n' ||
                (c == '\r' && (pos_ + 1 >= bytes_.size() || bytes_[pos_ + 1] != '\n'))) {
                ++line_;
            }
        }
        return line_;
    }

private:
    std::string_view bytes_;
    std::size_t pos_ = 0;
    std::uint64_t line_ = 1;
};

// Offsets of the mended text mapped back to the input's: a mend that inserts a byte shifts what
// follows.
class OffsetMap {
public:
    // `count` bytes were inserted just before mended offset `at`.
    void inserted(std::uint64_t at, std::uint64_t count) {
        total_ += count;
        shifts_.emplace_back(at, total_);
    }
    std::uint64_t original(std::uint64_t mended) const {
        const auto it =
            std::upper_bound(shifts_.begin(), shifts_.end(), mended,
                             [](std::uint64_t v, const auto& s) { return v < s.first; });
        const std::uint64_t shift = it == shifts_.begin() ? 0 : std::prev(it)->second;
        return mended >= shift ? mended - shift : 0;
    }

private:
    std::vector<std::pair<std::uint64_t, std::uint64_t>> shifts_;
    std::uint64_t total_ = 0;
};

// One file of the input as read after the mends of its text.
struct FileRead {
    ByteSourcePtr source;  // the input's bytes
    std::vector<Element> elements;
    std::vector<RepairStep> fixes;
    // Set when an error no mend removes remains: what it is and where (in the input's bytes).
    std::optional<std::string> problem;
};

// The header and item marker spacing mends and the byte order mark: the mended text, or nothing
// when no line needs one. `name` prefixes the descriptions.
std::optional<std::string> mendText(std::string_view bytes, Grammar grammar,
                                    const ByteSource& source, const std::string& name,
                                    std::vector<RepairStep>& fixes, OffsetMap& map) {
    std::string out;
    std::size_t copied = 0;
    std::size_t at = 0;
    std::size_t mended = 0;
    LineCounter lines(bytes);
    if (bytes.starts_with("\xEF\xBB\xBF")) {
        out += "   ";  // stripped like any leading whitespace: offsets are kept
        copied = at = 3;
        fixes.emplace_back(name + ": the UTF-8 byte order mark at the start dropped",
                           Region{&source, 0, 3});
    }
    while (at < bytes.size()) {
        const ozdf::ScannedLine line = ozdf::scanLine(bytes, at);
        const std::string_view s = bytes.substr(line.textBegin, line.textEnd - line.textBegin);
        const bool header = s.starts_with("####");
        const bool marker = grammar == Grammar::Document && s.starts_with("====");
        if ((header || marker) && s.size() > 4 && s[4] != ' ' && s[4] != s[0]) {
            const std::string_view rest = s.substr(4);
            std::size_t spaces = 0;
            while (spaces < rest.size()) {
                const ozdf::DecodedChar ch = ozdf::decodeUtf8(rest, spaces);
                if (!ch.valid || !ozdf::isOzdfSpace(ch.codePoint)) {
                    break;
                }
                spaces += ch.length;
            }
            const ozdf::Trimmed t = ozdf::trimSpaces(rest.substr(spaces));
            if (t.end > t.begin) {
                const std::size_t fixAt = line.textBegin + 4;
                out.append(bytes.substr(copied, fixAt - copied));
                if (spaces > 0) {
                    out.append(spaces, ' ');
                    copied = fixAt + spaces;
                } else {
                    out.push_back(' ');
                    map.inserted(out.size(), 1);
                    copied = fixAt;
                }
                if (++mended <= kListed) {
                    fixes.emplace_back(name + ": line " + std::to_string(lines.at(at)) + ": the " +
                                           (header ? "header '" : "item marker '") + shown(s) +
                                           "' given the single space after '" +
                                           std::string(s.substr(0, 4)) + "'",
                                       Region{&source, at, line.end - at});
                }
            }
        }
        at = line.next;
    }
    if (mended > kListed) {
        fixes.emplace_back(name + ": " + std::to_string(mended - kListed) +
                               " more headers or item markers given their space",
                           Region{});
    }
    if (copied == 0) {
        return std::nullopt;
    }
    out.append(bytes.substr(copied));
    return out;
}

// Reads one file, mending what can be mended; `metadata`: `_metadata.ozdf` (external lists
// allowed, their parts read by the caller).
FileRead readFile(const fs::path& path, Grammar grammar, bool metadata, const std::string& name) {
    FileRead r;
    r.source = openMappedFile(path);
    const ByteView view = r.source->view(0, r.source->size());
    const std::string_view bytes(reinterpret_cast<const char*>(view.data()), view.size());
    OffsetMap map;
    const std::optional<std::string> mended =
        mendText(bytes, grammar, *r.source, name, r.fixes, map);
    const ByteSourcePtr parsed = mended ? makeBufferSource(*mended, path.string()) : r.source;
    Document read = ozdf::readDocumentSource(parsed, path.filename().string(), grammar);
    std::size_t blankLines = 0;
    bool uncounted = false;
    LineCounter lines(bytes);
    for (const Diagnostic& d : read.diagnostics) {
        if (d.severity != Severity::Error) {
            continue;
        }
        const bool located = !d.regions.empty() && d.regions[0].valid();
        const std::uint64_t offset = located ? map.original(d.regions[0].offset) : 0;
        const std::uint64_t length = located ? d.regions[0].length : 0;
        if (d.code == ozdf::codes::kBlankLine) {
            if (++blankLines <= kListed) {
                r.fixes.emplace_back(name + ": line " + std::to_string(lines.at(offset)) + ": " +
                                         d.message + ": the blank line added" +
                                         (d.message.starts_with("a header")
                                              ? " (a line starting with '#### ' is a header: "
                                                "it cannot be text)"
                                              : ""),
                                     Region{r.source.get(), offset, length});
            }
            continue;
        }
        if (d.code == ozdf::codes::kTruncated &&
            d.message.starts_with("more " + std::string(ozdf::codes::kBlankLine))) {
            uncounted = true;  // the reader stops listing them
            continue;
        }
        if (metadata && d.code == ozdf::codes::kExternalInStandalone) {
            continue;
        }
        r.problem = (located ? "line " + std::to_string(lines.at(offset)) + " (" +
                                   bytesText(offset, length) + "): "
                             : std::string()) +
                    d.code + ": " + d.message;
        break;
    }
    if (blankLines > kListed) {
        r.fixes.emplace_back(name + ": " + std::to_string(blankLines - kListed) +
                                 (uncounted ? " more missing blank lines added, and others not "
                                              "counted"
                                            : " more missing blank lines added"),
                             Region{});
    }
    r.elements = std::move(read.elements);
    for (Element& e : r.elements) {  // the regions point into `parsed`, which goes now
        e.region = e.headerRegion = Region{};
        for (ozdf::Paragraph& p : e.paragraphs) {
            p.region = Region{};
        }
        for (Item& item : e.items) {
            item.region = item.markerRegion = item.partRegion = Region{};
            for (ozdf::Paragraph& p : item.paragraphs) {
                p.region = Region{};
            }
        }
    }
    return r;
}

// A part file name KEY-<digits>.ozdp (any decimal digits, as the reference's \d): its number.
std::optional<std::uint64_t> partNumber(std::string_view name, std::string_view key,
                                        bool& unicodeDigits) {
    const std::string prefix = std::string(key) + "-";
    if (!name.starts_with(prefix) || !name.ends_with(".ozdp") || name.size() <= prefix.size() + 5) {
        return std::nullopt;
    }
    const std::string_view digits = name.substr(prefix.size(), name.size() - prefix.size() - 5);
    std::uint64_t value = 0;
    unicodeDigits = false;
    for (std::size_t at = 0; at < digits.size();) {
        const ozdf::DecodedChar ch = ozdf::decodeUtf8(digits, at);
        const int digit = ch.valid ? ozdf::decimalDigitValue(ch.codePoint) : -1;
        if (digit < 0) {
            return std::nullopt;
        }
        unicodeDigits = unicodeDigits || ch.codePoint >= 0x80;
        const std::uint64_t limit = (UINT64_MAX - static_cast<std::uint64_t>(digit)) / 10;
        value = value > limit ? UINT64_MAX : value * 10 + static_cast<std::uint64_t>(digit);
        at += ch.length;
    }
    return value;
}

// The key of a part file name KEY-<digits>.ozdp, or "".
std::string keyOfPartName(std::string_view name) {
    const std::size_t dash = name.rfind('-');
    if (dash == std::string_view::npos || dash == 0) {
        return {};
    }
    const std::string key(name.substr(0, dash));
    bool unicode = false;
    return partNumber(name, key, unicode) ? key : std::string();
}

// A file or folder of the input copied with its bytes into the quarantine folder.
struct Quarantined {
    fs::path source;
    fs::path relative;
};

// Whether what was read back is what was planned (comments compared without trailing blank
// lines, which the writer adds where a header must follow).
bool sameContent(const std::vector<Element>& a, const std::vector<Element>& b) {
    const auto paragraphs = [](const std::vector<ozdf::Paragraph>& x,
                               const std::vector<ozdf::Paragraph>& y) {
        return std::equal(x.begin(), x.end(), y.begin(), y.end(),
                          [](const auto& p, const auto& q) { return p.text == q.text; });
    };
    const auto comment = [](std::string_view text) {
        const ozdf::Trimmed t = ozdf::trimSpaces(text);
        return text.substr(0, t.end);
    };
    return std::equal(
        a.begin(), a.end(), b.begin(), b.end(), [&](const Element& x, const Element& y) {
            if (x.kind != y.kind || x.name != y.name) {
                return false;
            }
            if (x.kind == ElementKind::Comment) {
                return comment(x.text) == comment(y.text);
            }
            return paragraphs(x.paragraphs, y.paragraphs) &&
                   std::equal(x.items.begin(), x.items.end(), y.items.begin(), y.items.end(),
                              [&](const Item& i, const Item& j) {
                                  return i.name == j.name && paragraphs(i.paragraphs, j.paragraphs);
                              });
        });
}

enum class InputKind { Standalone, Directory, Corpus };

class Planner {
public:
    Planner(const fs::path& quarantinePath, RepairReport& report)
        : quarantinePath_(quarantinePath), report_(report) {}

    std::vector<Quarantined>& quarantine() { return quarantine_; }
    // Why the first document lost was lost (without where it would be quarantined).
    const std::string& firstLoss() const { return firstLoss_; }
    // Documents written with other bytes than the input's (the canonical layout).
    std::size_t rewritten() const { return rewritten_; }

    // A standalone document read from `file`, written as `filename`; quarantined as `relative`.
    std::optional<Document> standalone(const fs::path& file, const std::string& filename,
                                       const fs::path& relative) {
        const std::string name = relative.string();
        FileRead read;
        try {
            read = readFile(file, Grammar::Document, false, name);
        } catch (const SourceError& e) {
            return lose(file, relative, "document '" + name + "' cannot be read: " + e.what(),
                        false);
        }
        if (read.problem) {
            return lose(file, relative,
                        "document '" + name + "' cannot be parsed: " + *read.problem, true,
                        read.source->size());
        }
        takeFixes(read);
        Document document;
        document.filename = filename;
        document.elements = std::move(read.elements);
        return writable(std::move(document), file, name, relative, read.source->size());
    }

    // A directory document read from `folder`, written as `filename`; its files quarantined
    // under `relative`.
    // `name` is how messages call it.
    std::optional<Document> directory(const fs::path& folder, const std::string& filename,
                                      const std::string& name, const fs::path& relative) {
        Listing listing = list(folder);
        if (listing.has(kWritingMarker)) {
            report_.actions.push_back(fileStep(
                "directory document '" + name + "': the " + std::string(kWritingMarker) +
                    " marker of an interrupted save is not carried over; the document is "
                    "written as its files stand (such a save may have left old and new parts "
                    "side by side)",
                folder / kWritingMarker));
        }
        Document document;
        document.filename = filename;
        document.isDirectory = true;
        std::map<std::string, std::string> keys;  // list name → part file key
        if (listing.has(kMetadataFile)) {
            FileRead read;
            const std::string metaName = name + "/" + std::string(kMetadataFile);
            try {
                read = readFile(folder / kMetadataFile, Grammar::Document, true, metaName);
            } catch (const SourceError& e) {
                return lose(folder, relative, "directory document '" + name + "': " + e.what(),
                            false);
            }
            if (read.problem) {
                return lose(folder, relative,
                            "directory document '" + name + "' cannot be parsed: " + metaName +
                                ": " + *read.problem,
                            true);
            }
            takeFixes(read);
            document.elements = std::move(read.elements);
            for (Element& e : document.elements) {
                if (e.kind == ElementKind::ExternalList) {
                    keys[e.name] = ozdf::partFileKey(e.writtenName);
                }
            }
        } else if (!restoreMetadata(folder, name, listing, document, keys)) {
            return std::nullopt;
        }
        std::set<std::string> allKeys;
        for (const auto& [list, key] : keys) {
            allKeys.insert(key);
        }
        std::map<std::string, std::string> claimed;  // part file → the key that read it
        for (Element& e : document.elements) {
            if (e.kind == ElementKind::ExternalList) {
                readParts(e, keys[e.name], allKeys, folder, name, relative, listing, claimed);
            }
        }
        for (const std::string& file : listing.files) {
            if (file.ends_with(".ozdp") && !claimed.contains(file)) {
                report_.actions.push_back(
                    fileStep(name + "/" + file +
                                 " not copied: it belongs to no external list (readers ignore it)",
                             folder / file));
            } else if (!file.ends_with(".ozdp") && file != kMetadataFile &&
                       file != kWritingMarker) {
                report_.actions.push_back(fileStep(
                    name + "/" + file + " not copied: it is not a file of an OZDF document",
                    folder / file));
            }
        }
        return writable(std::move(document), folder, name, relative, 0);
    }

private:
    struct Listing {
        std::vector<std::string> files;  // regular files, sorted
        bool has(std::string_view file) const {
            return std::binary_search(files.begin(), files.end(), file);
        }
    };

    static Listing list(const fs::path& folder) {
        Listing listing;
        std::error_code ec;
        for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
            std::error_code typeEc;
            if (it->is_regular_file(typeEc)) {
                listing.files.push_back(it->path().filename().string());
            }
        }
        if (ec) {
            throw RepairError(folder.string() + ": cannot list the folder: " + ec.message());
        }
        std::sort(listing.files.begin(), listing.files.end());
        return listing;
    }

    void takeFixes(FileRead& read) {
        for (RepairStep& step : read.fixes) {
            report_.actions.push_back(std::move(step));
        }
    }

    // Loses a whole document: its files go to the quarantine (when there are bytes to keep).
    std::optional<Document> lose(const fs::path& source, const fs::path& relative,
                                 const std::string& why, bool keep, std::uint64_t length = 0) {
        if (firstLoss_.empty()) {
            firstLoss_ = why;
        }
        std::string text = why;
        if (keep) {
            quarantine_.push_back({source, relative});
            text += "; quarantined whole in " + (quarantinePath_ / relative).string();
        }
        report_.losses.push_back(fileStep(text, source, 0, length));
        ++report_.lostKnown;
        return std::nullopt;
    }

    // The planned document must be writable as it is (the writer refuses what would not read
    // back the same); otherwise it is quarantined whole.
    // Counts it among the documents whose files change (beyond the mends listed).
    std::optional<Document> writable(Document document, const fs::path& source,
                                     const std::string& name, const fs::path& relative,
                                     std::uint64_t length) {
        bool changed = false;
        try {
            const std::string text = ozdf::writeDocumentText(document);
            changed = !sameBytes(document.isDirectory ? source / kMetadataFile : source, text);
            for (const Element& e : document.elements) {
                if (e.kind != ElementKind::ExternalList) {
                    changed = changed || (document.isDirectory && e.kind == ElementKind::List &&
                                          !e.items.empty() && !e.items[0].partFile.empty());
                    continue;
                }
                const auto parts = ozdf::writeParts(e, ozdf::EmptyItemNames::Kept);
                for (std::size_t i = 0; i < parts.size() && !changed; ++i) {
                    changed = parts[i].first != e.items[i].partFile ||
                              !sameBytes(source / e.items[i].partFile, parts[i].second);
                }
            }
        } catch (const ozdf::WriteError& e) {
            return lose(source, relative,
                        "document '" + name +
                            "' cannot be written so that it reads back the same: " + e.what(),
                        true, length);
        }
        rewritten_ += changed ? 1 : 0;
        return document;
    }

    static bool sameBytes(const fs::path& file, std::string_view text) {
        std::error_code ec;
        if (fs::file_size(file, ec) != text.size() || ec) {
            return false;
        }
        try {
            const ByteSourcePtr bytes = openMappedFile(file);
            const ByteView view = bytes->view(0, bytes->size());
            return std::string_view(reinterpret_cast<const char*>(view.data()), view.size()) ==
                   text;
        } catch (const SourceError&) {
            return false;
        }
    }

    // A folder of parts without `_metadata.ozdf`: one external list per part file key, in key
    // order. False when there is nothing to recover.
    bool restoreMetadata(const fs::path& folder, const std::string& name, const Listing& listing,
                         Document& document, std::map<std::string, std::string>& keys) {
        std::set<std::string> found;
        for (const std::string& file : listing.files) {
            if (file.ends_with(".ozdp")) {
                if (std::string key = keyOfPartName(file); !key.empty()) {
                    found.insert(std::move(key));
                }
            }
        }
        if (found.empty()) {
            (void)lose(folder, {},
                       "directory document '" + name + "' has no " + std::string(kMetadataFile) +
                           " and no part file: nothing to recover",
                       false);
            return false;
        }
        std::string lists;
        for (const std::string& key : found) {
            Element e;
            e.kind = ElementKind::ExternalList;
            e.writtenName = key;
            e.name = ozdf::upperCase(ozdf::sanitizeUtf8(key));
            keys[e.name] = key;
            lists += (lists.empty() ? "[[" : ", [[") + e.name + "]]";
            document.elements.push_back(std::move(e));
        }
        report_.losses.push_back(fileStep(
            "directory document '" + name + "': " + std::string(kMetadataFile) +
                " is missing; restored with the external list" + (found.size() == 1 ? " " : "s ") +
                lists +
                " named after the part files; whatever else it held (blocks, inline lists, "
                "comments, the lists' order, spaces in their names) is lost",
            folder));
        return true;
    }

    struct Part {
        std::string file;
        std::uint64_t number = 0;
        bool unicodeDigits = false;
    };

    void loseItem(const fs::path& folder, const std::string& file, const fs::path& relative,
                  const std::string& why, std::uint64_t length) {
        quarantine_.push_back({folder / file, relative / file});
        report_.losses.push_back(
            fileStep(why + "; quarantined in " + (quarantinePath_ / relative / file).string(),
                     folder / file, 0, length));
    }

    void readParts(Element& list, const std::string& key, const std::set<std::string>& allKeys,
                   const fs::path& folder, const std::string& name, const fs::path& relative,
                   const Listing& listing, std::map<std::string, std::string>& claimed) {
        const std::string listName = name + ": external list [[" + list.name + "]]";
        std::vector<Part> parts;
        // The files starting KEY- follow each other in the sorted listing: only those are read,
        // not the whole folder for each list.
        const std::string prefix = key + "-";
        for (auto it = std::lower_bound(listing.files.begin(), listing.files.end(), prefix);
             it != listing.files.end() && it->starts_with(prefix); ++it) {
            const std::string& file = *it;
            // Two lists with one key ([[A B]] and [[A_B]]) both read its parts, as readers do.
            const auto owner = claimed.find(file);
            if (!file.ends_with(".ozdp") || (owner != claimed.end() && owner->second != key)) {
                continue;
            }
            Part part{file};
            if (const auto n = partNumber(file, key, part.unicodeDigits)) {
                part.number = *n;
                parts.push_back(std::move(part));
                claimed[file] = key;
                continue;
            }
            if (const std::string other = keyOfPartName(file);
                !other.empty() && other != key && allKeys.contains(other)) {
                continue;  // a part of another list whose key starts like this one
            }
            if (owner != claimed.end()) {
                continue;  // lost already, with the list that read it first
            }
            claimed[file] = key;
            std::error_code ec;
            const auto size = fs::file_size(folder / file, ec);
            loseItem(folder, file, relative,
                     listName + " loses the item of '" + file +
                         "': its name has no part number, so its place in the list is unknown",
                     ec ? 0 : size);
        }
        std::stable_sort(parts.begin(), parts.end(),
                         [](const Part& a, const Part& b) { return a.number < b.number; });
        std::vector<std::string> moved;
        std::size_t movedCount = 0;
        for (const Part& part : parts) {
            const fs::path path = folder / part.file;
            const std::string partName = name + "/" + part.file;
            FileRead read;
            try {
                read = readFile(path, Grammar::DataPart, false, partName);
            } catch (const SourceError& e) {
                report_.losses.push_back(fileStep(
                    listName + " loses the item of '" + part.file + "': " + e.what(), path));
                continue;
            }
            std::optional<std::vector<ozdf::Paragraph>> data;
            std::optional<std::string> itemName;
            std::vector<std::string> ignored;  // blocks and comments readers do not read
            for (Element& block : read.elements) {
                if (block.kind != ElementKind::Block) {
                    ignored.emplace_back("a comment");
                    continue;
                }
                if (block.name != "DATA" && block.name != "NAME") {
                    ignored.push_back("block '" + shown(block.name) + "'");
                }
                if (block.name == "DATA" && !data) {
                    data = std::move(block.paragraphs);
                } else if (block.name == "NAME" && !itemName) {
                    std::string joined;
                    for (const ozdf::Paragraph& p : block.paragraphs) {
                        joined += (joined.empty() ? "" : "\n\n") + p.text;
                    }
                    itemName = std::move(joined);
                }
            }
            if (read.problem || !data) {
                loseItem(folder, part.file, relative,
                         listName + " loses the item of '" + part.file +
                             "': " + (read.problem ? *read.problem : "the part has no DATA block"),
                         read.source->size());
                continue;
            }
            takeFixes(read);
            if (!ignored.empty()) {
                std::string text;
                for (const std::string& what : ignored) {
                    text += (text.empty() ? "" : ", ") + what;
                }
                report_.actions.push_back(fileStep(
                    partName + ": " + text +
                        " not copied: a part holds only NAME and DATA (readers ignore the rest)",
                    path));
            }
            Item item;
            item.name = std::move(itemName);
            item.paragraphs = std::move(*data);
            item.partFile = part.file;
            item.partIndex = list.items.size() + 1;
            if (part.number != item.partIndex || part.unicodeDigits) {
                if (++movedCount <= kListed) {
                    moved.push_back("'" + part.file + "' is now part " +
                                    std::to_string(item.partIndex));
                }
            }
            list.items.push_back(std::move(item));
        }
        if (movedCount > 0) {
            std::string text = listName + ": parts renumbered 1.." +
                               std::to_string(list.items.size()) + " in their order: ";
            for (std::size_t i = 0; i < moved.size(); ++i) {
                text += (i == 0 ? "" : ", ") + moved[i];
            }
            if (movedCount > moved.size()) {
                text += " and " + std::to_string(movedCount - moved.size()) + " more";
            }
            report_.actions.push_back(fileStep(text, folder));
        }
        if (const std::string problem = ozdf::externalListNameProblem(list.name);
            !problem.empty()) {
            list.kind = ElementKind::List;
            report_.actions.push_back(fileStep(
                listName + " written as the inline list [" + list.name + "] (" + problem + ")",
                folder));
        }
    }

    fs::path quarantinePath_;
    RepairReport& report_;
    std::vector<Quarantined> quarantine_;
    std::string firstLoss_;
    std::size_t rewritten_ = 0;
};

bool hasPartFiles(const fs::path& folder) {
    std::error_code ec;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
        std::error_code typeEc;
        if (it->is_regular_file(typeEc) && it->path().extension() == ".ozdp") {
            return true;
        }
    }
    return false;
}

bool holdsDocuments(const fs::path& folder) {
    std::error_code ec;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
        if (it->path().extension() == ".ozdf") {
            return true;
        }
    }
    return false;
}

bool isDocumentFolder(const fs::path& folder) {
    std::error_code ec;
    return fs::is_regular_file(folder / kMetadataFile, ec) ||
           fs::is_regular_file(folder / kWritingMarker, ec) || hasPartFiles(folder);
}

void throwIfCancelled(const RepairOptions& options) {
    if (options.cancel != nullptr && options.cancel->cancelled()) {
        throw JobCancelled();
    }
}

// The documents of a corpus folder, sorted by full path as the reference loads them.
std::vector<Document> planCorpus(const fs::path& folder, Planner& planner,
                                 const RepairOptions& options, RepairReport& report) {
    std::error_code ec;
    std::vector<fs::path> entries;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
        entries.push_back(it->path());
    }
    if (ec) {
        throw RepairError(folder.string() + ": cannot list the folder: " + ec.message());
    }
    std::sort(entries.begin(), entries.end(),
              [](const fs::path& a, const fs::path& b) { return a.string() < b.string(); });
    std::vector<Document> documents;
    for (std::size_t i = 0; i < entries.size(); ++i) {
        throwIfCancelled(options);
        const fs::path& path = entries[i];
        const std::string name = path.filename().string();
        std::error_code typeEc;
        std::optional<Document> planned;
        if (fs::is_regular_file(path, typeEc) && name.ends_with(".ozdf")) {
            planned = planner.standalone(path, name, name);
        } else if (fs::is_directory(path, typeEc) && isDocumentFolder(path)) {
            planned = planner.directory(path, name, name, name);
        } else if (fs::is_directory(path, typeEc) && holdsDocuments(path)) {
            report.actions.push_back(fileStep(
                "sub-folder '" + name + "' not copied: it holds .ozdf files but no " +
                    std::string(kMetadataFile) + ", so readers skip it (a corpus holds no corpora)",
                path));
        } else if (fs::is_regular_file(path, typeEc) && name.ends_with(".ozdp")) {
            report.actions.push_back(fileStep(
                name + " not copied: a part file at the top of a corpus belongs to no document",
                path));
        } else {
            report.actions.push_back(
                fileStep(name + (fs::is_directory(path, typeEc) ? "/" : "") +
                             " not copied: it is not an OZDF document, so readers of the corpus "
                             "skip it",
                         path));
        }
        if (planned) {
            documents.push_back(std::move(*planned));
        }
        options.reportProgress(
            0.5 * static_cast<double>(i + 1) / static_cast<double>(entries.size()),
            "planning " + name);
    }
    return documents;
}

void validate(std::unique_ptr<Validator> validator, const RepairOptions& options) {
    CollectingSink sink;
    ValidationOptions validation;
    validation.cancel = options.cancel;
    if (validator->run(sink, validation) == JobOutcome::Cancelled) {
        throw JobCancelled();
    }
    requireValidOutput(sink.diagnostics());
}

// Reads the written output back: it must validate and hold exactly what was planned. Returns
// what it read.
OzdfDiffSide checkOutput(InputKind kind, const fs::path& target,
                         const std::vector<Document>& planned, const RepairOptions& options) {
    std::vector<Document> read;
    OzdfDiffSide side;
    if (kind == InputKind::Corpus) {
        auto corpus = std::make_shared<ozdf::Corpus>(ozdf::readCorpus(target));
        throwIfCancelled(options);
        validate(ozdf::makeOzdfCorpusValidator(corpus), options);
        read = corpus->documents;
        side.corpus = corpus;
    } else {
        auto document = std::make_shared<Document>(ozdf::readDocument(target));
        throwIfCancelled(options);
        validate(ozdf::makeOzdfValidator(document), options);
        read.push_back(*document);
        side.document = document;
    }
    throwIfCancelled(options);
    const bool same = std::equal(planned.begin(), planned.end(), read.begin(), read.end(),
                                 [](const Document& a, const Document& b) {
                                     return a.filename == b.filename &&
                                            a.isDirectory == b.isDirectory &&
                                            sameContent(a.elements, b.elements);
                                 });
    if (!same) {
        throw RepairError("the repaired output does not read back as planned; nothing was written");
    }
    return side;
}

// A document or corpus as every reader reads it (the app, strata-cli diff).
OzdfDiffSide readAsOpened(InputKind kind, const fs::path& path) {
    if (kind == InputKind::Corpus) {
        return {nullptr, std::make_shared<const ozdf::Corpus>(ozdf::readCorpus(path)), nullptr};
    }
    return {std::make_shared<const Document>(ozdf::readDocument(path)), nullptr, nullptr};
}

// The planned documents as what the output will read as (checkOutput holds it to that).
OzdfDiffSide plannedSide(InputKind kind, const OzdfDiffSide& input,
                         const std::vector<Document>& planned) {
    if (kind != InputKind::Corpus) {
        return {std::make_shared<const Document>(planned.front()), nullptr, nullptr};
    }
    auto corpus = std::make_shared<ozdf::Corpus>();
    corpus->path = input.corpus->path;
    corpus->documents = planned;
    return {nullptr, std::move(corpus), nullptr};
}

void copyQuarantined(const std::vector<Quarantined>& quarantine, const fs::path& folder) {
    fs::create_directory(folder);
    for (const Quarantined& q : quarantine) {
        const fs::path to = folder / q.relative;
        fs::create_directories(to.parent_path());
        if (fs::is_directory(q.source)) {
            // A part quarantined before its whole document is already there, with the same bytes.
            fs::copy(q.source, to, fs::copy_options::recursive | fs::copy_options::skip_existing);
        } else {
            fs::copy_file(q.source, to, fs::copy_options::skip_existing);
        }
    }
}

// `inputSide`: the input as readers read it, when the plan lists no loss (then the output, read
// back, is compared with it).
void writeRepaired(InputKind kind, const fs::path& input,
                   const std::optional<OzdfDiffSide>& inputSide, std::vector<Document>& documents,
                   const std::vector<Quarantined>& quarantine, const fs::path& output,
                   const RepairOptions& options, RepairReport& report) {
    runInRepairStage(output, [&](const fs::path& stage) {
        const fs::path target = stage / output.filename();
        options.reportProgress(0.6, "writing");
        if (kind == InputKind::Corpus) {
            ozdf::Corpus corpus;
            corpus.documents = documents;
            ozdf::SaveOptions save;
            save.cancel = options.cancel;
            save.emptyItemNames = ozdf::EmptyItemNames::Kept;
            ozdf::saveCorpusToFolder(corpus, target, save);
        } else {
            // The stage is new: its files are synced once, not each part file on its own.
            ozdf::saveDocument(documents.front(), stage, ozdf::EmptyItemNames::Kept,
                               Durability::Deferred);
        }
        throwIfCancelled(options);
        options.reportProgress(0.8, "validating");
        if (options.beforeOutputCheck) {
            options.beforeOutputCheck(target);
        }
        const OzdfDiffSide written = checkOutput(kind, target, documents, options);
        if (inputSide) {
            listContentDifferences(*makeOzdfDiffer(*inputSide, written), report, options,
                                   {input.string()});
        }
        const fs::path quarantined = stage / (output.filename().string() + ".quarantine");
        if (!quarantine.empty()) {
            copyQuarantined(quarantine, quarantined);
        }
        publishRepairWithQuarantine(target, output, quarantined, ozdfQuarantinePath(output));
    });
    options.reportProgress(1.0, "done");
}

}  // namespace

fs::path ozdfQuarantinePath(const fs::path& output) {
    fs::path p = output;
    p += ".quarantine";
    return p;
}

RepairReport repairOzdf(const fs::path& input, const fs::path& requested,
                        const RepairOptions& options) {
    fs::path output = requested.lexically_normal();
    if (!output.has_filename() && output.has_parent_path()) {
        output = output.parent_path();  // "out/"
    }
    const fs::path quarantinePath = ozdfQuarantinePath(output);
    RepairReport report = beginRepair("documents", output, options, quarantinePath);
    std::error_code ec;
    refuseOutputInsideInput(input, output);
    InputKind kind = InputKind::Standalone;
    if (fs::is_directory(input, ec)) {
        kind = ozdf::opensAsDocument(input) ? InputKind::Directory : InputKind::Corpus;
    } else if (!fs::is_regular_file(input, ec)) {
        throw RepairError(input.string() + ": not a file or folder");
    } else if (input.extension() == ".ozdp") {
        throw RepairError(input.string() +
                          ": a data part is not a document; repair the directory document that "
                          "holds it");
    }
    Planner planner(quarantinePath, report);
    std::vector<Document> documents;
    std::string inputName = input.lexically_normal().filename().string();
    if (inputName.empty()) {
        inputName = input.lexically_normal().parent_path().filename().string();
    }
    const std::string outputName = output.filename().string();
    std::optional<Document> one;
    switch (kind) {
        case InputKind::Standalone:
            one = planner.standalone(input, outputName, inputName);
            break;
        case InputKind::Directory:
            one = planner.directory(input, outputName, inputName, {});
            break;
        case InputKind::Corpus:
            documents = planCorpus(input, planner, options, report);
            break;
    }
    if (one) {
        documents.push_back(std::move(*one));
    }
    report.recovered = documents.size();
    if (planner.rewritten() > 0) {
        report.actions.push_back(
            {std::to_string(planner.rewritten()) + " of the " + std::to_string(documents.size()) +
                 " documents written in the canonical layout (names upper-cased, paragraphs "
                 "wrapped at 80 columns, whitespace collapsed, one blank line between blocks, "
                 "parts numbered from 01): what readers read from them is unchanged",
             Region{}});
    }
    if (!planner.quarantine().empty()) {
        report.actions.push_back({"quarantined in " + quarantinePath.string() + ": " +
                                      std::to_string(planner.quarantine().size()) +
                                      " file(s) or folder(s) with their original bytes",
                                  Region{}});
    }
    if (documents.empty()) {
        throw RepairError(input.string() + ": no document could be recovered" +
                          (planner.firstLoss().empty() ? std::string(" (it holds none)")
                                                       : ": " + planner.firstLoss()) +
                          "; nothing was written");
    }
    // What strata-cli diff INPUT OUTPUT will find, known before anything is written (only when
    // nothing is lost: a loss says what the output lacks).
    std::optional<OzdfDiffSide> inputSide;
    if (report.complete()) {
        inputSide = readAsOpened(kind, input);
        listContentDifferences(
            *makeOzdfDiffer(*inputSide, plannedSide(kind, *inputSide, documents)), report, options,
            {input.string()});
    }
    if (!report.complete()) {
        inputSide.reset();
    }
    if (!options.dryRun) {
        writeRepaired(kind, input, inputSide, documents, planner.quarantine(), output, options,
                      report);
        report.written = true;
    }
    return report;
}

}  // namespace strata
