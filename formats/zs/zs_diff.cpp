#include "zs_diff.h"

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <string_view>
#include <thread>
#include <tuple>
#include <utility>

#include "formats/common/json_diff.h"
#include "formats/common/thread_cancel.h"

namespace strata {

namespace {

using zs::ZsFile;

constexpr std::size_t kQueuedBatches = 8;
constexpr std::size_t kBatchRecords = 4096;

// Records of one data block (or part of one), copied out of the decoded payload into one buffer
// (one allocation per batch, not one per record); or, with no records, a block that cannot be
// read.
struct RecordBatch {
    std::uint64_t blockOffset = 0;
    bool firstOfBlock = false;
    std::string bytes;              // the records, back to back
    std::vector<std::size_t> ends;  // where each record ends in `bytes`
    std::string damage;             // why the block cannot be read, when it cannot
    std::uint64_t damageLength = 0;

    std::size_t size() const { return ends.size(); }
    bool empty() const { return ends.empty(); }
    std::string_view record(std::size_t i) const {
        const std::size_t begin = i == 0 ? 0 : ends[i - 1];
        return std::string_view(bytes).substr(begin, ends[i] - begin);
    }
    void add(const std::uint8_t* data, std::size_t size) {
        bytes.append(reinterpret_cast<const char*>(data), size);
        ends.push_back(bytes.size());
    }
};

// One side's records in file order, decoded on a thread of its own and pulled in batches.
class RecordStream {
public:
    explicit RecordStream(std::shared_ptr<const ZsFile> file) : file_(std::move(file)) {
        worker_ = startThreadInheritingCancel([this] { produce(); });
    }
    ~RecordStream() {
        {
            std::lock_guard lock(mutex_);
            stop_ = true;
        }
        changed_.notify_all();
        worker_.join();
    }
    RecordStream(const RecordStream&) = delete;
    RecordStream& operator=(const RecordStream&) = delete;

    // The next batch, or false at the end of the records or on an error (see error()).
    bool next(RecordBatch& batch) {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [this] { return !queue_.empty() || done_; });
        if (queue_.empty()) {
            return false;
        }
        batch = std::move(queue_.front());
        queue_.pop_front();
        changed_.notify_all();
        return true;
    }
    // Set when the walk ended on damage: the message names the byte offset.
    std::string error() {
        std::lock_guard lock(mutex_);
        return error_;
    }
    std::uint64_t blocks() const { return blocks_; }

private:
    void produce() {
        try {
            zs::ZsRecordIterator it(file_);
            while (walk(it)) {
            }
        } catch (const std::exception& e) {
            std::lock_guard lock(mutex_);
            error_ = e.what();
        }
        std::lock_guard lock(mutex_);
        done_ = true;
        changed_.notify_all();
    }

    // Pushes records until the end, or until a damaged block, which is pushed as such; true to
    // go on after it.
    bool walk(zs::ZsRecordIterator& it) {
        RecordBatch batch;
        std::size_t lastBytes = 0, lastRecords = 0;
        try {
            std::uint64_t block = UINT64_MAX;
            while (auto record = it.next()) {
                if (it.blockOffset() != block || batch.size() == kBatchRecords) {
                    if (!batch.empty() && !push(std::move(batch))) {
                        return false;
                    }
                    batch = {};
                    // Sized like the last batch: no regrowth while it fills.
                    batch.bytes.reserve(lastBytes);
                    batch.ends.reserve(lastRecords);
                    batch.firstOfBlock = it.blockOffset() != block;
                    blocks_ += batch.firstOfBlock ? 1 : 0;
                    block = it.blockOffset();
                    batch.blockOffset = block;
                }
                batch.add(record->data(), record->size());
                lastBytes = std::max(lastBytes, batch.bytes.size());
                lastRecords = std::max(lastRecords, batch.size());
            }
            if (!batch.empty()) {
                push(std::move(batch));
            }
            return false;  // the end of the records
        } catch (const zs::ZsReadError& e) {
            // The records read before the damage stand; the block is reported and the walk
            // goes on at the next block when its length could be read.
            if (!batch.empty() && !push(std::move(batch))) {
                return false;
            }
            const auto damage = it.skipDamage();
            RecordBatch marker;
            marker.blockOffset = damage.offset;
            marker.damageLength = damage.length;
            marker.damage = std::string(e.what()) + " (byte " + std::to_string(e.offset()) + ")";
            return push(std::move(marker)) && damage.canContinue;
        }
    }

    bool push(RecordBatch batch) {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [this] { return queue_.size() < kQueuedBatches || stop_; });
        if (stop_) {
            done_ = true;
            return false;
        }
        queue_.push_back(std::move(batch));
        changed_.notify_all();
        return true;
    }

    std::shared_ptr<const ZsFile> file_;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<RecordBatch> queue_;
    std::string error_;
    bool done_ = false, stop_ = false;
    std::atomic<std::uint64_t> blocks_{0};
    std::thread worker_;
};

// Walks one side's batches record by record; damage on that side ends the comparison with the
// side, the file and the byte offset named.
class RecordCursor {
public:
    RecordCursor(RecordStream& stream, char side, std::string name)
        : stream_(stream), side_(side), name_(std::move(name)) {
        fill();
    }
    bool atEnd() const { return end_; }
    std::string_view record() const { return batch_.record(at_); }
    std::uint64_t blockOffset() const { return batch_.blockOffset; }
    std::uint64_t count() const { return count_; }  // records passed so far
    bool hasDamage() const { return !damage_.empty(); }
    // The damaged blocks met since the last call, in file order.
    std::vector<RecordBatch> takeDamage() { return std::exchange(damage_, {}); }
    void advance() {
        ++count_;
        if (++at_ >= batch_.size()) {
            fill();
        }
    }

private:
    void fill() {
        at_ = 0;
        for (;;) {
            end_ = !stream_.next(batch_);  // record batches are never empty
            if (end_ || batch_.damage.empty()) {
                break;
            }
            damage_.push_back(std::move(batch_));
        }
        if (end_) {
            if (const std::string e = stream_.error(); !e.empty()) {
                throw DiffError(std::string(1, side_) + " (" + name_ + "): " + e);
            }
        }
    }

    RecordStream& stream_;
    char side_;
    std::string name_;
    RecordBatch batch_;
    std::vector<RecordBatch> damage_;
    std::size_t at_ = 0;
    std::uint64_t count_ = 0;
    bool end_ = false;
};

int compareRecords(std::string_view a, std::string_view b) {
    const int c = std::memcmp(a.data(), b.data(), std::min(a.size(), b.size()));
    if (c != 0) {
        return c;
    }
    return a.size() < b.size() ? -1 : (a.size() > b.size() ? 1 : 0);
}

class ZsDiffer final : public Differ {
public:
    ZsDiffer(std::shared_ptr<const ZsFile> a, std::shared_ptr<const ZsFile> b)
        : a_(std::move(a)), b_(std::move(b)) {}

    DiffOutcome run(DiffSink& sink, const DiffOptions& options) override {
        sink_ = &sink;
        options_ = &options;
        readable(*a_, 'A');
        readable(*b_, 'B');
        if (!header()) {
            return DiffOutcome::Stopped;
        }
        return records();
    }

private:
    static void readable(const ZsFile& f, char side) {
        if (!f.readable()) {
            throw DiffError(std::string(1, side) + " (" + f.displayName() +
                            "): the ZS header cannot be read (see validate)");
        }
    }

    bool put(Difference d) { return report(*sink_, std::move(d)); }

    bool header() {
        const zs::Header& ha = a_->header();
        const zs::Header& hb = b_->header();
        if (ha.codec != hb.codec) {
            Difference d;
            d.kind = DiffKind::Encoding;
            d.path = "header/codec";
            d.a = {ha.codecRegion, ha.codecText};
            d.b = {hb.codecRegion, hb.codecText};
            d.description = "codec: " + ha.codecText + " in A, " + hb.codecText + " in B";
            if (!put(std::move(d))) {
                return false;
            }
        }
        return metadata(ha, hb);
    }

    // The metadata with its numbers as written (the header's parse holds them as doubles).
    static std::optional<nlohmann::json> exactMetadata(const zs::Header& h) {
        if (!h.metadata || !h.metadataRegion.valid()) {
            return h.metadata;
        }
        const ByteView v =
            h.metadataRegion.source->view(h.metadataRegion.offset, h.metadataRegion.length);
        return parseJsonExact(std::string_view(reinterpret_cast<const char*>(v.data()), v.size()))
            .value_or(*h.metadata);
    }

    bool metadata(const zs::Header& ha, const zs::Header& hb) {
        Difference d;
        d.kind = DiffKind::Changed;
        d.path = "header/metadata";
        d.a.region = ha.metadataRegion;
        d.b.region = hb.metadataRegion;
        std::size_t more = 0;
        const auto ma = exactMetadata(ha), mb = exactMetadata(hb);
        if (ma && mb) {
            diffJsonValues(*ma, *mb, "$", d.fields, more, options_->maxValueChars);
        } else if (ha.metadata.has_value() != hb.metadata.has_value()) {
            d.fields.push_back({"$", DiffKind::Changed, ha.metadata ? "JSON" : "not JSON",
                                hb.metadata ? "JSON" : "not JSON"});
        }
        if (d.fields.empty()) {
            return true;
        }
        d.description = "metadata: " + std::to_string(d.fields.size() + more) + " value" +
                        (d.fields.size() + more == 1 ? "" : "s") + " differ";
        return put(std::move(d));
    }

    Difference recordDifference(DiffKind kind, std::string_view record, const ZsFile& file,
                                std::uint64_t blockOffset) {
        Difference d;
        d.kind = kind;
        const std::string shown = zs::printableBytes(zs::asBytes(record), options_->maxValueChars);
        d.path = "record/" + shown;
        d.description = std::string("record '") + shown + "' is only in " +
                        (kind == DiffKind::Removed ? "A" : "B");
        (kind == DiffKind::Removed ? d.a : d.b) = {Region{&file.source(), blockOffset, 1}, shown};
        return d;
    }

    DiffOutcome records() {
        RecordStream sa(a_), sb(b_);
        RecordCursor ca(sa, 'A', a_->displayName()), cb(sb, 'B', b_->displayName());
        std::uint64_t steps = 0;
        while (!ca.atEnd() || !cb.atEnd()) {
            if ((ca.hasDamage() || cb.hasDamage()) && !reportDamage(ca, cb)) {
                return DiffOutcome::Stopped;
            }
            if ((++steps & 0xFFFF) == 0) {
                if (options_->cancelled()) {
                    return DiffOutcome::Cancelled;
                }
                progress(ca, cb);
            }
            const int c = ca.atEnd()   ? 1
                          : cb.atEnd() ? -1
                                       : compareRecords(ca.record(), cb.record());
            ++summary_.compared;
            if (c == 0) {
                ca.advance();
                cb.advance();
                continue;
            }
            const bool onlyA = c < 0;
            RecordCursor& cur = onlyA ? ca : cb;
            if (!put(recordDifference(onlyA ? DiffKind::Removed : DiffKind::Added, cur.record(),
                                      onlyA ? *a_ : *b_, cur.blockOffset()))) {
                return DiffOutcome::Stopped;
            }
            cur.advance();
        }
        if (!reportDamage(ca, cb)) {
            return DiffOutcome::Stopped;
        }
        if (!layout(sa.blocks(), sb.blocks(), ca.count())) {
            return DiffOutcome::Stopped;
        }
        options_->reportProgress(1.0, "done");
        return DiffOutcome::Completed;
    }

    // Blocks that cannot be read are differences of their own; their records are not compared
    // (records of the other side in their key range then show as only there).
    bool reportDamage(RecordCursor& ca, RecordCursor& cb) {
        for (const auto& [cursor, side, file] :
             {std::tuple{&ca, 'A', a_.get()}, std::tuple{&cb, 'B', b_.get()}}) {
            for (const RecordBatch& marker : cursor->takeDamage()) {
                Difference d;
                d.kind = DiffKind::Changed;
                d.path = std::string("damage/") + side + "/" + std::to_string(marker.blockOffset);
                d.description = std::string(1, side) + ": the block at byte " +
                                std::to_string(marker.blockOffset) + " cannot be read (" +
                                marker.damage + "); records in its " +
                                std::to_string(marker.damageLength) + " bytes are not compared";
                (side == 'A' ? d.a : d.b).region =
                    Region{&file->source(), marker.blockOffset, marker.damageLength};
                if (!put(std::move(d))) {
                    return false;
                }
            }
        }
        return true;
    }

    void progress(const RecordCursor& ca, const RecordCursor& cb) const {
        const double fa = double(ca.atEnd() ? a_->blocksEnd() : ca.blockOffset()) /
                          double(std::max<std::uint64_t>(1, a_->blocksEnd()));
        const double fb = double(cb.atEnd() ? b_->blocksEnd() : cb.blockOffset()) /
                          double(std::max<std::uint64_t>(1, b_->blocksEnd()));
        options_->reportProgress(std::min(fa, fb), std::to_string(ca.count()) + " records");
    }

    // Same records in another number of blocks: the block size or codec settings differ.
    bool layout(std::uint64_t blocksA, std::uint64_t blocksB, std::uint64_t recordsA) {
        if (blocksA == blocksB || summary_.total() != summary_.encoding) {
            return true;
        }
        Difference d;
        d.kind = DiffKind::Encoding;
        d.path = "blocks";
        d.a.value = std::to_string(blocksA) + " data blocks";
        d.b.value = std::to_string(blocksB) + " data blocks";
        d.description = "the same " + std::to_string(recordsA) + " records in " + d.a.value +
                        " in A, " + d.b.value + " in B";
        return put(std::move(d));
    }

    std::shared_ptr<const ZsFile> a_, b_;
    DiffSink* sink_ = nullptr;
    const DiffOptions* options_ = nullptr;
};

}  // namespace

std::unique_ptr<Differ> makeZsDiffer(std::shared_ptr<const ZsFile> a,
                                     std::shared_ptr<const ZsFile> b) {
    return std::make_unique<ZsDiffer>(std::move(a), std::move(b));
}

}  // namespace strata
