#include "zs_block_finder.h"

#include <algorithm>
#include <set>

#include "formats/common/bounds.h"
#include "formats/common/checksums.h"
#include "formats/common/le_reader.h"
#include "formats/common/uleb128.h"

namespace strata::zs {

namespace {

constexpr std::uint64_t kCheckpointStep = 512;   // bytes between the prefix CRCs kept
constexpr std::uint64_t kDirectCrcBelow = 1024;  // shorter bodies are checksummed directly
constexpr std::uint64_t kHeadBytes = 32;         // what the cheap checks of a frame look at
constexpr std::uint64_t kScanChunk = 1 << 16;    // bytes viewed at a time by the scan
constexpr std::uint64_t kRestartGap = 1 << 20;   // prefix CRCs are not carried further than this

// A frame at a candidate offset, read without building messages (most candidates are not).
struct Candidate {
    std::uint64_t lengthFieldSize = 0;
    std::uint64_t bodyLength = 0;
    std::uint8_t level = 0;
};

std::optional<Candidate> parseCandidate(std::span<const std::uint8_t> head, std::uint64_t room,
                                        std::uint64_t maxBlock) {
    const Uleb128Result length = decodeUleb128(head);
    const bool readable =
        length.status == Uleb128Status::Ok || length.status == Uleb128Status::NonShortest;
    if (!readable || length.length > kMaxZsUlebBytes || length.value == 0 ||
        length.value > maxBlock || length.length + length.value + kCrcLength > room ||
        head.size() <= length.length) {
        return std::nullopt;
    }
    return Candidate{length.length, length.value, head[length.length]};
}

// Whether a payload can start with these bytes: what any encoder of the codec writes first.
// `payload` holds the first bytes there (at least 5 when the payload is that long).
bool plausiblePayload(std::span<const std::uint8_t> payload, std::uint64_t payloadLength,
                      std::uint8_t level, std::optional<Codec> codec) {
    if (blockKindOf(level) == BlockKind::Extension || !codec) {
        return true;  // extension payloads are anything
    }
    if (payloadLength == 0 || payload.empty()) {
        return false;  // a data block holds a record, an index block an entry
    }
    switch (*codec) {
        case Codec::None: {
            // The first record's (or key's) length, shortest form, inside the payload.
            const Uleb128Result first = decodeUleb128(payload);
            return first.ok() && rangeFits(first.length, first.value, payloadLength);
        }
        case Codec::Deflate: {
            const unsigned type = (payload[0] >> 1) & 3u;
            if (type == 3) {
                return false;  // a reserved block type
            }
            if (type != 0) {
                return true;
            }
            // A stored block: LEN then its complement NLEN.
            if (payloadLength < 5 || payload.size() < 5) {
                return false;
            }
            const unsigned len = payload[1] | (unsigned(payload[2]) << 8);
            const unsigned nlen = payload[3] | (unsigned(payload[4]) << 8);
            return (len ^ nlen) == 0xFFFFu && 5 + std::uint64_t{len} <= payloadLength;
        }
        case Codec::Lzma2:
            // The first chunk resets the dictionary: uncompressed (1) or LZMA with new
            // properties (0xE0..0xFF).
            return payload[0] == 0x01 || payload[0] >= 0xE0;
    }
    return true;
}

}  // namespace

// The CRC-64 of any range from the CRCs of the prefixes [origin, origin + i * step), kept for a
// stretch of the file ahead of the scan: O(step + log length) per range instead of O(length).
class ZsBlockFinder::RangeCrc {
public:
    explicit RangeCrc(const ByteSource& source) : source_(source) {}

    // `candidate`: where the frame whose body is [begin, end) starts; the candidates of a scan
    // ascend, so the prefix CRC up to the last one is carried forward to the next.
    std::uint64_t of(std::uint64_t candidate, std::uint64_t begin, std::uint64_t end) {
        const std::uint64_t kept = origin_ + first_ * kCheckpointStep;
        const std::uint64_t computed = kept + (checkpoints_.size() - 1) * kCheckpointStep;
        if (checkpoints_.empty() || candidate < kept || candidate > computed + kRestartGap) {
            restart(candidate);
        }
        forgetBefore(candidate);
        const std::uint64_t atCandidate = prefix(candidate, true);
        const ByteView field = source_.view(candidate, begin - candidate);
        const std::uint64_t atBegin = crc64xz(field.bytes, atCandidate);
        return crc64xzCombine(atBegin, prefix(end, false), end - begin);
    }

    std::uint64_t bytesRead() const { return bytesRead_; }

private:
    void restart(std::uint64_t origin) {
        lastOffset_ = origin;
        lastCrc_ = 0;
        origin_ = origin;
        first_ = 0;
        checkpoints_.assign(1, 0);
    }

    void forgetBefore(std::uint64_t offset) {
        const std::uint64_t index = (offset - origin_) / kCheckpointStep;
        while (first_ < index && checkpoints_.size() > 1) {
            checkpoints_.pop_front();
            ++first_;
        }
    }

    // CRC of [origin, offset). The range starts of a scan come in order, so the last one asked
    // for is carried forward instead of being computed from a checkpoint again.
    std::uint64_t prefix(std::uint64_t offset, bool remember) {
        const std::uint64_t index = (offset - origin_) / kCheckpointStep;
        extendTo(index);
        std::uint64_t base = origin_ + index * kCheckpointStep;
        std::uint64_t crc = checkpoints_[index - first_];
        if (lastOffset_ >= base && lastOffset_ <= offset) {
            base = lastOffset_;
            crc = lastCrc_;
        }
        const ByteView rest = source_.view(base, offset - base);
        bytesRead_ += rest.size();
        crc = crc64xz(rest.bytes, crc);
        if (remember) {
            lastOffset_ = offset;
            lastCrc_ = crc;
        }
        return crc;
    }

    void extendTo(std::uint64_t index) {
        const std::uint64_t last = first_ + checkpoints_.size() - 1;
        if (last >= index) {
            return;
        }
        const ByteView bytes =
            source_.view(origin_ + last * kCheckpointStep, (index - last) * kCheckpointStep);
        std::uint64_t crc = checkpoints_.back();
        bytesRead_ += bytes.size();
        for (std::uint64_t i = 0; i < index - last; ++i) {
            crc = crc64xz(bytes.bytes.subspan(i * kCheckpointStep, kCheckpointStep), crc);
            checkpoints_.push_back(crc);
        }
    }

    const ByteSource& source_;
    std::uint64_t origin_ = 0;
    std::uint64_t first_ = 0;                // index of checkpoints_.front()
    std::deque<std::uint64_t> checkpoints_;  // CRCs of [origin_, origin_ + (first_ + i) * step)
    std::uint64_t bytesRead_ = 0;
    std::uint64_t lastOffset_ = 0, lastCrc_ = 0;  // the last prefix asked for
};

ZsBlockFinder::ZsBlockFinder(std::shared_ptr<const ZsFile> file, std::uint64_t limit)
    : file_(std::move(file)),
      limit_(std::min(limit, file_->source().size())),
      maxBlock_(file_->limits().maxPayload + file_->limits().maxPayload / 1024 + 1024),
      rangeCrc_(std::make_unique<RangeCrc>(file_->source())) {}

ZsBlockFinder::~ZsBlockFinder() = default;

std::uint64_t ZsBlockFinder::bytesChecksummed() const {
    return directBytes_ + rangeCrc_->bytesRead();
}

bool ZsBlockFinder::intactAt(std::uint64_t offset) const {
    if (offset < file_->blocksBegin() || offset >= limit_) {
        return false;
    }
    const FrameRead frame = readFrame(file_->source(), offset, limit_);
    return frame.usable() && frame.frame.bodyLength <= maxBlock_ &&
           checkBlockCrc(file_->source(), frame.frame).ok();
}

std::optional<BlockFrame> ZsBlockFinder::frameFilling(std::uint64_t at, std::uint64_t end) const {
    const ByteSource& source = file_->source();
    if (end > limit_ || end < at || end - at > maxBlock_) {
        return std::nullopt;
    }
    std::optional<BlockFrame> found;
    for (std::uint64_t field = 1; field <= kMaxZsUlebBytes; ++field) {
        if (end - at < field + kCrcLength + 1) {
            break;
        }
        const BlockFrame frame{at, field, end - at - field - kCrcLength,
                               readLe<std::uint8_t>(source, at + field).value_or(0)};
        if (checkBlockCrc(source, frame).ok()) {
            if (found) {
                return std::nullopt;  // two readings: neither can be told apart
            }
            found = frame;
        }
    }
    return found;
}

std::optional<std::uint64_t> ZsBlockFinder::indexedLength(std::uint64_t offset) {
    collectIndex();
    const auto it =
        std::lower_bound(indexed_.begin(), indexed_.end(), offset,
                         [](const IndexedBlock& b, std::uint64_t o) { return b.offset < o; });
    if (it == indexed_.end() || it->offset != offset) {
        return std::nullopt;
    }
    return it->length;
}

std::vector<ZsBlockFinder::IndexedBlock>::const_iterator ZsBlockFinder::indexedAfter(
    std::uint64_t offset) const {
    return std::partition_point(indexed_.begin(), indexed_.end(), [&](const IndexedBlock& b) {
        return b.offset + b.length <= offset;
    });
}

std::optional<std::uint64_t> ZsBlockFinder::resumeAfter(std::uint64_t at, const CancelToken* cancel,
                                                        const ProgressCallback& progress) {
    collectIndex();
    // The index's word is taken where the bytes bear it out: a block starts intact where it says
    // the damaged one ends (bytes inserted or cut before `at` move every later block away from
    // where the index places it).
    if (const auto length = indexedLength(at); length && indexHolds(at + *length)) {
        return at + *length;
    }
    return scanFrom(at, cancel, progress);
}

bool ZsBlockFinder::indexHolds(std::uint64_t from) {
    // Damaged blocks in a row, each where the index places it, lead to an intact one; a bound
    // keeps a long damaged stretch from costing more than a scan.
    constexpr int kMaxSteps = 64;
    std::uint64_t at = from;
    for (int step = 0; step < kMaxSteps; ++step) {
        if (at >= limit_ || intactAt(at)) {
            return true;
        }
        const auto length = indexedLength(at);
        if (!length) {
            return false;
        }
        at += *length;
    }
    return false;
}

std::optional<std::uint64_t> ZsBlockFinder::scanFrom(std::uint64_t from, const CancelToken* cancel,
                                                     const ProgressCallback& progress) {
    const ByteSource& source = file_->source();
    const std::uint64_t begin = file_->blocksBegin();
    auto indexed = indexedAfter(from);
    ByteView chunk;
    std::uint64_t chunkStart = 0;
    std::uint64_t steps = 0;
    std::uint64_t c = from + 1;
    while (c < limit_) {
        // An intact block the index places: no block starts inside it. A block the index places
        // but the bytes do not hold (the file moved under the index) is scanned through.
        if (indexed != indexed_.end() && indexed->offset < c) {
            if (intactAt(indexed->offset)) {
                c = std::max(c, indexed->offset + indexed->length);
            }
            ++indexed;
            continue;
        }
        if (indexed != indexed_.end() && indexed->offset == c) {
            if (intactAt(c)) {
                return c;
            }
            ++indexed;
        }
        const std::uint64_t stop = indexed != indexed_.end() ? indexed->offset : limit_;
        for (; c < stop; ++c) {
            if ((++steps & 0xFFF) == 0) {
                if (cancel != nullptr && cancel->cancelled()) {
                    return std::nullopt;
                }
                if (progress) {
                    progress(double(c - begin) / double(limit_ - begin),
                             "looking for the next intact block at byte " + std::to_string(c));
                }
            }
            const std::uint64_t needed = std::min(kHeadBytes, limit_ - c);
            if (chunk.size() == 0 || c < chunkStart || c + needed > chunkStart + chunk.size()) {
                chunkStart = c;
                chunk = source.view(c, std::min(kScanChunk, limit_ - c));
            }
            const auto head = chunk.bytes.subspan(c - chunkStart, needed);
            if (const auto candidate = parseCandidate(head, limit_ - c, maxBlock_)) {
                const auto payload = head.subspan(
                    std::min<std::size_t>(head.size(), candidate->lengthFieldSize + 1));
                if (plausiblePayload(payload, candidate->bodyLength - 1, candidate->level,
                                     file_->header().codec) &&
                    candidatePassesCrc(c, candidate->lengthFieldSize, candidate->bodyLength)) {
                    return c;
                }
            }
        }
    }
    return limit_;
}

bool ZsBlockFinder::candidatePassesCrc(std::uint64_t offset, std::uint64_t lengthFieldSize,
                                       std::uint64_t bodyLength) {
    ++scanCrcs_;
    const ByteSource& source = file_->source();
    const std::uint64_t body = offset + lengthFieldSize;
    const std::uint64_t bodyEnd = body + bodyLength;
    const auto stored = readLe<std::uint64_t>(source, bodyEnd);
    if (bodyLength < kDirectCrcBelow) {
        directBytes_ += bodyLength;
    }
    const std::uint64_t crc = bodyLength < kDirectCrcBelow
                                  ? crc64xz(source.view(body, bodyLength).bytes)
                                  : rangeCrc_->of(offset, body, bodyEnd);
    return stored && crc == *stored;
}

void ZsBlockFinder::collectIndex() {
    if (indexCollected_) {
        return;
    }
    indexCollected_ = true;
    const Header& header = file_->header();
    if (!header.codec) {
        return;
    }
    std::vector<IndexedBlock> found;
    if (header.crcMatches && rangeFits(header.rootIndexOffset, header.rootIndexLength, limit_) &&
        header.rootIndexLength > 0 && header.rootIndexOffset >= file_->blocksBegin()) {
        found.push_back({header.rootIndexOffset, header.rootIndexLength});
    }
    const ByteSource& source = file_->source();
    std::vector<std::uint64_t> pending{header.rootIndexOffset};
    std::set<std::uint64_t> visited;
    while (!pending.empty()) {
        const std::uint64_t offset = pending.back();
        pending.pop_back();
        if (offset < file_->blocksBegin() || offset >= limit_ || !visited.insert(offset).second) {
            continue;
        }
        const FrameRead frame = readFrame(source, offset, limit_);
        if (!frame.usable() || frame.frame.kind() != BlockKind::Index ||
            !checkBlockCrc(source, frame.frame).ok()) {
            continue;  // only an intact index block vouches for anything
        }
        const Payload payload = decodePayload(source, frame.frame, *header.codec, file_->limits());
        const IndexPayload index =
            payload.ok() ? parseIndexPayload(payload.bytes.bytes) : IndexPayload{};
        if (!payload.ok() || index.problem) {
            continue;
        }
        for (const IndexEntry& e : index.entries) {
            if (e.childOffset < file_->blocksBegin() || e.childLength == 0 ||
                !rangeFits(e.childOffset, e.childLength, limit_)) {
                continue;
            }
            found.push_back({e.childOffset, e.childLength});
            const FrameRead child = readFrame(source, e.childOffset, limit_);
            if (child.usable() && child.frame.kind() == BlockKind::Index &&
                child.frame.level < frame.frame.level) {
                pending.push_back(e.childOffset);
            }
        }
    }
    indexed_ = consistent(std::move(found));
}

std::vector<ZsBlockFinder::IndexedBlock> ZsBlockFinder::consistent(
    std::vector<IndexedBlock> found) {
    std::sort(found.begin(), found.end(), [](const IndexedBlock& a, const IndexedBlock& b) {
        return a.offset != b.offset ? a.offset < b.offset : a.length < b.length;
    });
    found.erase(std::unique(found.begin(), found.end(),
                            [](const IndexedBlock& a, const IndexedBlock& b) {
                                return a.offset == b.offset && a.length == b.length;
                            }),
                found.end());
    std::vector<bool> contradicted(found.size(), false);
    for (std::size_t i = 0; i + 1 < found.size(); ++i) {
        if (found[i].offset + found[i].length > found[i + 1].offset) {
            contradicted[i] = contradicted[i + 1] = true;
        }
    }
    std::vector<IndexedBlock> out;
    for (std::size_t i = 0; i < found.size(); ++i) {
        if (!contradicted[i]) {
            out.push_back(found[i]);
        }
    }
    return out;
}

}  // namespace strata::zs
