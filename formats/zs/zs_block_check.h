// What the ZS validator checks in one block, on a worker thread (zs_validator.cpp consumes the
// results in file order). Internal to formats/zs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "zs_block.h"
#include "zs_reader.h"
#include "zs_validator.h"

namespace strata::zs {

struct Entry {
    std::string key;
    std::uint64_t childOffset = 0;
    std::uint64_t childLength = 0;
    std::uint64_t entryOffset = 0;  // in the payload
    std::uint64_t entryLength = 0;
};

// What checking one block found (built by a worker, consumed in file order).
struct Checked {
    CrcCheck crc;
    bool decodeAttempted = false;
    DecodeStatus decodeStatus = DecodeStatus::Failed;
    std::string decodeMessage;
    ByteView payload;  // data blocks only, for the SHA-256
    std::optional<PayloadProblem> problem;
    // Data blocks.
    std::uint64_t records = 0;
    std::string first, last;
    std::vector<std::uint64_t> unsortedAt;  // payload offsets of records below their predecessor
    std::uint64_t unsortedCount = 0;
    // Index blocks.
    std::vector<Entry> entries;
    // Copied data blocks (ZsCopiedData): the copy matched, so nothing was decoded; or why not.
    bool copied = false;
    std::string copyMismatch;
};

// One block checked on a worker thread: its CRC, its payload decoded, its records' order or its
// index entries.
Checked checkBlock(const ZsFile& file, const BlockFrame& frame);

// A data block that should be `copy`: its stored payload compared byte for byte with the bytes
// it was copied from. When they are equal the records are what the copier found when it decoded
// those bytes; otherwise the block is decoded and checked like any other.
Checked checkCopiedBlock(const ZsFile& file, const BlockFrame& frame, const ZsCopiedBlock* copy);

}  // namespace strata::zs
