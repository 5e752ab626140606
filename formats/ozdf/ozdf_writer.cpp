#include "ozdf_writer.h"

#include "formats/common/atomic_file.h"
#include "ozdf_parser.h"
#include "ozdf_text.h"

namespace strata::ozdf {

namespace {

constexpr std::size_t kWrapWidth = 80;

void writeFileAtomically(const std::filesystem::path& path, std::string_view text) {
    AtomicFile file(path);
    file.write(text);
    file.commit();
}

std::size_t codePoints(std::string_view text) {
    std::size_t count = 0;
    for (const char c : text) {
        count += (static_cast<unsigned char>(c) & 0xC0U) != 0x80U ? 1 : 0;
    }
    return count;
}

bool reservedStart(std::string_view text) {
    return text.starts_with("###") || text.starts_with("===");
}

void checkLineText(std::string_view text, std::string_view what) {
    if (text.find_first_of("\r\n") != std::string_view::npos) {
        throw WriteError(std::string(what) + " contains a line break: '" + std::string(text) + "'");
    }
}

void checkParagraph(std::string_view paragraph) {
    if (reservedStart(paragraph)) {
        throw WriteError("a paragraph cannot start with '###' or '===': '" +
                         std::string(paragraph.substr(0, 40)) + "'");
    }
}

void writeParagraphs(std::string& out, const std::vector<Paragraph>& paragraphs) {
    for (const Paragraph& p : paragraphs) {
        const std::string text = collapseSpaces(p.text);
        checkParagraph(text);
        out += wrapParagraph(text);
        out += "\n\n";
    }
    if (paragraphs.empty()) {
        out += "\n\n";
    }
}

void writeElement(std::string& out, const Element& element, bool directory) {
    switch (element.kind) {
        case ElementKind::Comment:
            out += "#### COMMENT\n";
            out += element.text;
            out += "\n";
            return;
        case ElementKind::Block:
            checkLineText(element.name, "a block name");
            out += "#### " + element.name + "\n";
            writeParagraphs(out, element.paragraphs);
            return;
        case ElementKind::List:
            checkLineText(element.name, "a list name");
            out += "#### [" + element.name + "]\n";
            for (const Item& item : element.items) {
                if (item.name && !item.name->empty()) {
                    checkLineText(*item.name, "an item name");
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
            out += "#### [[" + element.name + "]]\n\n";
            return;
    }
}

}  // namespace

std::string wrapParagraph(std::string_view paragraph) {
    std::string out;
    std::size_t lineLength = 0;
    bool lineEmpty = true;
    std::size_t at = 0;
    while (at < paragraph.size()) {
        std::size_t end = paragraph.find(' ', at);
        if (end == std::string_view::npos) {
            end = paragraph.size();
        }
        const std::string_view word = paragraph.substr(at, end - at);
        at = end + 1;
        if (word.empty()) {
            continue;
        }
        const std::size_t length = codePoints(word);
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
    return out;
}

std::string writeDocumentText(const Document& document) {
    std::string out;
    for (const Element& element : document.elements) {
        writeElement(out, element, document.isDirectory);
    }
    return out;
}

std::vector<std::pair<std::string, std::string>> writeParts(const Element& externalList) {
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
            text += "#### NAME\n" + *item.name + "\n\n";
        }
        text += "#### DATA\n";
        for (std::size_t p = 0; p < item.paragraphs.size(); ++p) {
            checkParagraph(item.paragraphs[p].text);
            text += (p == 0 ? "" : "\n\n") + item.paragraphs[p].text;
        }
        text += "\n\n";
        parts.emplace_back(key + "-" + number + ".ozdp", std::move(text));
    }
    return parts;
}

void saveDocument(const Document& document, const std::filesystem::path& folder) {
    const std::string text = writeDocumentText(document);
    if (!document.isDirectory) {
        writeFileAtomically(folder / document.filename, text);
        return;
    }
    const std::filesystem::path target = folder / document.filename;
    std::filesystem::create_directories(target);
    writeFileAtomically(target / "_metadata.ozdf", text);
    for (const Element& element : document.elements) {
        if (element.kind != ElementKind::ExternalList) {
            continue;
        }
        for (const auto& [name, contents] : writeParts(element)) {
            writeFileAtomically(target / name, contents);
        }
    }
}

}  // namespace strata::ozdf
