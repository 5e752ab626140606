// Reading a ZS file: the header, single blocks, the index descent for range and prefix
// queries, and a record iterator in file order. Opening reads only the header and the root
// index block; everything else is read when asked for.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "formats/common/byte_source.h"
#include "formats/common/checksums.h"
#include "formats/common/validator.h"
#include "zs_block.h"
#include "zs_header.h"

namespace strata::zs {

// Thrown by queries and the record iterator when the file is damaged where they read it.
class ZsReadError : public std::runtime_error {
public:
    ZsReadError(const std::string& message, std::uint64_t offset)
        : std::runtime_error(message), offset_(offset) {}
    std::uint64_t offset() const { return offset_; }

private:
    std::uint64_t offset_;
};

// One block read in full: framing, CRC, decoded payload.
struct BlockRead {
    FrameRead frame;
    std::optional<CrcCheck> crc;     // set when the frame was usable
    std::optional<Payload> payload;  // set when the frame was usable and the codec known
};

// Which records a query selects: start <= r < stop and r starts with prefix (each optional).
struct RecordQuery {
    std::optional<std::string> start;
    std::optional<std::string> stop;
    std::optional<std::string> prefix;
};

class ZsFile : public std::enable_shared_from_this<ZsFile> {
public:
    // Parses the header and reads the root index block. Never throws for bad content: see
    // header().problems and rootBlock().
    static std::shared_ptr<ZsFile> open(ByteSourcePtr source, ReadLimits limits = {});

    const ByteSource& source() const { return *source_; }
    const ByteSourcePtr& sourcePtr() const { return source_; }
    const Header& header() const { return header_; }
    const ReadLimits& limits() const { return limits_; }
    // "NAME" part of the source's name: the label of the tree's root.
    std::string displayName() const;

    // Where blocks may lie: from the end of the header to the end of the file (or to the
    // header's total length when that is shorter).
    std::uint64_t blocksBegin() const { return header_.firstBlockOffset(); }
    std::uint64_t blocksEnd() const;

    // True when the header can be used to read blocks (good magic, header and codec).
    bool readable() const { return !header_.fatal && header_.codec.has_value(); }

    // Reads, CRC-checks and (unless it is an extension block, or the codec is unknown)
    // decodes the block at `offset`.
    BlockRead readBlock(std::uint64_t offset) const;
    // The root index block as read at open (nothing when the header is unusable).
    const std::optional<BlockRead>& rootBlock() const { return root_; }

    // Visits the selected records in order; `visit` returns false to stop early. Reads the
    // index blocks on one root-to-leaf path and then only the data blocks in range.
    // Throws ZsReadError where the file is damaged.
    void search(const RecordQuery& query,
                const std::function<bool(std::span<const std::uint8_t>)>& visit) const;
    std::vector<std::string> findRecords(std::optional<std::string> start,
                                         std::optional<std::string> stop,
                                         std::size_t maxRecords = SIZE_MAX) const;
    std::vector<std::string> findPrefix(const std::string& prefix,
                                        std::size_t maxRecords = SIZE_MAX) const;

    // The data block where a scan for records >= start should begin, found by descending the
    // index (round down at every level). Throws ZsReadError.
    std::uint64_t locateDataBlock(const std::optional<std::string>& start) const;

    // Blocks read (framing and CRC) since open: lets tests check that queries stay O(depth).
    std::uint64_t blocksRead() const { return blocksRead_.load(); }

    // readBlock for queries: intact blocks that queries and the record iterator decoded lately
    // are kept (a few, bounded in decoded bytes), so a repeated lookup in an open file decodes
    // nothing. The validator reads every block once and does not use it.
    BlockRead readQueryBlock(std::uint64_t offset) const;

    // What record readers do with an index or extension block they pass: check its CRC.
    // Throws ZsReadError on a mismatch.
    void checkSkippedBlock(const BlockFrame& frame) const;

private:
    ZsFile(ByteSourcePtr source, ReadLimits limits);

    ByteSourcePtr source_;
    ReadLimits limits_;
    Header header_;
    std::optional<BlockRead> root_;
    mutable std::atomic<std::uint64_t> blocksRead_{0};

    struct CachedBlock {
        std::uint64_t offset = 0;
        std::uint64_t lastUse = 0;
        BlockRead block;
    };
    mutable std::mutex cacheMutex_;
    mutable std::vector<CachedBlock> cache_;
    mutable std::uint64_t cacheClock_ = 0;

    friend class ZsRecordIterator;
};

class ZsBlockFinder;

// Records in file order, data block after data block (index and extension blocks skipped),
// starting at a given data block. Every block is CRC-checked and decoded before any of its
// records is returned.
class ZsRecordIterator {
public:
    // From the first block after the header.
    explicit ZsRecordIterator(std::shared_ptr<const ZsFile> file);
    ZsRecordIterator(std::shared_ptr<const ZsFile> file, std::uint64_t startOffset);

    // The next record (valid until the next call), or nothing at the end of the file.
    // Throws ZsReadError for a damaged block.
    std::optional<std::span<const std::uint8_t>> next();
    // Offset of the data block the last record came from.
    std::uint64_t blockOffset() const { return blockOffset_; }
    // Adds the decoded payload of every data block read from now on to `sha` (what the header's
    // data SHA-256 is taken over, when every data block is read).
    void hashPayloadsInto(Sha256* sha) { sha_ = sha; }

    // After next() threw: the damaged bytes, and whether the walk can go on after them. What
    // was left of the block is dropped. A block that fails its CRC, or whose length cannot be
    // read, ends where the next intact block starts (ZsBlockFinder: through the index, or by
    // scanning, which polls `cancel`); any other fault ends with its block.
    struct Damage {
        std::uint64_t offset = 0, length = 0;
        bool canContinue = false;
    };
    Damage skipDamage(const CancelToken* cancel = nullptr);

private:
    bool loadNextDataBlock();

    std::shared_ptr<const ZsFile> file_;
    std::uint64_t position_;
    std::uint64_t frameOffset_ = 0, frameEnd_ = 0;  // the block read last
    bool frameBroken_ = false;                      // its length cannot be read
    bool frameUnverified_ = false;                  // or it fails its CRC
    std::shared_ptr<ZsBlockFinder> finder_;         // made at the first such block
    Sha256* sha_ = nullptr;
    std::uint64_t blockOffset_ = 0;
    Payload payload_;
    std::optional<RecordCursor> cursor_;
};

// The successor of every string starting with `prefix` (exclusive upper bound for a prefix
// query); nothing when the prefix is empty or all 0xff bytes.
std::optional<std::string> prefixUpperBound(const std::string& prefix);

// A query reduced to the bounds it selects: start <= r < stop, the prefix folded in.
class RecordRange {
public:
    explicit RecordRange(const RecordQuery& query);

    enum class Verdict { Before, Inside, Past };
    // Where a record lies; records come sorted, so the first Past ends the query.
    Verdict classify(std::span<const std::uint8_t> record) const;
    // True when no record can lie inside (start >= stop).
    bool empty() const;
    const std::optional<std::string>& start() const { return start_; }

private:
    std::optional<std::string> start_;
    std::optional<std::string> stop_;
    std::optional<std::string> prefix_;
};

// Throws ZsReadError unless the block was read, its CRC matches and its payload decoded
// completely.
void requireIntact(const BlockRead& block, std::uint64_t offset);
// The error for a fault inside the records of the data block at `offset`.
ZsReadError recordFault(const PayloadProblem& problem, std::uint64_t offset);

}  // namespace strata::zs
