#include "ozdf_text.h"

#include <vector>

#include "formats/common/icu_library.h"

namespace strata::ozdf {

namespace {

std::uint8_t byteAt(std::string_view bytes, std::size_t at) {
    return static_cast<std::uint8_t>(bytes[at]);
}

bool isContinuation(std::string_view bytes, std::size_t at) {
    return at < bytes.size() && (byteAt(bytes, at) & 0xC0U) == 0x80U;
}

}  // namespace

DecodedChar decodeUtf8(std::string_view bytes, std::size_t at) {
    const std::uint8_t lead = byteAt(bytes, at);
    if (lead < 0x80U) {
        return {lead, 1, true};
    }
    std::size_t length = 0;
    char32_t value = 0;
    char32_t minimum = 0;
    if ((lead & 0xE0U) == 0xC0U) {
        length = 2;
        value = lead & 0x1FU;
        minimum = 0x80;
    } else if ((lead & 0xF0U) == 0xE0U) {
        length = 3;
        value = lead & 0x0FU;
        minimum = 0x800;
    } else if ((lead & 0xF8U) == 0xF0U) {
        length = 4;
        value = lead & 0x07U;
        minimum = 0x10000;
    } else {
        return {0xFFFD, 1, false};
    }
    for (std::size_t i = 1; i < length; ++i) {
        if (!isContinuation(bytes, at + i)) {
            return {0xFFFD, 1, false};
        }
        value = (value << 6U) | (byteAt(bytes, at + i) & 0x3FU);
    }
    if (value < minimum || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF)) {
        return {0xFFFD, 1, false};
    }
    return {value, length, true};
}

void appendUtf8(std::string& out, char32_t cp) {
    if (cp < 0x80) {
        out.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
        out.push_back(static_cast<char>(0xC0U | (cp >> 6U)));
        out.push_back(static_cast<char>(0x80U | (cp & 0x3FU)));
    } else if (cp < 0x10000) {
        out.push_back(static_cast<char>(0xE0U | (cp >> 12U)));
        out.push_back(static_cast<char>(0x80U | ((cp >> 6U) & 0x3FU)));
        out.push_back(static_cast<char>(0x80U | (cp & 0x3FU)));
    } else {
        out.push_back(static_cast<char>(0xF0U | (cp >> 18U)));
        out.push_back(static_cast<char>(0x80U | ((cp >> 12U) & 0x3FU)));
        out.push_back(static_cast<char>(0x80U | ((cp >> 6U) & 0x3FU)));
        out.push_back(static_cast<char>(0x80U | (cp & 0x3FU)));
    }
}

bool isOzdfSpace(char32_t c) {
    return (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x20) || c == 0x85 || c == 0xA0 ||
           c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 ||
           c == 0x202F || c == 0x205F || c == 0x3000;
}

namespace {

// ASCII bytes are most of every corpus: classified without decoding.
bool isAscii(char c) {
    return static_cast<unsigned char>(c) < 0x80U;
}

bool isAsciiSpace(char c) {
    const auto b = static_cast<unsigned char>(c);
    return (b >= 0x09U && b <= 0x0DU) || (b >= 0x1CU && b <= 0x20U);
}

}  // namespace

Trimmed trimSpaces(std::string_view bytes) {
    std::size_t begin = 0;
    std::size_t end = 0;
    bool seenText = false;
    for (std::size_t at = 0; at < bytes.size();) {
        if (isAscii(bytes[at])) {
            if (!isAsciiSpace(bytes[at])) {
                begin = seenText ? begin : at;
                seenText = true;
                end = at + 1;
            }
            ++at;
            continue;
        }
        const DecodedChar ch = decodeUtf8(bytes, at);
        const bool space = ch.valid && isOzdfSpace(ch.codePoint);
        if (!space) {
            if (!seenText) {
                begin = at;
                seenText = true;
            }
            end = at + ch.length;
        }
        at += ch.length;
    }
    if (!seenText) {
        return {bytes.size(), bytes.size()};
    }
    return {begin, end};
}

namespace {

// The state of scanLine between characters.
struct LineScanState {
    ScannedLine& out;
    bool seenText = false;
    bool previousSpace = false;
    bool oddRun = false;  // the current whitespace run, if text follows, collapses

    void text(std::size_t at, std::size_t length) {
        if (!seenText) {
            out.textBegin = at;
            seenText = true;
        }
        out.collapsible = out.collapsible || oddRun;
        oddRun = false;
        previousSpace = false;
        out.textEnd = at + length;
    }

    void space(char32_t codePoint) {
        if (seenText) {
            oddRun = oddRun || previousSpace || codePoint != U' ';
            previousSpace = true;
        }
    }
};

}  // namespace

ScannedLine scanLine(std::string_view bytes, std::size_t from) {
    ScannedLine out;
    LineScanState state{out};
    const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
    const std::size_t size = bytes.size();
    std::size_t at = from;
    while (at < size) {
        // Most bytes are printable ASCII: a run of them is one text() call.
        const std::size_t run = at;
        while (at < size && data[at] > 0x20U && data[at] < 0x80U) {
            ++at;
        }
        if (at != run) {
            state.text(run, at - run);
            continue;
        }
        const unsigned char b = data[at];
        if (b == '\n' || b == '\r') {
            break;
        }
        if (b < 0x80U) {
            if (isAsciiSpace(static_cast<char>(b))) {
                state.space(b);
            } else {
                state.text(at, 1);  // control characters other than whitespace are text
            }
            ++at;
            continue;
        }
        const DecodedChar ch = decodeUtf8(bytes, at);
        out.invalidUtf8 = out.invalidUtf8 || !ch.valid;
        if (ch.valid && isOzdfSpace(ch.codePoint)) {
            state.space(ch.codePoint);
        } else {
            state.text(at, ch.length);
        }
        at += ch.length;
    }
    out.end = at;
    out.next = at < size ? at + 1 : at;
    if (at < size && data[at] == '\r' && out.next < size && data[out.next] == '\n') {
        ++out.next;
    }
    if (!state.seenText) {
        out.textBegin = at;
        out.textEnd = at;
    }
    return out;
}

std::string sanitizeUtf8(std::string_view bytes) {
    std::size_t asciiPrefix = 0;
    while (asciiPrefix < bytes.size() && isAscii(bytes[asciiPrefix])) {
        ++asciiPrefix;
    }
    if (asciiPrefix == bytes.size()) {
        return std::string(bytes);
    }
    std::string out;
    out.reserve(bytes.size());
    out.append(bytes.substr(0, asciiPrefix));
    for (std::size_t at = asciiPrefix; at < bytes.size();) {
        if (isAscii(bytes[at])) {
            out.push_back(bytes[at++]);
            continue;
        }
        const DecodedChar ch = decodeUtf8(bytes, at);
        if (ch.valid) {
            out.append(bytes.substr(at, ch.length));
        } else {
            appendUtf8(out, 0xFFFD);
        }
        at += ch.length;
    }
    return out;
}

bool hasCollapsibleSpace(std::string_view text) {
    bool previousSpace = false;
    for (std::size_t at = 0; at < text.size();) {
        if (isAscii(text[at])) {
            const bool space = isAsciiSpace(text[at]);
            if (space && (previousSpace || text[at] != ' ')) {
                return true;
            }
            previousSpace = space;
            ++at;
            continue;
        }
        const DecodedChar ch = decodeUtf8(text, at);
        const bool space = ch.valid && isOzdfSpace(ch.codePoint);
        if (space && (previousSpace || ch.codePoint != U' ')) {
            return true;
        }
        previousSpace = space;
        at += ch.length;
    }
    return false;
}

std::string collapseSpaces(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    bool pendingSpace = false;
    for (std::size_t at = 0; at < text.size();) {
        if (isAscii(text[at])) {
            if (isAsciiSpace(text[at])) {
                pendingSpace = !out.empty();
            } else {
                if (pendingSpace) {
                    out.push_back(' ');
                    pendingSpace = false;
                }
                out.push_back(text[at]);
            }
            ++at;
            continue;
        }
        const DecodedChar ch = decodeUtf8(text, at);
        if (ch.valid && isOzdfSpace(ch.codePoint)) {
            pendingSpace = !out.empty();
        } else {
            if (pendingSpace) {
                out.push_back(' ');
                pendingSpace = false;
            }
            out.append(text.substr(at, ch.length));
        }
        at += ch.length;
    }
    return out;
}

std::string upperCase(std::string_view text) {
    if (text.empty()) {
        return {};
    }
    const IcuLibrary& icu = icuLibrary();
    UErrorCode status = U_ZERO_ERROR;
    int32_t utf16Length = 0;
    const auto inputLength =
        static_cast<int32_t>(std::min<std::size_t>(text.size(), INT32_MAX / 4));
    icu.strFromUtf8(nullptr, 0, &utf16Length, text.data(), inputLength, &status);
    status = U_ZERO_ERROR;
    std::vector<UChar> utf16(static_cast<std::size_t>(utf16Length) + 1);
    icu.strFromUtf8(utf16.data(), static_cast<int32_t>(utf16.size()), &utf16Length, text.data(),
                    inputLength, &status);
    if (U_FAILURE(status)) {
        return std::string(text);
    }
    // Upper-casing grows a string by at most a factor of three (SpecialCasing).
    std::vector<UChar> upper(static_cast<std::size_t>(utf16Length) * 3 + 1);
    status = U_ZERO_ERROR;
    const int32_t upperLength = icu.strToUpper(upper.data(), static_cast<int32_t>(upper.size()),
                                               utf16.data(), utf16Length, "", &status);
    if (U_FAILURE(status)) {
        return std::string(text);
    }
    std::string out;
    int32_t outLength = 0;
    status = U_ZERO_ERROR;
    icu.strToUtf8(nullptr, 0, &outLength, upper.data(), upperLength, &status);
    out.resize(static_cast<std::size_t>(outLength));
    status = U_ZERO_ERROR;
    icu.strToUtf8(out.data(), outLength, &outLength, upper.data(), upperLength, &status);
    if (U_FAILURE(status) && status != U_STRING_NOT_TERMINATED_WARNING) {
        return std::string(text);
    }
    return out;
}

int decimalDigitValue(char32_t codePoint) {
    if (codePoint > 0x10FFFF) {
        return -1;
    }
    const auto c = static_cast<UChar32>(codePoint);
    const IcuLibrary& icu = icuLibrary();
    return icu.isDigit(c) ? icu.charDigitValue(c) : -1;
}

}  // namespace strata::ozdf
