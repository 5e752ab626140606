// Text rules of OZDF: strict UTF-8 decoding, the Unicode whitespace set used for stripping and
// collapsing, and full Unicode upper-casing of block names.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace strata::ozdf {

// One decoded code point. `length` bytes were consumed (at least 1); `valid` is false for a
// byte that does not start a well-formed UTF-8 sequence (overlong forms, surrogates and values
// above U+10FFFF included), in which case exactly one byte is consumed.
struct DecodedChar {
    char32_t codePoint = 0;
    std::size_t length = 1;
    bool valid = true;
};

DecodedChar decodeUtf8(std::string_view bytes, std::size_t at);

// Appends the UTF-8 form of `codePoint`.
void appendUtf8(std::string& out, char32_t codePoint);

// The whitespace that OZDF strips from lines and collapses in paragraphs: tab to carriage
// return, U+001C..U+001F, space, U+0085, NBSP, U+1680, U+2000..U+200A, U+2028, U+2029, U+202F,
// U+205F, U+3000.
bool isOzdfSpace(char32_t codePoint);

// Byte range [begin, end) of `bytes` without leading and trailing OZDF whitespace. Invalid
// UTF-8 bytes count as text.
struct Trimmed {
    std::size_t begin = 0;
    std::size_t end = 0;
};
Trimmed trimSpaces(std::string_view bytes);

// One line of `bytes` from `from`, classified in a single pass (what trimSpaces,
// hasCollapsibleSpace and a UTF-8 check would find, without reading the bytes three times).
// Offsets are into `bytes`.
struct ScannedLine {
    std::size_t end = 0;        // where the content stops: at "\r", "\n" or the end of `bytes`
    std::size_t next = 0;       // where the following line starts ("\r\n" is one break)
    std::size_t textBegin = 0;  // the content without leading and trailing OZDF whitespace;
    std::size_t textEnd = 0;    // both equal `end` when the line is blank
    bool invalidUtf8 = false;   // a byte that is not well-formed UTF-8 (it counts as text)
    bool collapsible = false;   // the stripped text holds a whitespace run other than one space
};
ScannedLine scanLine(std::string_view bytes, std::size_t from);

// `bytes` with every invalid UTF-8 byte replaced by U+FFFD.
std::string sanitizeUtf8(std::string_view bytes);

// True when `text` (valid UTF-8) holds a whitespace run other than one plain space.
bool hasCollapsibleSpace(std::string_view text);

// Every run of OZDF whitespace replaced by one space, leading/trailing ones removed.
std::string collapseSpaces(std::string_view text);

// Full Unicode upper-case mapping (SpecialCasing included: "straße" → "STRASSE"), as block
// names are compared and stored. `text` must be valid UTF-8.
std::string upperCase(std::string_view text);

// The value of a decimal digit (Unicode category Nd, any script), or -1.
int decimalDigitValue(char32_t codePoint);

}  // namespace strata::ozdf
