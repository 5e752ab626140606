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

// Why `name` cannot be the name of an external list, or "": its parts are found with the glob
// `<KEY>-*.ozdp`, so a glob metacharacter (`*`, `?`, `[`) would make the reference miss them or
// pick up other files, and a `/` or NUL cannot be part of a file name.
std::string externalListNameProblem(std::string_view name);

// The name an item of an external list reads back with: its part's NAME block holds paragraphs,
// so the name is normalised like text (each paragraph's whitespace collapsed, paragraphs joined
// by a blank line); unset when nothing is left. Throws EditError for invalid UTF-8 or a
// paragraph starting with `###` or `===`.
std::optional<std::string> partItemName(std::string_view name);

void insertElement(Document& document, std::size_t at, ElementKind kind, std::string_view name);
void removeElement(Document& document, std::size_t index);
void renameElement(Document& document, std::size_t index, std::string_view name);
void moveElement(Document& document, std::size_t from, std::size_t to);
void setCommentText(Document& document, std::size_t index, std::string_view text);

// `name` unset or empty: an unnamed item. Items of an external list get the name their part
// will read back with (see partItemName).
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

// A list block becomes an external list (directory documents only) and back. Refused when an
// item name would not read back the same from the other place (an inline item name is one
// line; a part's NAME is normalised text), or when the name does not suit part files.
void toggleExternalList(Document& document, std::size_t element);
// A standalone document becomes a directory document (`book.ozdf` → `book`) and back
// (external lists become inline lists, `book` → `book.ozdf`; refused when an item name spans
// several paragraphs, which an inline item name cannot).
void toggleDirectoryDocument(Document& document);
// The file name toggleDirectoryDocument would give.
std::string toggledFileName(const Document& document);

}  // namespace strata::ozdf
