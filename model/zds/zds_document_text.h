// Checks and reformats the JSON text of one ZDS document as the editor sees it: a JSON object
// with a string `_id` that follows the id rules. Errors carry a 1-based line and column.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace strata::model {

struct ZdsTextCheck {
    bool ok = false;
    std::string error;  // empty when ok
    int line = 0;       // 1-based position of a syntax error, 0 when not a syntax error
    int column = 0;
    std::string id;  // the decoded `_id` when the text is an object with a string `_id`
};

// Parses `text` and checks it is a single JSON object whose `_id` is a string following the
// ZDS id rules (uniqueness is the caller's business).
ZdsTextCheck checkZdsDocumentText(const std::string& text);

// The same JSON re-serialised on one line (compact) or indented (pretty); nothing when the
// text is not JSON. Key order is kept.
std::optional<std::string> compactJson(const std::string& text);
std::optional<std::string> prettyJson(const std::string& text);

// `text` (a JSON object) with `_id` set to `id`, compact; nothing when it is not an object.
std::optional<std::string> withId(const std::string& text, const std::string& id);

// `text` (a JSON object) with the value at `pointer` (RFC 6901) replaced by `valueJson`,
// creating missing object members; nothing when either side is not JSON or the pointer
// cannot be set.
std::optional<std::string> withField(const std::string& text, const std::string& pointer,
                                     const std::string& valueJson);

// 1-based line and column of byte `offset` in `text`.
void lineAndColumn(const std::string& text, std::uint64_t offset, int* line, int* column);

}  // namespace strata::model
