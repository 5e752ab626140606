#include "zs_reader.h"

#include "zs_block_finder.h"

#include <algorithm>
#include <filesystem>

namespace strata::zs {

ZsFile::ZsFile(ByteSourcePtr source, ReadLimits limits)
    : source_(std::move(source)), limits_(limits), header_(parseHeader(*source_)) {}

std::shared_ptr<ZsFile> ZsFile::open(ByteSourcePtr source, ReadLimits limits) {
    std::shared_ptr<ZsFile> file(new ZsFile(std::move(source), limits));
    if (file->header_.hasFields && file->header_.magic != ZsMagicKind::None &&
        file->header_.magic != ZsMagicKind::UnknownVersion) {
        file->root_ = file->readBlock(file->header_.rootIndexOffset);
    }
    return file;
}

std::string ZsFile::displayName() const {
    const std::string& name = source_->name();
    const auto slash = name.find_last_of("/!");
    return slash == std::string::npos ? name : name.substr(slash + 1);
}

std::uint64_t ZsFile::blocksEnd() const {
    const std::uint64_t size = source_->size();
    const std::uint64_t declared = header_.totalFileLength;
    if (header_.hasFields && declared >= blocksBegin() && declared < size) {
        return declared;
    }
    return size;
}

BlockRead ZsFile::readBlock(std::uint64_t offset) const {
    BlockRead out;
    out.frame = readFrame(*source_, offset, source_->size());
    if (!out.frame.usable()) {
        return out;
    }
    ++blocksRead_;
    out.crc = checkBlockCrc(*source_, out.frame.frame);
    if (header_.codec && out.frame.frame.kind() != BlockKind::Extension) {
        out.payload = decodePayload(*source_, out.frame.frame, *header_.codec, limits_);
    }
    return out;
}

namespace {

constexpr std::size_t kQueryCacheBlocks = 16;
constexpr std::uint64_t kQueryCacheBytes = std::uint64_t{64} << 20;

bool intact(const BlockRead& block) {
    return block.frame.usable() && block.crc && block.crc->ok() &&
           (!block.payload || block.payload->complete());
}

}  // namespace

BlockRead ZsFile::readQueryBlock(std::uint64_t offset) const {
    {
        const std::lock_guard lock(cacheMutex_);
        for (CachedBlock& cached : cache_) {
            if (cached.offset == offset) {
                cached.lastUse = ++cacheClock_;
                return cached.block;
            }
        }
    }
    BlockRead block = readBlock(offset);
    if (!intact(block)) {
        return block;
    }
    const std::lock_guard lock(cacheMutex_);
    const std::uint64_t size = block.payload ? block.payload->bytes.bytes.size() : 0;
    if (size > kQueryCacheBytes / kQueryCacheBlocks) {
        return block;  // one huge block would push out everything else
    }
    if (cache_.size() == kQueryCacheBlocks) {
        const auto oldest = std::min_element(
            cache_.begin(), cache_.end(),
            [](const CachedBlock& a, const CachedBlock& b) { return a.lastUse < b.lastUse; });
        cache_.erase(oldest);
    }
    cache_.push_back({offset, ++cacheClock_, block});
    return block;
}

// Throws unless the block was read, its CRC matches and its payload decoded completely.
void requireIntact(const BlockRead& block, std::uint64_t offset) {
    if (!block.frame.usable()) {
        throw ZsReadError(block.frame.message, offset);
    }
    if (!block.crc->ok()) {
        throw ZsReadError("checksum mismatch in the block at " + std::to_string(offset), offset);
    }
    if (block.payload && !block.payload->complete()) {
        throw ZsReadError("block at " + std::to_string(offset) + ": " + block.payload->message,
                          offset);
    }
}

ZsReadError recordFault(const PayloadProblem& problem, std::uint64_t offset) {
    return ZsReadError("data block at " + std::to_string(offset) + ": " + problem.message, offset);
}

void ZsFile::checkSkippedBlock(const BlockFrame& frame) const {
    ++blocksRead_;
    if (!checkBlockCrc(*source_, frame).ok()) {
        throw ZsReadError("checksum mismatch in the block at " + std::to_string(frame.offset),
                          frame.offset);
    }
}

std::uint64_t ZsFile::locateDataBlock(const std::optional<std::string>& start) const {
    if (!readable()) {
        throw ZsReadError("the header is damaged or names an unknown codec", 0);
    }
    std::uint64_t offset = header_.rootIndexOffset;
    unsigned parentLevel = kMaxIndexLevel + 1;
    for (;;) {
        const BlockRead block =
            offset == header_.rootIndexOffset && root_ ? *root_ : readQueryBlock(offset);
        requireIntact(block, offset);
        const std::uint8_t level = block.frame.frame.level;
        const std::string where = "the block at " + std::to_string(offset);
        if (level >= parentLevel) {
            throw ZsReadError(where + " has level " + std::to_string(level) +
                                  ", not below its parent's " + std::to_string(parentLevel),
                              offset);
        }
        if (level == 0) {
            if (parentLevel > kMaxIndexLevel) {
                throw ZsReadError("the root is a data block, not an index block", offset);
            }
            return offset;
        }
        const IndexPayload index = parseIndexPayload(block.payload->bytes.bytes);
        if (index.problem) {
            throw ZsReadError(where + ": " + index.problem->message, offset);
        }
        if (index.entries.empty()) {
            throw ZsReadError(where + " is an empty index block", offset);
        }
        std::size_t chosen = 0;
        if (start) {
            // The last entry whose key is below start: records equal to start may end the
            // block before the first key >= start.
            const auto payload = block.payload->bytes.bytes;
            const auto startBytes = asBytes(*start);
            std::size_t lo = 0;
            std::size_t hi = index.entries.size();
            while (lo < hi) {
                const std::size_t mid = lo + (hi - lo) / 2;
                const IndexEntry& e = index.entries[mid];
                const auto key = payload.subspan(static_cast<std::size_t>(e.keyOffset),
                                                 static_cast<std::size_t>(e.keyLength));
                if (compareBytes(key, startBytes) < 0) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            chosen = lo > 0 ? lo - 1 : 0;
        }
        parentLevel = level;
        offset = index.entries[chosen].childOffset;
    }
}

std::optional<std::string> prefixUpperBound(const std::string& prefix) {
    std::string bound = prefix;
    while (!bound.empty() && static_cast<unsigned char>(bound.back()) == 0xff) {
        bound.pop_back();
    }
    if (bound.empty()) {
        return std::nullopt;
    }
    bound.back() = static_cast<char>(static_cast<unsigned char>(bound.back()) + 1);
    return bound;
}

RecordRange::RecordRange(const RecordQuery& query)
    : start_(query.start), stop_(query.stop), prefix_(query.prefix) {
    if (prefix_) {
        if (!start_ || *start_ < *prefix_) {
            start_ = prefix_;
        }
        const auto bound = prefixUpperBound(*prefix_);
        if (bound && (!stop_ || *bound < *stop_)) {
            stop_ = bound;
        }
    }
}

bool RecordRange::empty() const {
    return start_ && stop_ && compareBytes(asBytes(*start_), asBytes(*stop_)) >= 0;
}

RecordRange::Verdict RecordRange::classify(std::span<const std::uint8_t> record) const {
    if (start_ && compareBytes(record, asBytes(*start_)) < 0) {
        return Verdict::Before;
    }
    if (stop_ && compareBytes(record, asBytes(*stop_)) >= 0) {
        return Verdict::Past;
    }
    if (prefix_) {
        const auto p = asBytes(*prefix_);
        if (record.size() < p.size() || compareBytes(record.first(p.size()), p) != 0) {
            return Verdict::Past;  // sorted: past every record with the prefix
        }
    }
    return Verdict::Inside;
}

void ZsFile::search(const RecordQuery& query,
                    const std::function<bool(std::span<const std::uint8_t>)>& visit) const {
    const RecordRange range(query);
    if (range.empty()) {
        return;
    }
    const std::uint64_t first = locateDataBlock(range.start());
    ZsRecordIterator records(shared_from_this(), first);
    while (const auto record = records.next()) {
        switch (range.classify(*record)) {
            case RecordRange::Verdict::Before:
                continue;
            case RecordRange::Verdict::Past:
                return;
            case RecordRange::Verdict::Inside:
                break;
        }
        if (!visit(*record)) {
            return;
        }
    }
}

std::vector<std::string> ZsFile::findRecords(std::optional<std::string> start,
                                             std::optional<std::string> stop,
                                             std::size_t maxRecords) const {
    std::vector<std::string> out;
    search({std::move(start), std::move(stop), std::nullopt}, [&](std::span<const std::uint8_t> r) {
        out.emplace_back(r.begin(), r.end());
        return out.size() < maxRecords;
    });
    return out;
}

std::vector<std::string> ZsFile::findPrefix(const std::string& prefix,
                                            std::size_t maxRecords) const {
    std::vector<std::string> out;
    search({std::nullopt, std::nullopt, prefix}, [&](std::span<const std::uint8_t> r) {
        out.emplace_back(r.begin(), r.end());
        return out.size() < maxRecords;
    });
    return out;
}

ZsRecordIterator::ZsRecordIterator(std::shared_ptr<const ZsFile> file)
    : ZsRecordIterator(file, file->blocksBegin()) {}

ZsRecordIterator::ZsRecordIterator(std::shared_ptr<const ZsFile> file, std::uint64_t startOffset)
    : file_(std::move(file)), position_(startOffset) {
    if (!file_->readable()) {
        throw ZsReadError("the header is damaged or names an unknown codec", 0);
    }
}

bool ZsRecordIterator::loadNextDataBlock() {
    const std::uint64_t end = file_->blocksEnd();
    while (position_ < end) {
        const std::uint64_t offset = position_;
        const FrameRead frame = readFrame(file_->source(), offset, end);
        frameOffset_ = offset;
        frameBroken_ = !frame.usable();
        frameUnverified_ = true;
        if (frameBroken_) {
            frameEnd_ = end;
            throw ZsReadError(frame.message, offset);
        }
        position_ = frameEnd_ = frame.frame.end();
        if (frame.frame.kind() != BlockKind::Data) {
            file_->checkSkippedBlock(frame.frame);
            frameUnverified_ = false;
            continue;
        }
        BlockRead block = file_->readQueryBlock(offset);
        frameUnverified_ = !block.crc || !block.crc->ok();
        requireIntact(block, offset);
        blockOffset_ = offset;
        payload_ = std::move(*block.payload);
        if (sha_ != nullptr) {
            sha_->update(payload_.bytes.bytes);
        }
        cursor_.emplace(payload_.bytes.bytes);
        return true;
    }
    return false;
}

ZsRecordIterator::Damage ZsRecordIterator::skipDamage(const CancelToken* cancel) {
    cursor_.reset();
    if (frameBroken_ || frameUnverified_) {
        // Its length is not covered by a CRC that matches: where the next block starts is found.
        if (!finder_) {
            finder_ = std::make_shared<ZsBlockFinder>(file_, file_->blocksEnd());
        }
        const auto next = finder_->resumeAfter(frameOffset_, cancel);
        if (!next) {
            return {frameOffset_, file_->blocksEnd() - frameOffset_, false};
        }
        position_ = frameEnd_ = *next;
        frameBroken_ = frameUnverified_ = false;
    }
    return {frameOffset_, frameEnd_ - frameOffset_, true};
}

std::optional<std::span<const std::uint8_t>> ZsRecordIterator::next() {
    for (;;) {
        if (cursor_) {
            if (auto record = cursor_->next()) {
                return record;
            }
            if (const auto& problem = cursor_->problem()) {
                throw recordFault(*problem, blockOffset_);
            }
            cursor_.reset();
        }
        if (!loadNextDataBlock()) {
            return std::nullopt;
        }
    }
}

}  // namespace strata::zs
