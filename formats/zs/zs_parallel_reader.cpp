#include "zs_parallel_reader.h"

#include <algorithm>
#include <optional>
#include <thread>

#include "formats/common/ordered_pool.h"

namespace strata::zs {

namespace {

// What a worker makes of one block: its formatted records, then possibly the end of the query
// or the damage that stops the reading.
struct BlockText {
    std::string text;
    bool past = false;
    std::optional<ZsReadError> error;
};

// `located`: the block the index descent of a query ended at, which that descent read and
// left in the query cache.
BlockText formatDataBlock(const ZsFile& file, std::uint64_t offset, bool located,
                          const RecordRange* range, const RecordFormatter& format) {
    BlockText out;
    try {
        const BlockRead block = located ? file.readQueryBlock(offset) : file.readBlock(offset);
        requireIntact(block, offset);
        const auto payload = block.payload->bytes.bytes;
        out.text.reserve(payload.size() + payload.size() / 8);
        RecordCursor cursor(payload);
        while (const auto record = cursor.next()) {
            const auto verdict = range ? range->classify(*record) : RecordRange::Verdict::Inside;
            if (verdict == RecordRange::Verdict::Before) {
                continue;
            }
            if (verdict == RecordRange::Verdict::Past) {
                out.past = true;
                return out;
            }
            format(*record, out.text);
        }
        if (const auto& problem = cursor.problem()) {
            out.error = recordFault(*problem, offset);
        }
    } catch (const ZsReadError& e) {
        out.error = e;
    }
    return out;
}

BlockText checkSkipped(const ZsFile& file, const BlockFrame& frame) {
    BlockText out;
    try {
        file.checkSkippedBlock(frame);
    } catch (const ZsReadError& e) {
        out.error = e;
    }
    return out;
}

// Walks the block frames from `first` (cheap: a length prefix each) and queues a task per
// block; a damaged frame becomes the last task, so its error arrives in order.
class BlockFeeder {
public:
    BlockFeeder(const ZsFile& file, std::uint64_t first, const RecordRange* range,
                const RecordFormatter& format, OrderedPool<BlockText>& pool)
        : file_(file),
          position_(first),
          end_(file.blocksEnd()),
          range_(range),
          format_(format),
          pool_(pool) {}

    bool more() const { return !stopped_ && position_ < end_; }

    // Queues the next block; false when the pool was cancelled.
    bool submitNext() {
        const std::uint64_t offset = position_;
        const FrameRead frame = readFrame(file_.source(), offset, end_);
        if (!frame.usable()) {
            stopped_ = true;
            return pool_.submit([message = frame.message, offset] {
                BlockText out;
                out.error = ZsReadError(message, offset);
                return out;
            });
        }
        position_ = frame.frame.end();
        if (frame.frame.kind() != BlockKind::Data) {
            return pool_.submit(
                [&file = file_, block = frame.frame] { return checkSkipped(file, block); });
        }
        const bool located = range_ != nullptr && !locatedTaken_;
        locatedTaken_ = true;
        return pool_.submit([&file = file_, offset, located, range = range_, &format = format_] {
            return formatDataBlock(file, offset, located, range, format);
        });
    }

private:
    const ZsFile& file_;
    std::uint64_t position_;
    const std::uint64_t end_;
    const RecordRange* range_;
    const RecordFormatter& format_;
    OrderedPool<BlockText>& pool_;
    bool stopped_ = false;
    bool locatedTaken_ = false;
};

bool emptyQuery(const RecordQuery& query) {
    return !query.start && !query.stop && !query.prefix;
}

}  // namespace

bool formatRecords(const ZsFile& file, const RecordQuery& query, const ParallelReadOptions& options,
                   const RecordFormatter& format, const TextSink& emit) {
    if (!file.readable()) {
        throw ZsReadError("the header is damaged or names an unknown codec", 0);
    }
    const RecordRange range(query);
    const bool whole = emptyQuery(query);
    if (!whole && range.empty()) {
        return true;
    }
    const std::uint64_t first = whole ? file.blocksBegin() : file.locateDataBlock(range.start());
    const unsigned threads =
        options.threads != 0 ? options.threads : std::max(1u, std::thread::hardware_concurrency());
    OrderedPool<BlockText> pool(threads, 2 * std::size_t{threads}, options.cancel);
    BlockFeeder feeder(file, first, whole ? nullptr : &range, format, pool);
    // The look-ahead doubles with every block taken, so a short query decodes no block it does
    // not use and a long read soon keeps every worker busy.
    std::size_t window = 1;
    for (;;) {
        while (feeder.more() && pool.inFlight() < window) {
            if (!feeder.submitNext()) {
                return false;
            }
        }
        std::optional<BlockText> block = pool.next();
        if (!block) {
            return !pool.cancelled();
        }
        emit(block->text);
        if (block->error) {
            throw *block->error;
        }
        if (block->past) {
            return true;
        }
        window = std::min(window * 2, pool.maxInFlight());
    }
}

}  // namespace strata::zs
