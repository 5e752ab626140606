// What Strata needs to know about one ZDS document's JSON text: is it JSON, is it an object,
// its `_id`, and keys repeated within one object. One SAX pass, no DOM.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace strata::zds {

struct JsonLineFacts {
    bool valid = false;     // one complete JSON value and nothing else but whitespace
    bool isObject = false;  // and that value is an object
    std::string error;      // the parser's message when !valid
    std::uint64_t errorOffset = 0;
    bool hasId = false;                      // the top-level object has an `_id` key
    bool idIsString = false;                 // ... whose value is a string
    std::string id;                          // decoded (escapes resolved)
    std::vector<std::string> duplicateKeys;  // first few keys seen twice in one object
};

JsonLineFacts analyzeJsonLine(std::span<const std::uint8_t> text);

// The `_id` of a new document when simdjson's full parse proves what analyzeJsonLine would
// find: one valid JSON object, nested well within analyzeJsonLine's limit, whose last top-level
// `_id` is a string (decoded). Nothing when the fast parse cannot prove it (any error, deep
// nesting, or a `\u` escape, whose surrogate rules the two parsers may treat differently): the
// caller then asks analyzeJsonLine for the answer and the message. Safe on several threads.
std::optional<std::string> provenDocumentId(std::span<const std::uint8_t> text);

// The id the reference's byte scan would take from a line: the bytes after the first literal
// `"_id":"` up to the next `"`, undecoded; nothing when the pattern is absent.
std::optional<std::string> referenceScanId(std::span<const std::uint8_t> line);

// A docs/ file's text (whose `_id` is its file name) as the JSONL line of the same document:
// whitespace outside strings removed, `_id` inserted first unless the text has one. Nothing
// (and the reason in `error`) when the text is not one JSON object.
std::optional<std::string> docsFileAsLine(std::span<const std::uint8_t> text, const std::string& id,
                                          std::string* error = nullptr);

}  // namespace strata::zds
