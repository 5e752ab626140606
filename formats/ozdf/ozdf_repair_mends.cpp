// The OZDF repair's read of one input file: header and item marker spacing and the byte order
// mark mended in its text, missing blank lines counted as mended, what no mend removes reported.
#include <algorithm>

#include "ozdf_diagnostics.h"
#include "ozdf_repair_internal.h"
#include "ozdf_text.h"

namespace strata::ozdf {

namespace fs = std::filesystem;

namespace {

std::string bytesText(std::uint64_t offset, std::uint64_t length) {
    return "bytes " + std::to_string(offset) + " to " + std::to_string(offset + length);
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

}  // namespace

std::string shown(std::string_view text) {
    std::string out = ozdf::sanitizeUtf8(text.substr(0, 60));
    std::replace_if(
        out.begin(), out.end(), [](char ch) { return static_cast<unsigned char>(ch) < 0x20; }, '?');
    return out + (text.size() > 60 ? "..." : "");
}

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

}  // namespace strata::ozdf
