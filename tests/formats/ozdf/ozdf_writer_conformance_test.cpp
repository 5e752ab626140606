// Writer conformance: what Strata's OZDF writer puts on disk (saving to a new folder, `ozdf
// fmt`'s in-place rewrite, JSONL import, edited documents with external parts) is read back
// here by a small reader written from the grammar REFERENCE.md records (not Strata's reader),
// and compared document by document, element by element with what the reference reads from the
// same input. Writes that would read back differently are refused.
#include <fnmatch.h>
#include <gtest/gtest.h>

#include <unistd.h>
#include "test_corpus.h"

#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "formats/ozdf/ozdf_edit.h"
#include "formats/ozdf/ozdf_json.h"
#include "formats/ozdf/ozdf_parser.h"
#include "formats/ozdf/ozdf_save.h"
#include "formats/ozdf/ozdf_writer.h"
#include "ozdf_test_support.h"

namespace strata::ozdf {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// ---- an independent reader, from the grammar REFERENCE.md records ----------------------------

std::u32string decode(std::string_view s) {
    std::u32string out;
    for (std::size_t i = 0; i < s.size();) {
        const auto b = static_cast<unsigned char>(s[i]);
        const std::size_t n = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
        char32_t c = n == 1 ? b : n == 2 ? (b & 0x1Fu) : n == 3 ? (b & 0x0Fu) : (b & 0x07u);
        for (std::size_t k = 1; k < n && i + k < s.size(); ++k) {
            c = (c << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3Fu);
        }
        out += c;
        i += n;
    }
    return out;
}

std::string encode(std::u32string_view s) {
    std::string out;
    for (char32_t c : s) {
        if (c < 0x80) {
            out += static_cast<char>(c);
        } else if (c < 0x800) {
            out += static_cast<char>(0xC0 | (c >> 6));
            out += static_cast<char>(0x80 | (c & 0x3F));
        } else if (c < 0x10000) {
            out += static_cast<char>(0xE0 | (c >> 12));
            out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (c & 0x3F));
        } else {
            out += static_cast<char>(0xF0 | (c >> 18));
            out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
            out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (c & 0x3F));
        }
    }
    return out;
}

// Python's str.isspace().
bool isSpace(char32_t c) {
    return (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x20) || c == 0x85 || c == 0xA0 ||
           c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 ||
           c == 0x202F || c == 0x205F || c == 0x3000;
}

std::string strip(std::string_view text) {
    std::u32string s = decode(text);
    std::size_t b = 0;
    std::size_t e = s.size();
    while (b < e && isSpace(s[b])) {
        ++b;
    }
    while (e > b && isSpace(s[e - 1])) {
        --e;
    }
    return encode(std::u32string_view(s).substr(b, e - b));
}

// Every whitespace run becomes one space; the ends are stripped.
std::string collapse(std::string_view text) {
    std::u32string out;
    bool space = false;
    for (char32_t c : decode(strip(text))) {
        if (isSpace(c)) {
            space = true;
            continue;
        }
        if (space) {
            out += U' ';
            space = false;
        }
        out += c;
    }
    return encode(out);
}

// The reference upper-cases block and list names with Python's full Unicode rules; ASCII is
// enough here: names outside ASCII are compared with the reference's own reading instead.
std::string asciiUpper(std::string s) {
    for (char& c : s) {
        if (c >= 'a' && c <= 'z') {
            c = static_cast<char>(c - 'a' + 'A');
        }
    }
    return s;
}

// Lines split at \r\n, \r and \n (universal newlines); a final line break adds no empty line.
std::vector<std::string> splitLines(std::string_view text) {
    std::vector<std::string> out;
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t end = std::min(text.find_first_of("\r\n", at), text.size());
        out.emplace_back(text.substr(at, end - at));
        at = end + (text.substr(end).starts_with("\r\n") ? 2 : 1);
    }
    return out;
}

// Paragraphs of an element's (stripped) lines: split at blank lines, whitespace collapsed.
json paragraphsOf(const std::vector<std::string>& lines) {
    json out = json::array();
    std::string current;
    for (std::size_t i = 0; i <= lines.size(); ++i) {
        if (i == lines.size() || lines[i].empty()) {
            if (!collapse(current).empty()) {
                out.push_back(collapse(current));
            }
            current.clear();
        } else {
            current += lines[i] + "\n";
        }
    }
    return out;
}

struct ParseError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct RawElement {
    std::string kind, name;
    std::vector<std::string> lines;
    std::vector<std::pair<std::optional<std::string>, std::vector<std::string>>> items;
};

std::vector<RawElement> parseText(std::string_view text, bool directory, bool part) {
    std::vector<RawElement> elements;
    bool previousBlank = true;
    bool afterListHeader = false;
    std::set<std::string> blocks, lists;
    for (const std::string& raw : splitLines(text)) {
        const std::string s = strip(raw);
        const bool header = s.starts_with("#### ");
        const bool item = s == "====" || s.starts_with("==== ");
        if ((header || item) && !elements.empty() && !afterListHeader && !previousBlank) {
            throw ParseError("no blank line before '" + s + "'");
        }
        if (header) {
            RawElement e;
            const std::string name = strip(std::string_view(s).substr(5));
            if (!part && name.starts_with("[[") && name.ends_with("]]") && name.size() >= 4) {
                if (!directory) {
                    throw ParseError("external list in a standalone document");
                }
                e.kind = "external_list";
                e.name = asciiUpper(name.substr(2, name.size() - 4));
            } else if (!part && name.starts_with("[") && name.ends_with("]") && name.size() >= 2) {
                e.kind = "list";
                e.name = asciiUpper(name.substr(1, name.size() - 2));
            } else if (asciiUpper(name) == "COMMENT") {
                e.kind = "comment";
            } else {
                e.kind = "block";
                e.name = asciiUpper(name);
            }
            if (e.kind == "block" && !blocks.insert(e.name).second) {
                throw ParseError("duplicate block " + e.name);
            }
            if (e.kind.ends_with("list") && !lists.insert(e.name).second) {
                throw ParseError("duplicate list " + e.name);
            }
            afterListHeader = e.kind == "list";
            elements.push_back(std::move(e));
        } else if (item) {
            if (part || elements.empty() || elements.back().kind != "list") {
                throw ParseError("item outside a list");
            }
            const std::string name = strip(std::string_view(s).substr(4));
            elements.back().items.emplace_back(
                name.empty() ? std::nullopt : std::optional<std::string>(name),
                std::vector<std::string>{});
            afterListHeader = false;
        } else if (s.starts_with("###") || s.starts_with("===")) {
            throw ParseError("a line starting with ### or ===: '" + s + "'");
        } else if (!elements.empty() && elements.back().kind == "list" &&
                   !elements.back().items.empty()) {
            elements.back().items.back().second.push_back(s);
        } else if (!elements.empty() &&
                   (elements.back().kind == "block" || elements.back().kind == "comment")) {
            elements.back().lines.push_back(s);
        } else if (!s.empty()) {
            throw ParseError("content outside a block: '" + s + "'");
        }
        if (!s.empty()) {
            afterListHeader = afterListHeader && (header || item);
        }
        previousBlank = s.empty();
    }
    return elements;
}

json elementJson(const RawElement& e) {
    if (e.kind == "comment") {
        std::string text;
        for (std::size_t i = 0; i < e.lines.size(); ++i) {
            text += (i == 0 ? "" : "\n") + e.lines[i];
        }
        return {{"kind", "comment"}, {"text", text}};
    }
    if (e.kind == "block") {
        return {{"kind", "block"}, {"name", e.name}, {"paragraphs", paragraphsOf(e.lines)}};
    }
    json items = json::array();
    for (const auto& [name, lines] : e.items) {
        items.push_back(
            {{"name", name ? json(*name) : json(nullptr)}, {"paragraphs", paragraphsOf(lines)}});
    }
    return {{"kind", e.kind}, {"name", e.name}, {"items", items}};
}

std::string slurp(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

// The items of `[[name]]`: parts found with the glob KEY-*.ozdp, each KEY-<digits>.ozdp,
// numbered 1..n.
json readParts(const fs::path& folder, const std::string& name) {
    std::string key = asciiUpper(name);
    std::replace(key.begin(), key.end(), ' ', '_');
    std::map<std::uint64_t, fs::path> parts;
    for (const auto& entry : fs::directory_iterator(folder)) {
        const std::string file = entry.path().filename().string();
        if (fnmatch((key + "-*.ozdp").c_str(), file.c_str(), FNM_PERIOD) != 0) {
            continue;
        }
        const std::string digits = file.substr(key.size() + 1, file.size() - key.size() - 6);
        if (!file.starts_with(key + "-") || digits.empty() ||
            digits.find_first_not_of("0123456789") != std::string::npos) {
            throw ParseError("part file name " + file + " does not fit " + key);
        }
        if (!parts.emplace(std::stoull(digits), entry.path()).second) {
            throw ParseError("duplicate part number in " + file);
        }
    }
    json items = json::array();
    std::uint64_t expected = 1;
    for (const auto& [number, path] : parts) {
        if (number != expected++) {
            throw ParseError("parts of " + key + " are not numbered 1..n");
        }
        json data, itemName = nullptr;
        for (const RawElement& e : parseText(slurp(path), true, true)) {
            if (e.name == "DATA") {
                data = paragraphsOf(e.lines);
            } else if (e.name == "NAME") {
                std::string joined;
                for (const auto& p : paragraphsOf(e.lines)) {
                    joined += (joined.empty() ? "" : "\n\n") + p.get<std::string>();
                }
                itemName = joined;
            }
        }
        if (data.is_null()) {
            throw ParseError(path.filename().string() + " has no DATA block");
        }
        items.push_back({{"name", itemName}, {"paragraphs", data}});
    }
    return items;
}

json readDocumentJson(const fs::path& path) {
    const bool directory = fs::is_directory(path);
    if (directory && fs::exists(path / ".ozdf_writing")) {
        throw ParseError("interrupted save marker in " + path.string());
    }
    json elements = json::array();
    for (const RawElement& e :
         parseText(slurp(directory ? path / "_metadata.ozdf" : path), directory, false)) {
        json element = elementJson(e);
        if (e.kind == "external_list") {
            element["items"] = readParts(path, e.name);
        }
        elements.push_back(std::move(element));
    }
    return {{"filename", path.filename().string()},
            {"is_directory", directory},
            {"elements", elements}};
}

json readCorpusJson(const fs::path& folder) {
    std::vector<fs::path> documents;
    for (const auto& entry : fs::directory_iterator(folder)) {
        const std::string name = entry.path().filename().string();
        if ((entry.is_regular_file() && name.ends_with(".ozdf")) ||
            (entry.is_directory() && (fs::exists(entry.path() / "_metadata.ozdf") ||
                                      fs::exists(entry.path() / ".ozdf_writing")))) {
            documents.push_back(entry.path());
        }
    }
    std::sort(documents.begin(), documents.end());
    json out = json::array();
    for (const fs::path& path : documents) {
        out.push_back(readDocumentJson(path));
    }
    return {{"kind", "corpus"}, {"documents", out}};
}

// ---- the tests -----------------------------------------------------------------------------

class Scratch {
public:
    explicit Scratch(const std::string& name)
        : path_(fs::temp_directory_path() /
                ("strata_ozdf_conformance_" + name + "_" + std::to_string(::getpid()))) {
        fs::remove_all(path_);
    }
    ~Scratch() { fs::remove_all(path_); }
    const fs::path& path() const { return path_; }

private:
    fs::path path_;
};

json expectedReading(const std::string& name) {
    const json j =
        json::parse(slurp(test::corpusDir() / "expected/resaved" / (name + ".reread.json")));
    return j["result"];
}

const std::map<std::string, std::string> kResavedInputs = {
    {"handwritten_docs", "valid/handwritten/docs"},
    {"handwritten_dirdocs", "valid/handwritten/dirdocs"},
    {"handwritten_corpora_mixed", "valid/handwritten/corpora/mixed"},
    {"api_corpus", "valid/written_by_reference/api_corpus"},
};

// Saving each corpus to a new folder: the files read back document by document as the
// reference reads its own resaved copy.
TEST(OzdfWriterConformance, SavedCorporaReadBackAsTheReferenceReadsItsOwnCopy) {
    STRATA_SKIP_WITHOUT_CORPUS();
    for (const auto& [name, input] : kResavedInputs) {
        SCOPED_TRACE(name);
        Scratch out(name);
        const Corpus corpus = readCorpus(test::corpusDir() / input);
        ASSERT_TRUE(corpus.accepted());
        saveCorpusToFolder(corpus, out.path());
        EXPECT_EQ(readCorpusJson(out.path()), expectedReading(name));
    }
}

// `ozdf fmt` rewrites a corpus in place: the same reading afterwards.
TEST(OzdfWriterConformance, FmtInPlaceReadsBackAsTheReferenceReadsItsOwnCopy) {
    STRATA_SKIP_WITHOUT_CORPUS();
    for (const auto& [name, input] : kResavedInputs) {
        SCOPED_TRACE(name);
        Scratch copy(name + "_fmt");
        fs::copy(test::corpusDir() / input, copy.path(), fs::copy_options::recursive);
        for (const auto& entry : fs::recursive_directory_iterator(copy.path())) {
            fs::permissions(entry.path(), fs::perms::owner_write, fs::perm_options::add);
        }
        const Corpus corpus = readCorpus(copy.path());
        saveCorpusInPlace(corpus, copy.path(), footprintsOf(corpus));
        EXPECT_EQ(readCorpusJson(copy.path()), expectedReading(name));
    }
}

// export → import → save: the same documents.
TEST(OzdfWriterConformance, JsonlImportWritesTheDocumentsItWasGiven) {
    STRATA_SKIP_WITHOUT_CORPUS();
    for (const auto& [name, input] : kResavedInputs) {
        SCOPED_TRACE(name);
        Scratch out(name + "_import");
        std::stringstream jsonl;
        exportJsonl(readCorpus(test::corpusDir() / input), jsonl);
        saveCorpusToFolder(importJsonl(jsonl), out.path());
        EXPECT_EQ(readCorpusJson(out.path()), expectedReading(name));
    }
}

// A directory document built with the edits the GUI uses: wrapping traps, Unicode, comments,
// empty lists, named and unnamed items, 120 parts (three-digit part numbers), part names of
// several paragraphs. Written, then read back independently: the same elements.
TEST(OzdfWriterConformance, EditedDirectoryDocumentReadsBackElementByElement) {
    Document d;
    d.filename = "book";
    d.isDirectory = true;
    insertElement(d, 0, ElementKind::Block, "title");
    insertParagraph(
        d, {0, std::nullopt}, 0,
        std::string(75, 'x') + " #### ==== ### === end\n\nsecond   paragraph\u00a0here");
    insertElement(d, 1, ElementKind::Comment, "");
    setCommentText(d, 1, "a note\nover two lines\n");  // as read back: ends in a blank line
    insertElement(d, 2, ElementKind::List, "empty");
    insertElement(d, 3, ElementKind::List, "Straße");
    insertItem(d, 3, 0, std::string("Named Item"));
    insertParagraph(d, {3, 0}, 0, "inline text");
    insertItem(d, 3, 1, std::nullopt);
    insertElement(d, 4, ElementKind::ExternalList, "chapter list");
    for (std::size_t i = 0; i < 120; ++i) {
        insertItem(d, 4, i,
                   i % 3 == 0 ? std::optional<std::string>()
                              : std::optional("name " + std::to_string(i) + "\n\nmore"));
        insertParagraph(d, {4, i}, 0, "part " + std::to_string(i) + " " + std::string(100, 'y'));
    }
    insertElement(d, 5, ElementKind::Block, "last");
    Scratch out("edited");
    fs::create_directories(out.path());
    saveDocumentInPlace(d, out.path(), nullptr);
    EXPECT_EQ(readDocumentJson(out.path() / "book"), test::toJson(d));
    EXPECT_TRUE(fs::exists(out.path() / "book/CHAPTER_LIST-120.ozdp"));
    EXPECT_TRUE(fs::exists(out.path() / "book/CHAPTER_LIST-001.ozdp"));
}

Element externalList(const std::string& name, std::optional<std::string> itemName) {
    Element e;
    e.kind = ElementKind::ExternalList;
    e.name = name;
    Item item;
    item.name = std::move(itemName);
    item.paragraphs.push_back({"text", {}});
    e.items.push_back(item);
    return e;
}

// The reference finds parts with glob.glob("<folder>/<KEY>-*.ozdp"): a list named X[1]Y would
// have its parts written and then read back as an empty list.
TEST(OzdfWriterConformance, ExternalListNamesTheGlobWouldMissAreRefused) {
    Document d;
    d.filename = "doc";
    d.isDirectory = true;
    insertElement(d, 0, ElementKind::List, "X[1]Y");
    insertItem(d, 0, 0, std::nullopt);
    EXPECT_THROW(toggleExternalList(d, 0), EditError);
    EXPECT_EQ(d.elements[0].kind, ElementKind::List);
    for (const char* name : {"X[1]Y", "A*", "Q?", "a/b"}) {
        EXPECT_THROW(insertElement(d, 1, ElementKind::ExternalList, name), EditError) << name;
    }
    EXPECT_EQ(d.elements.size(), 1U);
    insertElement(d, 1, ElementKind::ExternalList, "fine");
    EXPECT_THROW(renameElement(d, 1, "not[fine]"), EditError);

    Document written;
    written.filename = "doc";
    written.isDirectory = true;
    written.elements.push_back(externalList("X[1]Y", std::nullopt));
    EXPECT_THROW(writeDocumentText(written), WriteError);
    // The folder's own name is part of the glob too.
    written.elements[0] = externalList("FINE", std::nullopt);
    written.filename = "doc[1]";
    EXPECT_THROW(writeDocumentText(written), WriteError);
    written.elements[0].items.clear();
    EXPECT_NO_THROW(writeDocumentText(written));  // no parts, nothing to miss
}

// A part's NAME block is text: its whitespace is collapsed and it cannot start with ####.
TEST(OzdfWriterConformance, PartItemNamesReadBackTheSameOrAreRefused) {
    Document d;
    d.filename = "doc";
    d.isDirectory = true;
    insertElement(d, 0, ElementKind::List, "L");
    insertItem(d, 0, 0, std::string("a  b"));    // inline: kept as written
    insertItem(d, 0, 1, std::string("#### X"));  // inline: `==== #### X` is fine
    EXPECT_EQ(d.elements[0].items[0].name, "a  b");
    EXPECT_THROW(toggleExternalList(d, 0), EditError);
    EXPECT_EQ(d.elements[0].kind, ElementKind::List);
    removeItem(d, 0, 0);
    EXPECT_THROW(toggleExternalList(d, 0), EditError);
    removeItem(d, 0, 0);
    toggleExternalList(d, 0);
    insertItem(d, 0, 0, std::string("a  b"));
    EXPECT_EQ(d.elements[0].items[0].name, "a b");  // as its part will give it back
    EXPECT_THROW(insertItem(d, 0, 1, std::string("#### X")), EditError);
    insertItem(d, 0, 1, std::string("one\n\ntwo"));
    EXPECT_THROW(toggleExternalList(d, 0), EditError);  // an inline name is one line
    EXPECT_THROW(toggleDirectoryDocument(d), EditError);
    EXPECT_TRUE(d.isDirectory);

    Document written;
    written.filename = "doc";
    written.isDirectory = true;
    for (const char* name : {"a  b", "#### X", " padded", "==== y"}) {
        written.elements = {externalList("L", std::string(name))};
        EXPECT_THROW(writeParts(written.elements[0]), WriteError) << name;
    }
    written.elements = {externalList("L", std::string("one\n\ntwo"))};
    EXPECT_NO_THROW(writeParts(written.elements[0]));
    written.elements[0].kind = ElementKind::List;
    written.elements[0].items[0].name = " padded";
    EXPECT_THROW(writeDocumentText(written), WriteError);
}

// Header names that would read back as another name or kind are refused by the writer too, not
// only by the edits.
TEST(OzdfWriterConformance, HeaderNamesThatReadBackDifferentlyAreRefused) {
    const std::vector<std::pair<ElementKind, std::string>> bad = {
        {ElementKind::Block, "[X]"},   {ElementKind::Block, "COMMENT"}, {ElementKind::Block, ""},
        {ElementKind::Block, "lower"}, {ElementKind::List, "[X]"},      {ElementKind::Block, " X"},
    };
    for (const auto& [kind, name] : bad) {
        Document d;
        d.filename = "d.ozdf";
        Element e;
        e.kind = kind;
        e.name = name;
        d.elements.push_back(e);
        EXPECT_THROW(writeDocumentText(d), WriteError) << name;
    }
}

}  // namespace
}  // namespace strata::ozdf
