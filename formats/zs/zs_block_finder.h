// Finding the blocks after damage. Where a ZS file's chain of blocks breaks (a length that
// cannot be read, a block failing its CRC), reading can go on at the next intact block: the one
// the input's index names (where its index blocks pass their CRCs), or else the next offset
// where a block frame passes its CRC. The forward scan costs O(1) per byte whatever the bytes
// hold (zeros fail at once; a frame is checked cheaply before its CRC, and the CRC of any range
// comes from CRCs of prefixes kept every few hundred bytes), its memory is bounded by the
// longest block Strata can decode, and it polls a cancel token. Repair, the diff and the
// records browser share it.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "formats/common/validator.h"
#include "zs_reader.h"

namespace strata::zs {

class ZsBlockFinder {
public:
    // Looks for blocks in [file->blocksBegin(), limit). The file's header must be readable.
    ZsBlockFinder(std::shared_ptr<const ZsFile> file, std::uint64_t limit);
    ~ZsBlockFinder();
    ZsBlockFinder(const ZsBlockFinder&) = delete;
    ZsBlockFinder& operator=(const ZsBlockFinder&) = delete;

    // True when a block starts at `offset`, ends before the limit and passes its CRC.
    bool intactAt(std::uint64_t offset) const;

    // Damage starts at `at` (its frame cannot be read, or fails its CRC): where reading can go on,
    // or the limit when nothing intact follows. That is the end of the block at `at` when an
    // intact index block gives its length and the bytes bear the index out (see indexHolds: bytes
    // inserted or cut before `at` move every later block away from its place); otherwise the first
    // offset after `at` where a block the index names starts, or a frame passes its CRC (its own
    // length is not trusted: it is not covered by the CRC). Nothing when `cancel` was set.
    // `progress` gets the fraction of [blocksBegin, limit) scanned.
    std::optional<std::uint64_t> resumeAfter(std::uint64_t at, const CancelToken* cancel = nullptr,
                                             const ProgressCallback& progress = {});

    // The block that fills [at, end) exactly, read with a length field of whatever size makes its
    // CRC match (the field itself is not covered by the CRC): a block whose length field is
    // damaged, between neighbours that say where it ends. Nothing when no size does.
    std::optional<BlockFrame> frameFilling(std::uint64_t at, std::uint64_t end) const;

    // The length an intact index block gives the block at `offset`.
    std::optional<std::uint64_t> indexedLength(std::uint64_t offset);

    // CRCs computed by forward scans so far, and the bytes they (and the prefix CRCs kept for
    // them) read: tests check that a scan stays linear.
    std::uint64_t scanCrcs() const { return scanCrcs_; }
    std::uint64_t bytesChecksummed() const;

private:
    struct IndexedBlock {
        std::uint64_t offset = 0, length = 0;
    };
    class RangeCrc;

    void collectIndex();
    // Whether the index's blocks from `from` on are where it places them: following their
    // lengths leads to an intact block (or the limit) within a few steps.
    bool indexHolds(std::uint64_t from);
    // Sorted, without entries whose extents overlap (the index contradicts itself there).
    static std::vector<IndexedBlock> consistent(std::vector<IndexedBlock> found);
    bool candidatePassesCrc(std::uint64_t offset, std::uint64_t lengthFieldSize,
                            std::uint64_t bodyLength);
    std::optional<std::uint64_t> scanFrom(std::uint64_t from, const CancelToken* cancel,
                                          const ProgressCallback& progress);
    // The first indexed block ending after `offset`.
    std::vector<IndexedBlock>::const_iterator indexedAfter(std::uint64_t offset) const;

    std::shared_ptr<const ZsFile> file_;
    std::uint64_t limit_;
    std::uint64_t maxBlock_;  // longer frames are never taken for blocks: none could decode
    bool indexCollected_ = false;
    std::vector<IndexedBlock> indexed_;  // sorted by offset, extents not overlapping
    std::unique_ptr<RangeCrc> rangeCrc_;
    std::uint64_t scanCrcs_ = 0;
    std::uint64_t directBytes_ = 0;
};

}  // namespace strata::zs
