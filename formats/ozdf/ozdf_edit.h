// Content edits of an OZDF document: blocks, lists, items and paragraphs added, removed,
// renamed, reordered and rewritten; lists turned into external lists and back; standalone
// documents turned into directory documents and back. Every edit keeps the document writable:
// what would not read back the same (a block named `[X]`, a paragraph starting with `###`, two
// lists with the same name or part file key) is refused with EditError and changes nothing.
#pragma once

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "ozdf_document.h"

namespace strata::ozdf {

class EditError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Where paragraphs live: an element's own (`item` unset: plain blocks) or one item's.
struct ParagraphOwner {
    std::size_t element = 0;
    std::optional<std::size_t> item;
};

// Text as the reader will see it: split at blank lines into paragraphs, each with its
// whitespace collapsed. Throws EditError for invalid UTF-8 or a paragraph starting with `###`
// or `===`.
std::vector<std::string> normaliseText(std::string_view text);

// A block or list name as it will be stored (trimmed, upper-cased). Throws EditError for an
// empty block name (lists may have an empty name: `#### []`), a line break, or a name that
// would read back as another kind.
std::string checkedElementName(std::string_view name, ElementKind kind);

void insertElement(Document& document, std::size_t at, ElementKind kind, std::string_view name);
void removeElement(Document& document, std::size_t index);
void renameElement(Document& document, std::size_t index, std::string_view name);
void moveElement(Document& document, std::size_t from, std::size_t to);
void setCommentText(Document& document, std::size_t index, std::string_view text);

// `name` unset or empty: an unnamed item.
void insertItem(Document& document, std::size_t element, std::size_t at,
                std::optional<std::string> name);
void removeItem(Document& document, std::size_t element, std::size_t item);
void renameItem(Document& document, std::size_t element, std::size_t item,
                std::optional<std::string> name);
void moveItem(Document& document, std::size_t element, std::size_t from, std::size_t to);

void insertParagraph(Document& document, const ParagraphOwner& owner, std::size_t at,
                     std::string_view text);
void removeParagraph(Document& document, const ParagraphOwner& owner, std::size_t index);
void moveParagraph(Document& document, const ParagraphOwner& owner, std::size_t from,
                   std::size_t to);
// Replaces one paragraph with the paragraphs `text` normalises to (none removes it).
void setParagraphText(Document& document, const ParagraphOwner& owner, std::size_t index,
                      std::string_view text);

// A list block becomes an external list (directory documents only) and back.
void toggleExternalList(Document& document, std::size_t element);
// A standalone document becomes a directory document (`book.ozdf` → `book`) and back
// (external lists become inline lists, `book` → `book.ozdf`).
void toggleDirectoryDocument(Document& document);
// The file name toggleDirectoryDocument would give.
std::string toggledFileName(const Document& document);

}  // namespace strata::ozdf
