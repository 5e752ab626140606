#include "zs_block_stats.h"

#include "formats/zs/zs_block.h"
#include "formats/zs/zs_block_finder.h"

namespace strata::model {

double ZsBlockStat::ratio() const {
    return storedPayload == 0 ? 1.0 : double(decodedPayload) / double(storedPayload);
}

namespace {

ZsBlockStat dataBlockStat(const zs::BlockRead& read) {
    const zs::BlockFrame& frame = read.frame.frame;
    ZsBlockStat stat;
    stat.offset = frame.offset;
    stat.length = frame.totalLength();
    stat.storedPayload = frame.payloadLength();
    stat.damaged = !read.crc || !read.crc->ok();
    if (!read.payload || !read.payload->complete()) {
        stat.damaged = true;
        return stat;
    }
    stat.decodedPayload = read.payload->bytes.size();
    zs::RecordCursor cursor(read.payload->bytes.bytes);
    while (cursor.next()) {
        ++stat.records;
    }
    stat.damaged = stat.damaged || cursor.problem().has_value();
    return stat;
}

}  // namespace

ZsBlockStats collectZsBlockStats(const zs::ZsFile& file, const strata::CancelToken& cancel,
                                 const std::function<void(double)>& progress) {
    ZsBlockStats stats;
    if (!file.readable()) {
        stats.error = "the header is damaged or names an unknown codec";
        return stats;
    }
    const std::uint64_t begin = file.blocksBegin();
    const std::uint64_t end = file.blocksEnd();
    zs::ZsBlockFinder finder(file.shared_from_this(), end);
    std::uint64_t offset = begin;
    while (offset < end) {
        if (cancel.cancelled()) {
            stats.cancelled = true;
            return stats;
        }
        const zs::BlockRead read = file.readBlock(offset);
        const bool crcOk = read.crc && read.crc->ok();
        // Where the next block starts: a length that a failing CRC does not vouch for is not
        // followed.
        const std::optional<std::uint64_t> next =
            crcOk ? std::optional(read.frame.frame.end()) : finder.resumeAfter(offset, &cancel);
        if (!next) {
            stats.cancelled = true;
            return stats;
        }
        if (!read.frame.usable()) {
            if (stats.unreadableStretches++ == 0) {
                stats.error = read.frame.message;
                stats.errorOffset = offset;
            }
        } else if (read.frame.frame.kind() == zs::BlockKind::Data) {
            stats.dataBlocks.push_back(dataBlockStat(read));
            stats.dataBlocks.back().length = *next - offset;
        } else if (read.frame.frame.kind() == zs::BlockKind::Index) {
            ++stats.indexBlocks;
        } else {
            ++stats.extensionBlocks;
        }
        offset = *next;
        if (progress) {
            progress(double(offset - begin) / double(end - begin));
        }
    }
    return stats;
}

}  // namespace strata::model
