#include "ozdf_writer.h"

#include <algorithm>
#include <array>

#include "formats/common/atomic_file.h"
#include "ozdf_edit.h"
#include "ozdf_parser.h"
#include "ozdf_text.h"

namespace strata::ozdf {

namespace {

constexpr std::size_t kWrapWidth = 80;

void writeFileAtomically(const std::filesystem::path& path, std::string_view text,
                         Durability durability) {
    AtomicFile file(path, durability);
    file.write(text);
    file.commit();
}

bool reservedStart(std::string_view text) {
    return text.starts_with("###") || text.starts_with("===");
}

void checkLineText(std::string_view text, std::string_view what) {
    if (text.find_first_of("\r\n") != std::string_view::npos) {
        throw WriteError(std::string(what) + " contains a line break: '" + std::string(text) + "'");
    }
}

// A header that would read back as another kind of element or another name (what the reader
// does: strip the line, classify `[[…]]`, `[…]`, COMMENT, store the name upper-cased).
void checkHeaderName(const Element& element) {
    const std::string& name = element.name;
    const auto refuse = [&](const std::string& why) {
        throw WriteError("the name '" + name + "' " + why);
    };
    if (sanitizeUtf8(name) != name) {
        refuse("is not UTF-8");
    }
    if (upperCase(name) != name) {
        refuse("would read back upper-cased");
    }
    const bool bracketed = name.starts_with('[') && name.ends_with(']');
    const Trimmed t = trimSpaces(name);
    switch (element.kind) {
        case ElementKind::Block:
            if (name.empty() || t.begin != 0 || t.end != name.size()) {
                refuse("is empty or has spaces at an end, which the reader drops");
            }
            if (bracketed || name == "COMMENT") {
                refuse("would read back as another kind of block");
            }
            return;
        case ElementKind::List:
            if (bracketed) {
                refuse("would read back as an external list");
            }
            return;
        case ElementKind::ExternalList:
            if (const std::string problem = externalListNameProblem(name); !problem.empty()) {
                throw WriteError("[[" + name + "]]: " + problem);
            }
            return;
        case ElementKind::Comment:
            return;
    }
}

void checkInlineItemName(const std::string& name) {
    checkLineText(name, "an item name");
    const Trimmed t = trimSpaces(name);
    if (t.begin != 0 || t.end != name.size()) {
        throw WriteError("the item name '" + name + "' has leading or trailing spaces, which " +
                         "the reader drops");
    }
}

void checkPartItemName(const std::string& name) {
    std::optional<std::string> readBack;
    try {
        readBack = partItemName(name);
    } catch (const EditError& error) {
        throw WriteError("item name '" + name + "': " + error.what());
    }
    if (readBack.value_or("") != name) {
        throw WriteError("the item name '" + name + "' would read back from its part file as '" +
                         readBack.value_or("") + "'");
    }
}

void checkParagraph(std::string_view paragraph) {
    if (reservedStart(paragraph)) {
        throw WriteError("a paragraph cannot start with '###' or '===': '" +
                         std::string(paragraph.substr(0, 40)) + "'");
    }
}

// Bytes that may belong to whitespace other than a plain space: control bytes and the lead
// bytes of the non-ASCII spaces (U+0085, U+00A0, U+1680, U+2000..U+205F, U+3000).
constexpr std::array<bool, 256> kOddSpaceBytes = [] {
    std::array<bool, 256> table{};
    for (std::size_t b = 0; b < 0x20; ++b) {
        table[b] = true;
    }
    for (const std::size_t lead : {0xC2U, 0xE1U, 0xE2U, 0xE3U}) {
        table[lead] = true;
    }
    return table;
}();

// Appends `paragraph` wrapped at kWrapWidth code points. Returns false when the paragraph may
// hold whitespace that normalising would change (a control byte, a possible non-ASCII space,
// two spaces in a row, a space at either end): the caller then checks exactly.
bool appendWrapped(std::string& out, std::string_view paragraph) {
    std::size_t lineLength = 0;
    bool lineEmpty = true;
    bool plain = !paragraph.starts_with(' ') && !paragraph.ends_with(' ');
    std::size_t at = 0;
    const std::size_t size = paragraph.size();
    while (at < size) {
        // The word's end and its length in code points, in one pass.
        std::size_t end = at;
        std::size_t length = 0;
        for (; end < size && paragraph[end] != ' '; ++end) {
            const auto b = static_cast<unsigned char>(paragraph[end]);
            length += (b & 0xC0U) != 0x80U ? 1 : 0;
            plain = plain && !kOddSpaceBytes[b];
        }
        const std::string_view word = paragraph.substr(at, end - at);
        at = end + 1;
        if (word.empty()) {
            plain = false;
            continue;
        }
        if (lineEmpty) {
            out += word;
            lineLength = length;
            lineEmpty = false;
        } else if (lineLength + 1 + length <= kWrapWidth || reservedStart(word)) {
            out += ' ';
            out += word;
            lineLength += 1 + length;
        } else {
            out += '\n';
            out += word;
            lineLength = length;
        }
    }
    return plain;
}

void writeParagraphs(std::string& out, const std::vector<Paragraph>& paragraphs) {
    for (const Paragraph& p : paragraphs) {
        checkParagraph(p.text);
        // Paragraphs from the reader or an edit are already normalised: written as they are.
        const std::size_t mark = out.size();
        if (!appendWrapped(out, p.text) &&
            (hasCollapsibleSpace(p.text) || p.text.starts_with(' ') || p.text.ends_with(' '))) {
            out.resize(mark);
            const std::string text = collapseSpaces(p.text);
            checkParagraph(text);
            appendWrapped(out, text);
        }
        out += "\n\n";
    }
    if (paragraphs.empty()) {
        out += "\n\n";
    }
}

// True when the last line of a comment's text is blank, so a header can follow it.
bool endsWithBlankLine(std::string_view text) {
    const std::size_t lastBreak = text.find_last_of("\r\n");
    const std::string_view last =
        lastBreak == std::string_view::npos ? text : text.substr(lastBreak + 1);
    const Trimmed t = trimSpaces(last);
    return t.begin == t.end;
}

void checkCommentText(std::string_view text) {
    for (std::size_t at = 0; at <= text.size();) {
        const std::size_t end = std::min(text.find_first_of("\r\n", at), text.size());
        const std::string_view line = text.substr(at, end - at);
        const Trimmed t = trimSpaces(line);
        if (reservedStart(line.substr(t.begin, t.end - t.begin))) {
            throw WriteError("a comment line cannot start with '###' or '===': '" +
                             std::string(line.substr(0, 40)) + "'");
        }
        at = end + 1;
    }
}

void writeElement(std::string& out, const Element& element, bool directory, bool last) {
    switch (element.kind) {
        case ElementKind::Comment:
            checkCommentText(element.text);
            out += "#### COMMENT\n";
            out += element.text;
            out += "\n";
            // The next header needs a blank line before it (read back, the comment gains it).
            if (!last && !element.text.empty() && !endsWithBlankLine(element.text)) {
                out += "\n";
            }
            return;
        case ElementKind::Block:
            checkLineText(element.name, "a block name");
            checkHeaderName(element);
            out += "#### " + element.name + "\n";
            writeParagraphs(out, element.paragraphs);
            return;
        case ElementKind::List:
            checkLineText(element.name, "a list name");
            checkHeaderName(element);
            out += "#### [" + element.name + "]\n";
            for (const Item& item : element.items) {
                if (item.name && !item.name->empty()) {
                    checkInlineItemName(*item.name);
                    out += "==== " + *item.name + "\n";
                } else {
                    out += "====\n";
                }
                writeParagraphs(out, item.paragraphs);
            }
            return;
        case ElementKind::ExternalList:
            if (!directory) {
                throw WriteError("external list [[" + element.name + "]] in a standalone document");
            }
            checkLineText(element.name, "a list name");
            checkHeaderName(element);
            out += "#### [[" + element.name + "]]\n\n";
            return;
    }
}

}  // namespace

std::string wrapParagraph(std::string_view paragraph) {
    std::string out;
    out.reserve(paragraph.size() + paragraph.size() / 64);
    appendWrapped(out, paragraph);
    return out;
}

std::string writeDocumentText(const Document& document) {
    // The reference looks for parts with a glob under the document's folder: a metacharacter in
    // the folder's name would make it miss them.
    const bool hasParts = std::any_of(
        document.elements.begin(), document.elements.end(),
        [](const Element& e) { return e.kind == ElementKind::ExternalList && !e.items.empty(); });
    if (document.isDirectory && hasParts &&
        document.filename.find_first_of("*?[") != std::string::npos) {
        throw WriteError("directory document '" + document.filename +
                         "': a folder name with '*', '?' or '[' hides its part files from the " +
                         "reference's glob");
    }
    std::string out;
    for (std::size_t i = 0; i < document.elements.size(); ++i) {
        writeElement(out, document.elements[i], document.isDirectory,
                     i + 1 == document.elements.size());
    }
    return out;
}

std::vector<std::pair<std::string, std::string>> writeParts(const Element& externalList,
                                                            EmptyItemNames emptyNames) {
    std::vector<std::pair<std::string, std::string>> parts;
    const std::string key = partFileKey(externalList.name);
    const std::size_t count = externalList.items.size();
    const std::size_t width = std::max<std::size_t>(2, std::to_string(count).size());
    for (std::size_t i = 0; i < count; ++i) {
        const Item& item = externalList.items[i];
        std::string number = std::to_string(i + 1);
        number.insert(0, width - number.size(), '0');
        std::string text;
        if (item.name && !item.name->empty()) {
            checkPartItemName(*item.name);
            text += "#### NAME\n" + *item.name + "\n\n";
        } else if (item.name && emptyNames == EmptyItemNames::Kept) {
            text += "#### NAME\n\n";
        }
        text += "#### DATA\n";
        for (std::size_t p = 0; p < item.paragraphs.size(); ++p) {
            checkParagraph(item.paragraphs[p].text);
            text += p == 0 ? "" : "\n\n";
            text += item.paragraphs[p].text;
        }
        text += "\n\n";
        parts.emplace_back(key + "-" + number + ".ozdp", std::move(text));
    }
    return parts;
}

void saveDocument(const Document& document, const std::filesystem::path& folder,
                  EmptyItemNames emptyNames, Durability durability) {
    const auto write = [durability](const std::filesystem::path& path, std::string_view text) {
        writeFileAtomically(path, text, durability);
    };
    const std::string text = writeDocumentText(document);
    if (!document.isDirectory) {
        write(folder / document.filename, text);
    } else {
        const std::filesystem::path target = folder / document.filename;
        std::filesystem::create_directories(target);
        write(target / "_metadata.ozdf", text);
        for (const Element& element : document.elements) {
            if (element.kind != ElementKind::ExternalList) {
                continue;
            }
            for (const auto& [name, contents] : writeParts(element, emptyNames)) {
                write(target / name, contents);
            }
        }
    }
    if (durability == Durability::Deferred) {
        // One sync for all the files, not one per part file.
        syncFileSystemOf(document.isDirectory ? folder / document.filename : folder);
    }
}

}  // namespace strata::ozdf
