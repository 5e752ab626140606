// The binary Shardlake artifacts: `.sidx` shards (v1 raw f32 records, v2 PQ codes), the coarse
// quantizer (`SLKIVF\0\0`) and the PQ codebook (`SLKPQCB\0`). Parsing reads only the fixed
// headers; every size derived from a header goes through checked arithmetic, so a record count of
// 2^40 or a dims of 2^32 - 1 yields a problem, never an allocation or a wrapped offset.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "formats/common/byte_source.h"
#include "formats/common/region.h"

namespace strata::shardlake {

// A fault found while reading a header: a stable diagnostic code, a message, the bytes.
struct BinaryProblem {
    std::string code;
    std::string message;
    // The primary region first; may hold a second (the missing or extra bytes).
    std::vector<Region> regions;
};

// One fixed-size field of a header, for the structure tree.
struct HeaderField {
    std::string name;
    std::uint64_t value = 0;
    Region region;
};

inline constexpr std::uint64_t kShardHeaderV1Size = 32;
inline constexpr std::uint64_t kShardHeaderV2Size = 40;
inline constexpr std::uint64_t kCoarseHeaderSize = 20;
inline constexpr std::uint64_t kCodebookHeaderSize = 28;

struct ShardLayout {
    std::uint32_t version = 0;
    std::uint32_t shardId = 0;
    std::uint32_t dims = 0;
    std::uint32_t centroidCount = 0;
    std::uint64_t vectorCount = 0;
    std::uint32_t pqM = 0;
    std::uint32_t pqK = 0;
    std::uint64_t headerSize = 0;
    // Derived. Only meaningful when `layoutKnown`: the version is 1 or 2 and no size overflows.
    bool layoutKnown = false;
    std::uint64_t centroidsOffset = 0;
    std::uint64_t centroidBytes = 0;  // one centroid
    std::uint64_t recordsOffset = 0;
    std::uint64_t recordSize = 0;
    // The size the header implies, when it fits in 64 bits.
    std::optional<std::uint64_t> expectedSize;
    std::uint64_t fileSize = 0;

    bool isPq() const { return version == 2; }
    // Centroids and records that lie completely inside the file (never more than declared).
    std::uint64_t centroidsPresent() const;
    std::uint64_t recordsPresent() const;
    std::uint64_t recordOffset(std::uint64_t index) const {
        return recordsOffset + index * recordSize;
    }
    std::uint64_t centroidOffset(std::uint64_t index) const {
        return centroidsOffset + index * centroidBytes;
    }
};

// The records of a shard read in order through a buffer: one read() per piece instead of a view
// per record, which for a file the store reads on demand is an open, a read and a close each.
// Out of order, a record is read on its own.
class RecordReader {
public:
    // `count` records of recordSize bytes from recordsOffset; the buffer holds up to
    // bufferBytes of them (one at least).
    RecordReader(const ByteSource& source, std::uint64_t recordsOffset, std::uint64_t recordSize,
                 std::uint64_t count, std::size_t bufferBytes = 256u << 10);
    RecordReader(const ByteSource& source, const ShardLayout& layout,
                 std::size_t bufferBytes = 256u << 10)
        : RecordReader(source, layout.recordsOffset, layout.recordSize, layout.recordsPresent(),
                       bufferBytes) {}

    // Record i's recordSize bytes, valid until the next call; nullptr past `count` or the end
    // of the file.
    const std::uint8_t* record(std::uint64_t i);
    // Its id (the first 8 bytes, little-endian); 0 when it cannot be read.
    std::uint64_t id(std::uint64_t i);

private:
    const ByteSource* source_;
    std::uint64_t recordsOffset_, recordSize_, count_, perBuffer_;
    std::vector<std::uint8_t> buffer_;
    std::uint64_t first_ = 0, held_ = 0;  // records first_.. first_ + held_ are in buffer_
};

struct ShardParse {
    // Present once the magic matched and the 32-byte header was readable.
    std::optional<ShardLayout> layout;
    std::vector<HeaderField> fields;
    std::vector<BinaryProblem> problems;
};

// Reads and checks the header and the file length (magic, version, dims > 0, pq_k in 1..256,
// truncation, trailing bytes). Does not read centroids or records.
ShardParse parseShard(const ByteSource& source);

struct CoarseLayout {
    std::uint32_t version = 0;
    std::uint32_t dims = 0;
    std::uint32_t clusters = 0;
    bool layoutKnown = false;
    std::uint64_t centroidBytes = 0;
    std::optional<std::uint64_t> expectedSize;
    std::uint64_t fileSize = 0;
    std::uint64_t centroidsPresent() const;
    std::uint64_t centroidOffset(std::uint64_t index) const {
        return kCoarseHeaderSize + index * centroidBytes;
    }
};

struct CoarseParse {
    std::optional<CoarseLayout> layout;
    std::vector<HeaderField> fields;
    std::vector<BinaryProblem> problems;
};

CoarseParse parseCoarseQuantizer(const ByteSource& source);

struct CodebookLayout {
    std::uint32_t version = 0;
    std::uint32_t dims = 0;
    std::uint32_t m = 0;
    std::uint32_t k = 0;
    std::uint32_t subDims = 0;
    bool layoutKnown = false;
    std::uint64_t codewordBytes = 0;
    std::uint64_t codewordCount = 0;  // m * k
    std::optional<std::uint64_t> expectedSize;
    std::uint64_t fileSize = 0;
    std::uint64_t codewordsPresent() const;
    std::uint64_t codewordOffset(std::uint64_t index) const {
        return kCodebookHeaderSize + index * codewordBytes;
    }
};

struct CodebookParse {
    std::optional<CodebookLayout> layout;
    std::vector<HeaderField> fields;
    std::vector<BinaryProblem> problems;
};

CodebookParse parseCodebook(const ByteSource& source);

// Little-endian f32 values from raw bytes (count = bytes.size() / 4).
void decodeF32s(std::span<const std::uint8_t> bytes, std::span<float> out);
std::vector<float> readF32s(const ByteSource& source, std::uint64_t offset, std::uint64_t count);

// "[0.25, -1, 3.5, … (16 values)]" for tree value columns; shows at most `shown` values.
std::string formatVector(std::span<const float> values, std::size_t shown = 6);

}  // namespace strata::shardlake
