#include "ozdf_edit.h"

#include <algorithm>
#include <iterator>

#include "ozdf_parser.h"
#include "ozdf_text.h"

namespace strata::ozdf {

namespace {

void requireIndex(std::size_t index, std::size_t size, const char* what) {
    if (index >= size) {
        throw EditError(std::string("no such ") + what + " (" + std::to_string(index) + ")");
    }
}

Element& elementAt(Document& document, std::size_t index) {
    requireIndex(index, document.elements.size(), "element");
    return document.elements[index];
}

Element& listAt(Document& document, std::size_t index) {
    Element& element = elementAt(document, index);
    if (element.kind != ElementKind::List && element.kind != ElementKind::ExternalList) {
        throw EditError("element " + std::to_string(index) + " is not a list");
    }
    return element;
}

std::vector<Paragraph>& paragraphsOf(Document& document, const ParagraphOwner& owner) {
    if (owner.item) {
        Element& list = listAt(document, owner.element);
        requireIndex(*owner.item, list.items.size(), "item");
        return list.items[*owner.item].paragraphs;
    }
    Element& element = elementAt(document, owner.element);
    if (element.kind != ElementKind::Block) {
        throw EditError("element " + std::to_string(owner.element) + " holds no paragraphs");
    }
    return element.paragraphs;
}

void requireValidUtf8(std::string_view text) {
    if (sanitizeUtf8(text) != text) {
        throw EditError("the text is not valid UTF-8");
    }
}

std::string trimmed(std::string_view text) {
    const Trimmed t = trimSpaces(text);
    return std::string(text.substr(t.begin, t.end - t.begin));
}

bool isListKind(ElementKind kind) {
    return kind == ElementKind::List || kind == ElementKind::ExternalList;
}

// Blocks clash with blocks, lists with lists (inline or external), and external lists with
// external lists whose part files would share a key.
void requireUnique(const Document& document, std::size_t self, ElementKind kind,
                   const std::string& name) {
    for (std::size_t i = 0; i < document.elements.size(); ++i) {
        const Element& other = document.elements[i];
        if (i == self || other.kind == ElementKind::Comment) {
            continue;
        }
        if (isListKind(kind) == isListKind(other.kind) && other.name == name) {
            throw EditError("a " + std::string(isListKind(kind) ? "list" : "block") + " named " +
                            name + " already exists");
        }
        if (kind == ElementKind::ExternalList && other.kind == ElementKind::ExternalList &&
            partFileKey(other.name) == partFileKey(name)) {
            throw EditError("external lists " + name + " and " + other.name +
                            " would share the part files " + partFileKey(name) + "-*.ozdp");
        }
    }
}

// An inline item name as the reader keeps it: one line, trimmed.
std::optional<std::string> checkedItemName(std::optional<std::string> name) {
    if (!name) {
        return std::nullopt;
    }
    requireValidUtf8(*name);
    if (name->find_first_of("\r\n") != std::string::npos) {
        throw EditError("an item name cannot hold a line break");
    }
    std::string t = trimmed(*name);
    if (t.empty()) {
        return std::nullopt;
    }
    return t;
}

std::optional<std::string> checkedItemName(const Element& list, std::optional<std::string> name) {
    if (list.kind == ElementKind::ExternalList && name) {
        return partItemName(*name);
    }
    return checkedItemName(std::move(name));
}

// Every item name of `list` as it reads back once the list is `kind`; refused when one changes.
void requireItemNamesFor(const Element& list, ElementKind kind) {
    for (const Item& item : list.items) {
        if (!item.name || item.name->empty()) {
            continue;  // "" is written as no name on either side
        }
        Element target;
        target.kind = kind;
        std::optional<std::string> now;
        try {
            now = checkedItemName(target, item.name);
        } catch (const EditError& error) {
            throw EditError("item '" + *item.name + "': " + error.what());
        }
        if (now != item.name) {
            throw EditError("item name '" + *item.name + "' would read back as '" +
                            now.value_or("") + "' from " +
                            (kind == ElementKind::ExternalList ? "a part file" : "an inline list"));
        }
    }
}

void requireExternalListName(std::string_view name) {
    if (const std::string problem = externalListNameProblem(name); !problem.empty()) {
        throw EditError(problem);
    }
}

void move(auto& list, std::size_t from, std::size_t to, const char* what) {
    requireIndex(from, list.size(), what);
    requireIndex(to, list.size(), what);
    auto value = std::move(list[from]);
    list.erase(list.begin() + static_cast<std::ptrdiff_t>(from));
    list.insert(list.begin() + static_cast<std::ptrdiff_t>(to), std::move(value));
}

Paragraph makeParagraph(std::string text) {
    Paragraph p;
    p.text = std::move(text);
    return p;
}

}  // namespace

std::vector<std::string> normaliseText(std::string_view text) {
    requireValidUtf8(text);
    std::vector<std::string> out;
    std::string current;
    auto flush = [&] {
        std::string p = collapseSpaces(current);
        current.clear();
        if (p.empty()) {
            return;
        }
        if (p.starts_with("###") || p.starts_with("===")) {
            throw EditError("a paragraph cannot start with '###' or '===' (OZDF has no escape)");
        }
        out.push_back(std::move(p));
    };
    std::size_t at = 0;
    while (at <= text.size()) {
        std::size_t end = text.find_first_of("\r\n", at);
        if (end == std::string_view::npos) {
            end = text.size();
        }
        const std::string_view line = text.substr(at, end - at);
        const Trimmed t = trimSpaces(line);
        if (t.begin == t.end) {
            flush();
        } else {
            current += line;
            current += ' ';
        }
        if (end == text.size()) {
            break;
        }
        at = end + (text.substr(end).starts_with("\r\n") ? 2 : 1);
    }
    flush();
    return out;
}

std::string externalListNameProblem(std::string_view name) {
    const std::string key = partFileKey(name);
    if (key.find_first_of("*?[") != std::string::npos) {
        return "an external list name cannot hold '*', '?' or '[': its part files are found with "
               "the glob " +
               key + "-*.ozdp";
    }
    if (key.find_first_of(std::string_view("/\0", 2)) != std::string::npos) {
        return "an external list name cannot hold '/' or NUL: it names the part files";
    }
    return {};
}

std::optional<std::string> partItemName(std::string_view name) {
    const std::vector<std::string> paragraphs = normaliseText(name);
    if (paragraphs.empty()) {
        return std::nullopt;
    }
    std::string out = paragraphs.front();
    for (std::size_t i = 1; i < paragraphs.size(); ++i) {
        out += "\n\n";
        out += paragraphs[i];
    }
    return out;
}

std::string checkedElementName(std::string_view name, ElementKind kind) {
    requireValidUtf8(name);
    if (name.find_first_of("\r\n") != std::string_view::npos) {
        throw EditError("a name cannot hold a line break");
    }
    const std::string t = trimmed(name);
    // `#### []` is a list named "" (the reference reads it); a block needs a name.
    if (t.empty() && kind == ElementKind::Block) {
        throw EditError("a block name cannot be empty");
    }
    if (t.starts_with('[') && t.ends_with(']')) {
        throw EditError("a name in brackets would read back as another kind of block");
    }
    const std::string upper = upperCase(t);
    if (kind == ElementKind::Block && upper == "COMMENT") {
        throw EditError("a block named COMMENT would read back as a comment");
    }
    return upper;
}

void insertElement(Document& document, std::size_t at, ElementKind kind, std::string_view name) {
    requireIndex(at, document.elements.size() + 1, "position");
    Element element;
    element.kind = kind;
    if (kind == ElementKind::ExternalList && !document.isDirectory) {
        throw EditError("external lists need a directory document");
    }
    if (kind == ElementKind::Comment) {
        requireValidUtf8(name);
        element.text = std::string(name);
    } else {
        element.name = checkedElementName(name, kind);
        element.writtenName = element.name;
        if (kind == ElementKind::ExternalList) {
            requireExternalListName(element.name);
        }
        requireUnique(document, document.elements.size(), kind, element.name);
    }
    document.elements.insert(document.elements.begin() + static_cast<std::ptrdiff_t>(at),
                             std::move(element));
}

void removeElement(Document& document, std::size_t index) {
    requireIndex(index, document.elements.size(), "element");
    document.elements.erase(document.elements.begin() + static_cast<std::ptrdiff_t>(index));
}

void renameElement(Document& document, std::size_t index, std::string_view name) {
    Element& element = elementAt(document, index);
    if (element.kind == ElementKind::Comment) {
        throw EditError("comments have no name");
    }
    const std::string checked = checkedElementName(name, element.kind);
    if (element.kind == ElementKind::ExternalList) {
        requireExternalListName(checked);
    }
    requireUnique(document, index, element.kind, checked);
    element.name = checked;
    element.writtenName = checked;
}

void moveElement(Document& document, std::size_t from, std::size_t to) {
    move(document.elements, from, to, "element");
}

void setCommentText(Document& document, std::size_t index, std::string_view text) {
    Element& element = elementAt(document, index);
    if (element.kind != ElementKind::Comment) {
        throw EditError("element " + std::to_string(index) + " is not a comment");
    }
    requireValidUtf8(text);
    // A comment line that reads as a header or marker would end the comment.
    std::size_t at = 0;
    while (at <= text.size()) {
        const std::size_t end = std::min(text.find_first_of("\r\n", at), text.size());
        const std::string line = trimmed(text.substr(at, end - at));
        if (line.starts_with("###") || line.starts_with("===")) {
            throw EditError("a comment line cannot start with '###' or '==='");
        }
        at = end + 1;
    }
    element.text = std::string(text);
}

void insertItem(Document& document, std::size_t element, std::size_t at,
                std::optional<std::string> name) {
    Element& list = listAt(document, element);
    requireIndex(at, list.items.size() + 1, "position");
    Item item;
    item.name = checkedItemName(list, std::move(name));
    list.items.insert(list.items.begin() + static_cast<std::ptrdiff_t>(at), std::move(item));
}

void removeItem(Document& document, std::size_t element, std::size_t item) {
    Element& list = listAt(document, element);
    requireIndex(item, list.items.size(), "item");
    list.items.erase(list.items.begin() + static_cast<std::ptrdiff_t>(item));
}

void renameItem(Document& document, std::size_t element, std::size_t item,
                std::optional<std::string> name) {
    Element& list = listAt(document, element);
    requireIndex(item, list.items.size(), "item");
    list.items[item].name = checkedItemName(list, std::move(name));
}

void moveItem(Document& document, std::size_t element, std::size_t from, std::size_t to) {
    move(listAt(document, element).items, from, to, "item");
}

void insertParagraph(Document& document, const ParagraphOwner& owner, std::size_t at,
                     std::string_view text) {
    std::vector<Paragraph>& paragraphs = paragraphsOf(document, owner);
    requireIndex(at, paragraphs.size() + 1, "position");
    std::vector<std::string> texts = normaliseText(text);
    if (texts.empty()) {
        throw EditError("a paragraph needs text");
    }
    for (std::size_t i = 0; i < texts.size(); ++i) {
        paragraphs.insert(paragraphs.begin() + static_cast<std::ptrdiff_t>(at + i),
                          makeParagraph(std::move(texts[i])));
    }
}

void removeParagraph(Document& document, const ParagraphOwner& owner, std::size_t index) {
    std::vector<Paragraph>& paragraphs = paragraphsOf(document, owner);
    requireIndex(index, paragraphs.size(), "paragraph");
    paragraphs.erase(paragraphs.begin() + static_cast<std::ptrdiff_t>(index));
}

void moveParagraph(Document& document, const ParagraphOwner& owner, std::size_t from,
                   std::size_t to) {
    move(paragraphsOf(document, owner), from, to, "paragraph");
}

void setParagraphText(Document& document, const ParagraphOwner& owner, std::size_t index,
                      std::string_view text) {
    std::vector<Paragraph>& paragraphs = paragraphsOf(document, owner);
    requireIndex(index, paragraphs.size(), "paragraph");
    std::vector<std::string> texts = normaliseText(text);
    const auto at = paragraphs.begin() + static_cast<std::ptrdiff_t>(index);
    if (texts.empty()) {
        paragraphs.erase(at);
        return;
    }
    // In place: replacing every paragraph of a long block one by one (a replace-all) must not
    // shift the rest of the block twice each time.
    *at = makeParagraph(std::move(texts[0]));
    std::vector<Paragraph> more;
    for (std::size_t i = 1; i < texts.size(); ++i) {
        more.push_back(makeParagraph(std::move(texts[i])));
    }
    paragraphs.insert(at + 1, std::make_move_iterator(more.begin()),
                      std::make_move_iterator(more.end()));
}

void toggleExternalList(Document& document, std::size_t element) {
    Element& list = listAt(document, element);
    if (list.kind == ElementKind::ExternalList) {
        requireItemNamesFor(list, ElementKind::List);
        list.kind = ElementKind::List;
        return;
    }
    if (!document.isDirectory) {
        throw EditError("external lists need a directory document");
    }
    requireExternalListName(list.name);
    requireItemNamesFor(list, ElementKind::ExternalList);
    requireUnique(document, element, ElementKind::ExternalList, list.name);
    list.kind = ElementKind::ExternalList;
    for (Item& item : list.items) {
        item.partFile.clear();
    }
}

std::string toggledFileName(const Document& document) {
    if (document.isDirectory) {
        return document.filename + ".ozdf";
    }
    const std::string& name = document.filename;
    return name.ends_with(".ozdf") && name.size() > 5 ? name.substr(0, name.size() - 5)
                                                      : name + ".d";
}

void toggleDirectoryDocument(Document& document) {
    if (document.isDirectory) {
        for (const Element& element : document.elements) {
            if (element.kind == ElementKind::ExternalList) {
                requireItemNamesFor(element, ElementKind::List);
            }
        }
    }
    document.filename = toggledFileName(document);
    if (document.isDirectory) {
        for (Element& element : document.elements) {
            if (element.kind == ElementKind::ExternalList) {
                element.kind = ElementKind::List;
            }
        }
    }
    document.isDirectory = !document.isDirectory;
    document.sources.clear();
    document.diagnostics.clear();
}

}  // namespace strata::ozdf
