// ZS blocks: the framing (uleb128 length, level byte, payload, CRC-64-xz), bounded payload
// decoding, and the two payload layouts: data records and index entries.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "formats/common/byte_source.h"
#include "formats/common/decode_result.h"
#include "formats/common/region.h"
#include "zs_header.h"

namespace strata::zs {

// ZS integers are at most 9 uleb128 bytes (values below 2^63); a tenth byte is an overflow.
inline constexpr std::size_t kMaxZsUlebBytes = 9;

// Levels: 0 data, 1..63 index, 64..255 extension (skipped by readers, valid anywhere).
inline constexpr std::uint8_t kMaxIndexLevel = 63;
enum class BlockKind { Data, Index, Extension };
BlockKind blockKindOf(std::uint8_t level);
std::string_view blockKindName(BlockKind kind);  // "data block", "index block", ...

// Default bound on one block's decoded payload. ZS writers aim at ~384 KiB per block and the
// LZMA2 codec's dictionary is 1 MiB, so 64 MiB leaves ample room for honest files while a
// decompression bomb stops early. Configurable through ReadLimits.
inline constexpr std::uint64_t kDefaultMaxPayload = 64u << 20;

struct ReadLimits {
    std::uint64_t maxPayload = kDefaultMaxPayload;
};

struct BlockFrame {
    std::uint64_t offset = 0;
    std::uint64_t lengthFieldSize = 0;
    std::uint64_t bodyLength = 0;  // L: the level byte plus the stored payload
    std::uint8_t level = 0;

    BlockKind kind() const { return blockKindOf(level); }
    // uleb128 prefix + L + 8: what index entries and the header call the block's length.
    std::uint64_t totalLength() const { return lengthFieldSize + bodyLength + 8; }
    std::uint64_t end() const { return offset + totalLength(); }
    std::uint64_t payloadOffset() const { return offset + lengthFieldSize + 1; }
    std::uint64_t payloadLength() const { return bodyLength - 1; }
};

enum class FrameStatus {
    Ok,
    NonShortest,     // usable, but the length is not in shortest form
    LengthOverflow,  // the uleb128 length is longer than 10 bytes or overflows 64 bits
    Truncated,       // the length field, body or CRC runs past the end
    ZeroLength,      // L = 0: not even a level byte
};

struct FrameRead {
    FrameStatus status = FrameStatus::Truncated;
    BlockFrame frame;
    // For errors: what went wrong and the bytes concerned.
    std::string message;
    Region problem;

    bool usable() const { return status == FrameStatus::Ok || status == FrameStatus::NonShortest; }
};

// Reads the framing of the block at `offset`; the block must end at or before `limit`.
FrameRead readFrame(const ByteSource& source, std::uint64_t offset, std::uint64_t limit);

struct FrameRegions {
    Region length, level, payload, crc, whole;
};
FrameRegions frameRegions(const ByteSource& source, const BlockFrame& frame);

struct CrcCheck {
    std::uint64_t stored = 0;
    std::uint64_t computed = 0;
    bool ok() const { return stored == computed; }
};
// CRC-64-xz over the level byte and the stored payload, against the stored u64le.
CrcCheck checkBlockCrc(const ByteSource& source, const BlockFrame& frame);

struct Payload {
    // The decoded payload: a view into the source for codec none, into a decoded buffer
    // otherwise (kept alive by bytes.keepAlive). For failures, whatever decoded before.
    ByteView bytes;
    DecodeStatus status = DecodeStatus::Failed;
    std::string message;  // for problems: in words, for a diagnostic
    std::uint64_t consumed = 0;
    bool complete() const {
        return status == DecodeStatus::Ok || status == DecodeStatus::TrailingData;
    }
    bool ok() const { return status == DecodeStatus::Ok; }
};

Payload decodePayload(const ByteSource& source, const BlockFrame& frame, Codec codec,
                      const ReadLimits& limits);

// A fault inside a decoded payload, at an offset relative to the payload start.
struct PayloadProblem {
    std::string code;  // ZS-ULEB128, ZS-RECORD-LENGTH, ZS-INDEX-ENTRY
    std::string message;
    std::uint64_t offset = 0;
};

// Walks the records of a data payload one at a time without storing them.
class RecordCursor {
public:
    explicit RecordCursor(std::span<const std::uint8_t> payload) : payload_(payload) {}

    // The next record, or nothing at the end or on a fault (then problem() says which).
    std::optional<std::span<const std::uint8_t>> next();
    const std::optional<PayloadProblem>& problem() const { return problem_; }
    // Offset of the length prefix of the record next() returned last.
    std::uint64_t recordStart() const { return recordStart_; }
    std::uint64_t position() const { return position_; }

private:
    std::span<const std::uint8_t> payload_;
    std::uint64_t position_ = 0;
    std::uint64_t recordStart_ = 0;
    std::optional<PayloadProblem> problem_;
};

struct IndexEntry {
    std::uint64_t entryOffset = 0;  // in the payload
    std::uint64_t entryLength = 0;
    std::uint64_t keyOffset = 0;
    std::uint64_t keyLength = 0;
    std::uint64_t childOffset = 0;
    std::uint64_t childLength = 0;
};

struct IndexPayload {
    std::vector<IndexEntry> entries;  // every entry read before a fault
    std::optional<PayloadProblem> problem;
};

IndexPayload parseIndexPayload(std::span<const std::uint8_t> payload);

// memcmp order, shorter first on a common prefix.
int compareBytes(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b);
std::span<const std::uint8_t> asBytes(std::string_view text);
// Printable form for messages: ASCII kept, other bytes as \xNN, cut after `max` bytes.
std::string printableBytes(std::span<const std::uint8_t> bytes, std::size_t max = 40);

}  // namespace strata::zs
