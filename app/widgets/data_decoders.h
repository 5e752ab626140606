// Pure decoders behind the data inspector: what the bytes at the cursor mean as integers,
// floats, LEB128, text and timestamps. No widgets, so tests and other views can call them.
#pragma once

#include <QList>
#include <QString>

#include <cstdint>
#include <optional>
#include <span>

namespace strata::gui {

// IEEE 754 binary16 and bfloat16 to double (exact: both widen without rounding).
double halfToDouble(std::uint16_t bits);
double bfloat16ToDouble(std::uint16_t bits);

struct Uleb128 {
    std::uint64_t value = 0;
    int length = 0;            // bytes consumed
    bool nonShortest = false;  // a shorter encoding of the same value exists
    bool overflow = false;     // more than 64 bits of payload
};

// Decodes an unsigned LEB128 from the start of `bytes`; nothing when it runs off the end
// (or past 10 bytes) without a terminating byte.
std::optional<Uleb128> decodeUleb128(std::span<const std::uint8_t> bytes);

// Seconds since 1970-01-01 as ISO-8601 UTC ("2024-03-01T12:00:00Z"); empty when out of range.
QString unixTimeToIso(std::int64_t seconds);

// The first UTF-8 code point ("U+00E9 'é' (2 bytes)") or why there is none.
QString describeUtf8CodePoint(std::span<const std::uint8_t> bytes);
// Up to `maxChars` characters of valid UTF-8 from the start, stopping at the first invalid
// sequence or control character.
QString utf8Prefix(std::span<const std::uint8_t> bytes, int maxChars = 24);

// One line of the inspector table.
struct DecodedValue {
    QString name;
    QString value;
    int byteCount = 0;  // bytes the interpretation covers, for highlighting
};

// Every interpretation of the bytes at the cursor; entries whose width exceeds the bytes
// available say so instead of inventing a value.
QList<DecodedValue> decodeAll(std::span<const std::uint8_t> bytes);

}  // namespace strata::gui
