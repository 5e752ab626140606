// Unsigned LEB128 integers: 7 bits per byte, least significant group first, high bit set on
// every byte but the last. ZS uses them for block lengths, record lengths and index entries.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace strata {

class ByteSource;

// The most bytes a u64 can need (the tenth carries only bit 63).
inline constexpr std::size_t kUleb128MaxBytes = 10;

enum class Uleb128Status {
    Ok,
    Truncated,    // the input ends while the continuation bit is still set
    NonShortest,  // valid value, but a shorter encoding exists (last byte 0x00 after the first)
    Overflow,     // the value does not fit in 64 bits (more than 10 bytes, or bits lost)
};

std::string_view uleb128StatusName(Uleb128Status status);

struct Uleb128Result {
    std::uint64_t value = 0;  // meaningful for Ok and NonShortest
    // Bytes examined: the whole encoding for Ok and NonShortest; for Truncated every input
    // byte; for Overflow up to and including the byte that proved it.
    std::size_t length = 0;
    Uleb128Status status = Uleb128Status::Truncated;

    bool ok() const { return status == Uleb128Status::Ok; }
};

// Decodes one integer from the start of `bytes`. Callers with a tighter limit (ZS allows at
// most 9 bytes, so values below 2^63) check `length` themselves.
Uleb128Result decodeUleb128(std::span<const std::uint8_t> bytes);

// Decodes the integer at `offset` in a source (reads at most 10 bytes; the source ending
// counts as Truncated).
Uleb128Result decodeUleb128At(const ByteSource& source, std::uint64_t offset);

// Shortest encoding of `value` (1..10 bytes).
std::size_t uleb128Size(std::uint64_t value);
// Writes the shortest encoding into `out` and returns its length.
std::size_t encodeUleb128(std::uint64_t value, std::span<std::uint8_t, kUleb128MaxBytes> out);
void appendUleb128(std::vector<std::uint8_t>& out, std::uint64_t value);

}  // namespace strata
