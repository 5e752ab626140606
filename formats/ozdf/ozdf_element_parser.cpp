// The parse of one OZDF file's lines (a document, a directory document's metadata or a data
// part) into elements: blocks, lists and their items, comments, external lists.
#include <set>

#include "ozdf_parser_internal.h"
#include "ozdf_text.h"

namespace strata::ozdf {

namespace {

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

}  // namespace

std::vector<Element> parseElements(const ByteSource& source, const ByteSource& bytes,
                                   Grammar grammar, bool directory, Reporter& reporter,
                                   ExternalReader externalReader) {
    return LineParser(source, grammar, directory, reporter, std::move(externalReader)).parse(bytes);
}

}  // namespace strata::ozdf
