// Bounds-checked little-endian readers over byte spans and sources.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>

#include "bounds.h"
#include "byte_source.h"

namespace strata {

template <typename T>
constexpr T decodeLe(const std::uint8_t* p) {
    T value = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i) {
        value |= static_cast<T>(static_cast<T>(p[i]) << (8 * i));
    }
    return value;
}

template <typename T>
constexpr T decodeBe(const std::uint8_t* p) {
    T value = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i) {
        value = static_cast<T>((value << 8) | p[i]);
    }
    return value;
}

// Reads an unsigned little-endian integer at `offset`, or nothing when it does not fit.
template <typename T>
std::optional<T> readLe(std::span<const std::uint8_t> bytes, std::uint64_t offset) {
    if (!rangeFits(offset, sizeof(T), bytes.size())) {
        return std::nullopt;
    }
    return decodeLe<T>(bytes.data() + offset);
}

template <typename T>
std::optional<T> readLe(const ByteSource& source, std::uint64_t offset) {
    std::array<std::uint8_t, sizeof(T)> buffer{};
    if (source.read(offset, buffer) != sizeof(T)) {
        return std::nullopt;
    }
    return decodeLe<T>(buffer.data());
}

inline std::optional<float> readF32le(std::span<const std::uint8_t> bytes, std::uint64_t offset) {
    const auto bits = readLe<std::uint32_t>(bytes, offset);
    if (!bits) {
        return std::nullopt;
    }
    float value = 0;
    std::memcpy(&value, &*bits, sizeof value);
    return value;
}

inline std::optional<double> readF64le(std::span<const std::uint8_t> bytes, std::uint64_t offset) {
    const auto bits = readLe<std::uint64_t>(bytes, offset);
    if (!bits) {
        return std::nullopt;
    }
    double value = 0;
    std::memcpy(&value, &*bits, sizeof value);
    return value;
}

// A forward cursor for sequential parsing. Once a read falls off the end, `ok()` turns false and
// every later read returns zero values, so a parser can check once after a group of reads.
class LeCursor {
public:
    explicit LeCursor(std::span<const std::uint8_t> bytes, std::uint64_t start = 0)
        : bytes_(bytes), pos_(start), ok_(start <= bytes.size()) {}

    bool ok() const { return ok_; }
    std::uint64_t position() const { return pos_; }
    std::uint64_t remaining() const { return ok_ ? bytes_.size() - pos_ : 0; }

    template <typename T>
    T take() {
        const auto value = ok_ ? readLe<T>(bytes_, pos_) : std::nullopt;
        if (!value) {
            ok_ = false;
            return T{};
        }
        pos_ += sizeof(T);
        return *value;
    }
    std::uint8_t u8() { return take<std::uint8_t>(); }
    std::uint16_t u16() { return take<std::uint16_t>(); }
    std::uint32_t u32() { return take<std::uint32_t>(); }
    std::uint64_t u64() { return take<std::uint64_t>(); }

    // The next `length` bytes, or an empty span (and !ok()) when fewer remain.
    std::span<const std::uint8_t> bytes(std::uint64_t length) {
        if (!ok_ || !rangeFits(pos_, length, bytes_.size())) {
            ok_ = false;
            return {};
        }
        const auto out =
            bytes_.subspan(static_cast<std::size_t>(pos_), static_cast<std::size_t>(length));
        pos_ += length;
        return out;
    }
    void skip(std::uint64_t length) { (void)bytes(length); }

private:
    std::span<const std::uint8_t> bytes_;
    std::uint64_t pos_;
    bool ok_;
};

}  // namespace strata
