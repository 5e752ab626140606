// Overflow-proof range arithmetic. Every offset and length read from a file goes through these
// before it is used, so a hostile value like 2^64 - 1 cannot wrap around a bounds check.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>

namespace strata {

// True when [offset, offset + length) lies inside [0, size).
constexpr bool rangeFits(std::uint64_t offset, std::uint64_t length, std::uint64_t size) {
    return offset <= size && length <= size - offset;
}

// How many of `length` bytes from `offset` exist in a source of `size` bytes.
constexpr std::uint64_t clippedLength(std::uint64_t offset, std::uint64_t length,
                                      std::uint64_t size) {
    if (offset >= size) {
        return 0;
    }
    const std::uint64_t available = size - offset;
    return length < available ? length : available;
}

// offset + length, or nothing when the sum does not fit in 64 bits.
constexpr std::optional<std::uint64_t> checkedAdd(std::uint64_t a, std::uint64_t b) {
    if (b > std::numeric_limits<std::uint64_t>::max() - a) {
        return std::nullopt;
    }
    return a + b;
}

// a * b, or nothing on overflow (shapes, counts times element sizes).
constexpr std::optional<std::uint64_t> checkedMul(std::uint64_t a, std::uint64_t b) {
    if (a != 0 && b > std::numeric_limits<std::uint64_t>::max() / a) {
        return std::nullopt;
    }
    return a * b;
}

// The end of [offset, offset + length), saturating at 2^64 - 1.
constexpr std::uint64_t saturatingEnd(std::uint64_t offset, std::uint64_t length) {
    return checkedAdd(offset, length).value_or(std::numeric_limits<std::uint64_t>::max());
}

}  // namespace strata
