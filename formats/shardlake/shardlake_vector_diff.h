// The vectors stored in `.sidx` shards, compared by id between two sets of shards (two index
// versions, or two single shards): each set is walked in ascending id order, each shard read a
// piece at a time (RecordReader), and the two walks are merged.
//
// Memory: a shard whose records are already in ascending id order (what the builder writes for a
// dataset ingested in id order) is walked in place and costs its cursor and a read buffer (the
// buffers of a set share 64 MiB); a shard that is not gets a sorted table of (id, record) pairs,
// 16 bytes per vector, held while the comparison runs. Nothing else grows with the number of
// vectors.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "formats/common/region.h"
#include "shardlake_binary.h"

namespace strata::shardlake {

// One vector of a set of shards: its id, which shard, which record, and its bytes.
struct ShardVector {
    std::uint64_t id = 0;
    std::size_t shard = 0;  // index into the set's shards
    std::uint64_t record = 0;
    Region region;  // the whole record (id and values or codes)
};

// A PQ codebook read whole (m × k codewords of dims / m floats): small, a few hundred KiB at most.
struct LoadedCodebook {
    std::uint32_t dims = 0, m = 0, k = 0, subDims = 0;
    std::vector<float> codewords;  // [(sub × k + code) × subDims + i]
};

// The codebook in `source`, or nothing when it is missing or unreadable.
std::optional<LoadedCodebook> loadCodebook(const ByteSourcePtr& source);

class ShardVectorSet {
public:
    // Shards whose header cannot be read (no layout, unknown version) are left out and named in
    // skipped(); of the others, the records that lie inside the file are walked.
    explicit ShardVectorSet(std::vector<std::pair<std::string, ByteSourcePtr>> shards);
    ~ShardVectorSet();
    ShardVectorSet(const ShardVectorSet&) = delete;
    ShardVectorSet& operator=(const ShardVectorSet&) = delete;

    // The next vector in ascending id order (equal ids: shard order, then record order); false
    // at the end.
    bool next(ShardVector& out);

    const ShardLayout& layout(std::size_t shard) const;
    const ByteSourcePtr& source(std::size_t shard) const;
    const std::string& name(std::size_t shard) const;
    std::size_t shardCount() const;
    // "shards/shard-0003.sidx: <why>" for each shard left out.
    const std::vector<std::string>& skipped() const { return skipped_; }
    // Whether every walked shard stores raw f32 vectors (v1), or every one PQ codes (v2).
    bool allRaw() const;
    bool allPq() const;
    // Vectors whose (id, record) pairs are held in memory because their shard was out of order.
    std::uint64_t tabledVectors() const;

    // A vector's values: a raw record's f32s, or a PQ record reconstructed with `codebook`
    // (nothing when it is not given or does not fit the shard).
    std::optional<std::vector<float>> values(const ShardVector& v,
                                             const std::optional<LoadedCodebook>& codebook) const;
    // A PQ record's codes (empty for a raw shard).
    std::vector<std::uint8_t> codes(const ShardVector& v) const;

private:
    struct Cursor;
    std::vector<std::unique_ptr<Cursor>> cursors_;
    std::vector<std::size_t> heap_;  // cursors not yet exhausted, a min-heap on their current id
    std::vector<std::string> skipped_;
};

}  // namespace strata::shardlake
