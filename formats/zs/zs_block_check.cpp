#include "zs_block_check.h"

#include <cstring>

#include "formats/common/checksums.h"

namespace strata::zs {
namespace {

// Unsorted records (or index keys) listed by position; the rest are counted.
constexpr std::size_t kMaxUnsortedListed = 4;

}  // namespace

Checked checkBlock(const ZsFile& file, const BlockFrame& frame) {
    Checked out;
    out.crc = checkBlockCrc(file.source(), frame);
    if (!file.header().codec || frame.kind() == BlockKind::Extension) {
        return out;
    }
    Payload payload = decodePayload(file.source(), frame, *file.header().codec, file.limits());
    out.decodeAttempted = true;
    out.decodeStatus = payload.status;
    out.decodeMessage = payload.message;
    if (!payload.complete()) {
        return out;
    }
    const auto bytes = payload.bytes.bytes;
    if (frame.kind() == BlockKind::Data) {
        RecordCursor cursor(bytes);
        std::span<const std::uint8_t> previous;
        while (const auto record = cursor.next()) {
            if (out.records == 0) {
                out.first.assign(record->begin(), record->end());
            } else if (compareBytes(*record, previous) < 0) {
                if (out.unsortedAt.size() < kMaxUnsortedListed) {
                    out.unsortedAt.push_back(cursor.recordStart());
                }
                ++out.unsortedCount;
            }
            previous = *record;
            ++out.records;
        }
        if (out.records > 0) {
            out.last.assign(previous.begin(), previous.end());
        }
        out.problem = cursor.problem();
        out.payload = std::move(payload.bytes);
        return out;
    }
    IndexPayload index = parseIndexPayload(bytes);
    out.problem = index.problem;
    for (const IndexEntry& e : index.entries) {
        const auto key = bytes.subspan(static_cast<std::size_t>(e.keyOffset),
                                       static_cast<std::size_t>(e.keyLength));
        if (!out.entries.empty() && compareBytes(key, asBytes(out.entries.back().key)) < 0) {
            if (out.unsortedAt.size() < kMaxUnsortedListed) {
                out.unsortedAt.push_back(e.entryOffset);
            }
            ++out.unsortedCount;
        }
        out.entries.push_back({std::string(key.begin(), key.end()), e.childOffset, e.childLength,
                               e.entryOffset, e.entryLength});
    }
    return out;
}

Checked checkCopiedBlock(const ZsFile& file, const BlockFrame& frame, const ZsCopiedBlock* copy) {
    std::string mismatch;
    if (copy == nullptr) {
        mismatch = "it is not one of the blocks copied (the file has more data blocks)";
    } else if (frame.payloadLength() != copy->payloadLength) {
        mismatch = "its stored payload is " + std::to_string(frame.payloadLength()) +
                   " bytes, the block copied " + std::to_string(copy->payloadLength);
    } else {
        const ByteView here = file.source().view(frame.payloadOffset(), frame.payloadLength());
        const ByteView there = copy->source->view(copy->payloadOffset, copy->payloadLength);
        if (here.size() != there.size() || here.size() != copy->payloadLength ||
            (here.size() > 0 && std::memcmp(here.data(), there.data(), here.size()) != 0)) {
            mismatch = "its stored payload differs from the bytes it was copied from (" +
                       copy->source->name() + ", bytes " + std::to_string(copy->payloadOffset) +
                       " to " + std::to_string(copy->payloadOffset + copy->payloadLength) + ")";
        }
    }
    if (!mismatch.empty()) {
        Checked out = checkBlock(file, frame);
        out.copyMismatch = std::move(mismatch);
        return out;
    }
    Checked out;
    out.crc = checkBlockCrc(file.source(), frame);
    out.decodeAttempted = true;
    out.decodeStatus = DecodeStatus::Ok;
    out.records = copy->records;
    out.first = copy->first;
    out.last = copy->last;
    out.copied = true;
    return out;
}

}  // namespace strata::zs
