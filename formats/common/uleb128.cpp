#include "uleb128.h"

#include <array>

#include "byte_source.h"

namespace strata {

std::string_view uleb128StatusName(Uleb128Status status) {
    switch (status) {
        case Uleb128Status::Ok:
            return "ok";
        case Uleb128Status::Truncated:
            return "truncated";
        case Uleb128Status::NonShortest:
            return "non-shortest encoding";
        case Uleb128Status::Overflow:
            return "overflows 64 bits";
    }
    return "unknown";
}

Uleb128Result decodeUleb128(std::span<const std::uint8_t> bytes) {
    Uleb128Result result;
    std::uint64_t value = 0;
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        const std::uint8_t byte = bytes[i];
        result.length = i + 1;
        const std::uint64_t group = byte & 0x7fu;
        if (i == kUleb128MaxBytes - 1 && (byte & 0x80u) == 0 && group > 1) {
            result.status = Uleb128Status::Overflow;  // bits beyond 63 would be lost
            return result;
        }
        if (i == kUleb128MaxBytes - 1 && (byte & 0x80u) != 0) {
            result.status = Uleb128Status::Overflow;  // an eleventh byte would follow
            return result;
        }
        value |= group << (7 * i);
        if ((byte & 0x80u) == 0) {
            result.value = value;
            result.status = (byte == 0 && i > 0) ? Uleb128Status::NonShortest : Uleb128Status::Ok;
            return result;
        }
    }
    result.status = Uleb128Status::Truncated;
    return result;
}

Uleb128Result decodeUleb128At(const ByteSource& source, std::uint64_t offset) {
    std::array<std::uint8_t, kUleb128MaxBytes> buffer{};
    const std::size_t got = source.read(offset, buffer);
    return decodeUleb128(std::span<const std::uint8_t>(buffer.data(), got));
}

std::size_t uleb128Size(std::uint64_t value) {
    std::size_t size = 1;
    while (value >= 0x80) {
        value >>= 7;
        ++size;
    }
    return size;
}

std::size_t encodeUleb128(std::uint64_t value, std::span<std::uint8_t, kUleb128MaxBytes> out) {
    std::size_t i = 0;
    while (value >= 0x80) {
        out[i++] = static_cast<std::uint8_t>(value | 0x80u);
        value >>= 7;
    }
    out[i++] = static_cast<std::uint8_t>(value);
    return i;
}

void appendUleb128(std::vector<std::uint8_t>& out, std::uint64_t value) {
    std::array<std::uint8_t, kUleb128MaxBytes> buffer{};
    const std::size_t n = encodeUleb128(value, buffer);
    out.insert(out.end(), buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(n));
}

}  // namespace strata
