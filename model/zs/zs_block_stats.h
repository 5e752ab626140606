// Per-block figures for the chart: stored and decoded size and record count of every data
// block, found by walking the blocks in file order; where the chain of blocks breaks (a length
// that cannot be read, a block failing its CRC), the walk goes on at the next intact block
// (zs::ZsBlockFinder). Meant for a background job: it polls a cancel token and reports
// progress by file position.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "formats/common/validator.h"
#include "formats/zs/zs_reader.h"

namespace strata::model {

struct ZsBlockStat {
    std::uint64_t offset = 0;
    std::uint64_t length = 0;          // the whole block, as index entries count it
    std::uint64_t storedPayload = 0;   // payload bytes on disk
    std::uint64_t decodedPayload = 0;  // payload bytes after decompression
    std::uint64_t records = 0;
    bool damaged = false;  // checksum mismatch or a payload that does not decode

    // Decoded over stored size (1 for an empty payload).
    double ratio() const;
};

struct ZsBlockStats {
    std::vector<ZsBlockStat> dataBlocks;
    std::uint64_t indexBlocks = 0;
    std::uint64_t extensionBlocks = 0;
    bool cancelled = false;
    // Stretches where no block could be read (a length that cannot be read), each passed to the
    // next intact block; the first one's reason and offset (empty when there is none).
    std::uint64_t unreadableStretches = 0;
    std::string error;
    std::uint64_t errorOffset = 0;
};

// Walks every block; `progress` gets the fraction of the file covered so far.
ZsBlockStats collectZsBlockStats(const zs::ZsFile& file, const strata::CancelToken& cancel,
                                 const std::function<void(double)>& progress = {});

}  // namespace strata::model
