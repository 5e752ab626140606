#include "data_decoders.h"

#include <QDateTime>

#include <array>
#include <bit>
#include <charconv>
#include <cmath>

namespace strata::gui {
namespace {

template <typename T>
T loadLe(std::span<const std::uint8_t> bytes) {
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i) {
        v |= std::uint64_t{bytes[i]} << (8 * i);
    }
    return static_cast<T>(v);
}

template <typename T>
T loadBe(std::span<const std::uint8_t> bytes) {
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i) {
        v = (v << 8) | bytes[i];
    }
    return static_cast<T>(v);
}

// Shortest text that reads back as the same value.
template <typename F>
QString shortestText(F value) {
    if (std::isnan(value)) {
        return QStringLiteral("NaN");
    }
    if (std::isinf(value)) {
        return value < 0 ? QStringLiteral("-inf") : QStringLiteral("inf");
    }
    std::array<char, 64> buf{};
    const auto result = std::to_chars(buf.data(), buf.data() + buf.size(), value);
    return QString::fromLatin1(buf.data(), static_cast<int>(result.ptr - buf.data()));
}

// Decodes one code point; returns its length, or 0 for an invalid or truncated sequence.
int decodeCodePoint(std::span<const std::uint8_t> bytes, char32_t& cp) {
    if (bytes.empty()) {
        return 0;
    }
    const std::uint8_t lead = bytes[0];
    int length = 0;
    char32_t min = 0;
    if (lead < 0x80) {
        cp = lead;
        return 1;
    } else if ((lead & 0xE0) == 0xC0) {
        length = 2, cp = lead & 0x1F, min = 0x80;
    } else if ((lead & 0xF0) == 0xE0) {
        length = 3, cp = lead & 0x0F, min = 0x800;
    } else if ((lead & 0xF8) == 0xF0) {
        length = 4, cp = lead & 0x07, min = 0x10000;
    } else {
        return 0;
    }
    if (bytes.size() < static_cast<std::size_t>(length)) {
        return 0;
    }
    for (int i = 1; i < length; ++i) {
        if ((bytes[i] & 0xC0) != 0x80) {
            return 0;
        }
        cp = (cp << 6) | (bytes[i] & 0x3F);
    }
    const bool surrogate = cp >= 0xD800 && cp <= 0xDFFF;
    if (cp < min || cp > 0x10FFFF || surrogate) {
        return 0;
    }
    return length;
}

QString codePointText(char32_t cp) {
    return QString::fromUcs4(&cp, 1);
}

QString byteCountText(int n) {
    return n == 1 ? QObject::tr("1 byte") : QObject::tr("%1 bytes").arg(n);
}

QString tooFew() {
    return QObject::tr("(not enough bytes)");
}

}  // namespace

double halfToDouble(std::uint16_t bits) {
    const bool negative = (bits & 0x8000) != 0;
    const int exponent = (bits >> 10) & 0x1F;
    const int mantissa = bits & 0x3FF;
    double magnitude = 0;
    if (exponent == 0) {
        magnitude = std::ldexp(mantissa, -24);
    } else if (exponent == 0x1F) {
        magnitude = mantissa == 0 ? INFINITY : NAN;
    } else {
        magnitude = std::ldexp(1024 + mantissa, exponent - 25);
    }
    return negative ? -magnitude : magnitude;
}

double bfloat16ToDouble(std::uint16_t bits) {
    return std::bit_cast<float>(std::uint32_t{bits} << 16);
}

std::optional<Uleb128> decodeUleb128(std::span<const std::uint8_t> bytes) {
    Uleb128 out;
    constexpr std::size_t kMaxBytes = 10;
    for (std::size_t i = 0; i < bytes.size() && i < kMaxBytes; ++i) {
        const std::uint8_t b = bytes[i];
        const std::uint64_t payload = b & 0x7F;
        const unsigned shift = static_cast<unsigned>(7 * i);
        if (shift == 63 && payload > 1) {
            out.overflow = true;
        }
        if (shift < 64) {
            out.value |= payload << shift;
        }
        if ((b & 0x80) == 0) {
            out.length = static_cast<int>(i + 1);
            // A trailing zero byte after at least one continuation adds nothing.
            out.nonShortest = i > 0 && payload == 0;
            return out;
        }
    }
    return std::nullopt;
}

QString unixTimeToIso(std::int64_t seconds) {
    constexpr std::int64_t kYear1 = -62135596800;     // 0001-01-01T00:00:00Z
    constexpr std::int64_t kYear9999 = 253402300799;  // 9999-12-31T23:59:59Z
    if (seconds < kYear1 || seconds > kYear9999) {
        return {};
    }
    return QDateTime::fromSecsSinceEpoch(seconds, Qt::UTC).toString(Qt::ISODate);
}

QString describeUtf8CodePoint(std::span<const std::uint8_t> bytes) {
    char32_t cp = 0;
    const int length = decodeCodePoint(bytes, cp);
    if (length == 0) {
        return QObject::tr("(invalid UTF-8)");
    }
    const QString code = QStringLiteral("U+%1").arg(static_cast<uint>(cp), 4, 16, QChar('0'));
    const bool printable = cp >= 0x20 && cp != 0x7F && !(cp >= 0x80 && cp < 0xA0);
    const QString shown = printable ? QStringLiteral(" '%1'").arg(codePointText(cp)) : QString();
    return QStringLiteral("%1%2 (%3)").arg(code.toUpper(), shown, byteCountText(length));
}

QString utf8Prefix(std::span<const std::uint8_t> bytes, int maxChars) {
    QString out;
    std::size_t pos = 0;
    for (int n = 0; n < maxChars && pos < bytes.size(); ++n) {
        char32_t cp = 0;
        const int length = decodeCodePoint(bytes.subspan(pos), cp);
        if (length == 0 || cp < 0x20 || cp == 0x7F) {
            break;
        }
        out += codePointText(cp);
        pos += static_cast<std::size_t>(length);
    }
    return out;
}

namespace {

template <typename T>
void addInteger(QList<DecodedValue>& out, const char* name, std::span<const std::uint8_t> bytes) {
    constexpr int width = sizeof(T);
    if (bytes.size() < sizeof(T)) {
        out.append({QString::fromLatin1(name) + QStringLiteral(" LE"), tooFew(), width});
        out.append({QString::fromLatin1(name) + QStringLiteral(" BE"), tooFew(), width});
        return;
    }
    if constexpr (sizeof(T) == 1) {
        out.append({QString::fromLatin1(name), QString::number(static_cast<T>(bytes[0])), 1});
    } else {
        out.append({QString::fromLatin1(name) + QStringLiteral(" LE"),
                    QString::number(loadLe<T>(bytes)), width});
        out.append({QString::fromLatin1(name) + QStringLiteral(" BE"),
                    QString::number(loadBe<T>(bytes)), width});
    }
}

template <typename Bits, typename Convert>
void addFloat(QList<DecodedValue>& out, const char* name, std::span<const std::uint8_t> bytes,
              Convert convert) {
    constexpr int width = sizeof(Bits);
    const QString base = QString::fromLatin1(name);
    if (bytes.size() < sizeof(Bits)) {
        out.append({base + QStringLiteral(" LE"), tooFew(), width});
        out.append({base + QStringLiteral(" BE"), tooFew(), width});
        return;
    }
    out.append({base + QStringLiteral(" LE"), shortestText(convert(loadLe<Bits>(bytes))), width});
    out.append({base + QStringLiteral(" BE"), shortestText(convert(loadBe<Bits>(bytes))), width});
}

void addUleb(QList<DecodedValue>& out, std::span<const std::uint8_t> bytes) {
    const auto uleb = decodeUleb128(bytes);
    if (!uleb) {
        out.append({QStringLiteral("uleb128"), QObject::tr("(unterminated)"), 0});
        return;
    }
    QString text =
        QStringLiteral("%1 (%2)").arg(QString::number(uleb->value), byteCountText(uleb->length));
    if (uleb->nonShortest) {
        text += QObject::tr(", non-shortest");
    }
    if (uleb->overflow) {
        text += QObject::tr(", overflows 64 bits");
    }
    out.append({QStringLiteral("uleb128"), text, uleb->length});
}

void addUnixTime(QList<DecodedValue>& out, std::span<const std::uint8_t> bytes) {
    if (bytes.size() >= 4) {
        const QString iso = unixTimeToIso(loadLe<std::uint32_t>(bytes));
        out.append({QObject::tr("unix time u32 LE"), iso, 4});
    }
    if (bytes.size() >= 8) {
        const auto seconds = loadLe<std::uint64_t>(bytes);
        QString iso;
        if (seconds <= static_cast<std::uint64_t>(INT64_MAX)) {
            iso = unixTimeToIso(static_cast<std::int64_t>(seconds));
        }
        out.append({QObject::tr("unix time u64 LE"),
                    iso.isEmpty() ? QObject::tr("(out of range)") : iso, 8});
    }
}

}  // namespace

QList<DecodedValue> decodeAll(std::span<const std::uint8_t> bytes) {
    QList<DecodedValue> out;
    addInteger<std::uint8_t>(out, "u8", bytes);
    addInteger<std::int8_t>(out, "i8", bytes);
    addInteger<std::uint16_t>(out, "u16", bytes);
    addInteger<std::int16_t>(out, "i16", bytes);
    addInteger<std::uint32_t>(out, "u32", bytes);
    addInteger<std::int32_t>(out, "i32", bytes);
    addInteger<std::uint64_t>(out, "u64", bytes);
    addInteger<std::int64_t>(out, "i64", bytes);
    addFloat<std::uint16_t>(out, "f16", bytes, halfToDouble);
    addFloat<std::uint16_t>(out, "bf16", bytes, bfloat16ToDouble);
    addFloat<std::uint32_t>(out, "f32", bytes,
                            [](std::uint32_t v) { return std::bit_cast<float>(v); });
    addFloat<std::uint64_t>(out, "f64", bytes,
                            [](std::uint64_t v) { return std::bit_cast<double>(v); });
    addUleb(out, bytes);
    char32_t cp = 0;
    out.append({QObject::tr("UTF-8 code point"), describeUtf8CodePoint(bytes),
                decodeCodePoint(bytes, cp)});
    const QString text = utf8Prefix(bytes);
    out.append({QObject::tr("UTF-8 text"), QStringLiteral("\"%1\"").arg(text),
                static_cast<int>(text.toUtf8().size())});
    addUnixTime(out, bytes);
    return out;
}

}  // namespace strata::gui
