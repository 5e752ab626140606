// OZDF documents as JSON: the reference's dump shape (what `strata-cli ozdf dump` prints) and
// the JSONL interchange form of `ozdf export` / `ozdf import`, one document per line.
//
// A document is {"filename", "is_directory", "elements": [...]}; an element is
// {"kind": "block", "name", "paragraphs": [text...]},
// {"kind": "list" | "external_list", "name", "items": [{"name": text | null, "paragraphs"}]}
// or {"kind": "comment", "text"}.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <string_view>

#include "ozdf_document.h"

namespace strata::ozdf {

using OrderedJson = nlohmann::ordered_json;

// Thrown by the importers for JSON that is not a document of the shape above; what() says
// where (line number for JSONL).
class JsonImportError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class TreeReader;

OrderedJson documentJson(const Document& document);
// {"kind": "corpus", "documents": [...]}
OrderedJson corpusJson(const Corpus& corpus);
// What the reference's dump prints for `path`: {"kind": "document", "document": {...}} for a
// file or a folder with `_metadata.ozdf` (or the interrupted save marker), the corpus form for
// any other folder. Also returns whether the reference would read it (`accepted`).
OrderedJson dumpJson(const std::filesystem::path& path, bool* accepted);
// The same through a reader: `path` may then be a URL's text (see TreeReader).
OrderedJson dumpJson(const TreeReader& reader, const std::filesystem::path& path, bool* accepted);

// A document from its JSON form, built with the edits of ozdf_edit.h: names are trimmed and
// upper-cased and paragraphs normalised as the reader would store them (a paragraph holding a
// blank line becomes two), item names trimmed ("" is unnamed). What an edit refuses (a
// duplicate block, a paragraph starting with `###`, a comment line that would read as a
// header, an external list in a standalone document, an empty paragraph) throws
// JsonImportError naming the element.
Document documentFromJson(const nlohmann::ordered_json& json);

// One line per document, in corpus order.
void exportJsonl(const Corpus& corpus, std::ostream& out);
// Reads documents until the end of `in`; blank lines are skipped. Rejects unsafe or duplicate
// file names and standalone documents whose name does not end in `.ozdf` (a corpus would not
// read them back). Throws JsonImportError.
Corpus importJsonl(std::istream& in);

}  // namespace strata::ozdf
