#include "zs_diff.h"

#include <algorithm>
#include <cctype>
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

// What a read error says, naming its offset once: most messages name the block's offset
// already ("checksum mismatch in the block at 134"); the others get it added.
std::string damageText(const zs::ZsReadError& e) {
    std::string text = e.what();
    const std::string at = "at " + std::to_string(e.offset());
    const std::size_t found = text.find(at);
    const bool named = found != std::string::npos &&
                       (found + at.size() == text.size() ||
                        !std::isdigit(static_cast<unsigned char>(text[found + at.size()])));
    return named ? text : text + " (at byte " + std::to_string(e.offset()) + ")";
}

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
    std::string damageWhole;  // or a damage that is not a block's, described in full
    Region damageRegion;

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

int compareRecords(std::string_view a, std::string_view b) {
    const int c = std::memcmp(a.data(), b.data(), std::min(a.size(), b.size()));
    if (c != 0) {
        return c;
    }
    return a.size() < b.size() ? -1 : (a.size() > b.size() ? 1 : 0);
}

// Records out of order: the merge walk cannot compare them (ZS files are sorted).
class UnsortedRecords : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// One side's records in file order, decoded on a thread of its own and pulled in batches. The
// records must ascend; when the walk meets no damage, their payloads must hash to the header's
// data SHA-256, or records are missing that no damaged block accounts for (a file cut at a block
// boundary, a data block hidden under an extension level), and that is reported as damage.
class RecordStream {
public:
    RecordStream(std::shared_ptr<const ZsFile> file, const CancelToken* cancel)
        : file_(std::move(file)), cancel_(cancel) {
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
            Sha256 sha;
            it.hashPayloadsInto(&sha);
            while (walk(it)) {
            }
            if (!damaged_ && !stop_) {
                checkHash(sha.finish());
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
                    keepLast(batch);
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
                requireOrder(batch, *record, it.blockOffset());
                batch.add(record->data(), record->size());
                lastBytes = std::max(lastBytes, batch.bytes.size());
                lastRecords = std::max(lastRecords, batch.size());
            }
            if (!batch.empty()) {
                keepLast(batch);
                push(std::move(batch));
            }
            return false;  // the end of the records
        } catch (const zs::ZsReadError& e) {
            // The records read before the damage stand; the damaged bytes are reported and the
            // walk goes on at the next intact block.
            damaged_ = true;
            keepLast(batch);
            if (!batch.empty() && !push(std::move(batch))) {
                return false;
            }
            const auto damage = it.skipDamage(cancel_);
            RecordBatch marker;
            marker.blockOffset = damage.offset;
            marker.damageLength = damage.length;
            marker.damage = damageText(e);
            return push(std::move(marker)) && damage.canContinue;
        }
    }

    // The record must not sort before the one read before it.
    void requireOrder(const RecordBatch& batch, std::span<const std::uint8_t> record,
                      std::uint64_t block) {
        const std::string_view r(reinterpret_cast<const char*>(record.data()), record.size());
        const std::string_view previous =
            batch.empty() ? std::string_view(last_) : batch.record(batch.size() - 1);
        if ((hasLast_ || !batch.empty()) && compareRecords(previous, r) > 0) {
            throw UnsortedRecords(
                "records out of order in the data block at byte " + std::to_string(block) + ": '" +
                zs::printableBytes(zs::asBytes(r), 60) + "' after '" +
                zs::printableBytes(zs::asBytes(previous), 60) +
                "'; a ZS file's records are sorted, and the comparison needs them so (see "
                "validate)");
        }
    }

    // The batch's last record, before the batch is handed over: the next one is checked
    // against it.
    void keepLast(const RecordBatch& batch) {
        if (!batch.empty()) {
            last_ = batch.record(batch.size() - 1);
            hasLast_ = true;
        }
    }

    void checkHash(const Sha256Digest& digest) {
        const zs::Header& header = file_->header();
        if (digest == header.dataSha256) {
            return;
        }
        RecordBatch marker;
        marker.damageRegion = header.shaRegion;
        const std::uint64_t size = file_->source().size();
        marker.damageWhole =
            "the records read do not hash to the header's data SHA-256: records are missing that "
            "no damaged block accounts for" +
            (header.totalFileLength > size
                 ? " (the file is " + std::to_string(header.totalFileLength - size) +
                       " bytes shorter than its header says)"
                 : std::string(" (a data block under another level byte, say)")) +
            ", or the hash itself is wrong";
        push(std::move(marker));
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
    const CancelToken* cancel_;
    bool damaged_ = false;  // a damaged block was met (the hash cannot match then)
    std::string last_;      // the last record of the batches handed over
    bool hasLast_ = false;
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
            if (end_ || (batch_.damage.empty() && batch_.damageWhole.empty())) {
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

class ZsDiffer final : public Differ {
public:
    ZsDiffer(std::shared_ptr<const ZsFile> a, std::shared_ptr<const ZsFile> b)
        : a_(std::move(a)), b_(std::move(b)) {}

    JobOutcome run(DiffSink& sink, const DiffOptions& options) override {
        sink_ = &sink;
        options_ = &options;
        readable(*a_, 'A');
        readable(*b_, 'B');
        if (!header()) {
            return JobOutcome::Stopped;
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

    bool metadata(const zs::Header& ha, const zs::Header& hb) {
        Difference d;
        d.kind = DiffKind::Changed;
        d.path = "header/metadata";
        d.a.region = ha.metadataRegion;
        d.b.region = hb.metadataRegion;
        std::size_t more = 0;
        if (ha.metadata && hb.metadata) {
            diffJsonValues(*ha.metadata, *hb.metadata, "$", d.fields, more,
                           options_->maxValueChars);
            // Integers beyond 64 bits are parsed as doubles: two that differ can read the same.
            if (d.fields.empty() && wideIntegers(ha) != wideIntegers(hb)) {
                d.fields.push_back({"$", DiffKind::Changed, metadataText(ha), metadataText(hb)});
            }
        } else if (!sameMetadataBytes(ha, hb)) {
            // Not JSON on one side at least (or too large to parse): the bytes decide.
            d.fields.push_back({"$", DiffKind::Changed, metadataText(ha), metadataText(hb)});
        }
        if (d.fields.empty()) {
            return true;
        }
        d.description = "metadata: " + std::to_string(d.fields.size() + more) + " value" +
                        (d.fields.size() + more == 1 ? "" : "s") + " differ";
        return put(std::move(d));
    }

    // The integers of the metadata too wide for 64 bits, as written, in document order.
    static std::vector<std::string> wideIntegers(const zs::Header& h) {
        struct Collector : nlohmann::json_sax<nlohmann::json> {
            std::vector<std::string> wide;
            bool null() override { return true; }
            bool boolean(bool) override { return true; }
            bool number_integer(number_integer_t) override { return true; }
            bool number_unsigned(number_unsigned_t) override { return true; }
            bool number_float(number_float_t, const string_t& text) override {
                if (text.find_first_of(".eE") == string_t::npos) {
                    wide.push_back(text);
                }
                return true;
            }
            bool string(string_t&) override { return true; }
            bool binary(binary_t&) override { return true; }
            bool start_object(std::size_t) override { return true; }
            bool key(string_t&) override { return true; }
            bool end_object() override { return true; }
            bool start_array(std::size_t) override { return true; }
            bool end_array() override { return true; }
            bool parse_error(std::size_t, const std::string&,
                             const nlohmann::detail::exception&) override {
                return false;
            }
        } collector;
        const ByteView v = metadataBytes(h);
        nlohmann::json::sax_parse(v.bytes.begin(), v.bytes.end(), &collector);
        return collector.wide;
    }

    static ByteView metadataBytes(const zs::Header& h) {
        return h.source->view(h.metadataRegion.offset, h.metadataRegion.length);
    }

    static bool sameMetadataBytes(const zs::Header& ha, const zs::Header& hb) {
        const ByteView a = metadataBytes(ha), b = metadataBytes(hb);
        return std::equal(a.bytes.begin(), a.bytes.end(), b.bytes.begin(), b.bytes.end());
    }

    // Metadata that is not parsed as it reads (cut for the report), or "JSON".
    std::string metadataText(const zs::Header& h) const {
        if (h.metadata) {
            return "JSON";
        }
        return "not JSON: " + zs::printableBytes(metadataBytes(h).bytes, options_->maxValueChars);
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

    JobOutcome records() {
        RecordStream sa(a_, options_->cancel), sb(b_, options_->cancel);
        RecordCursor ca(sa, 'A', a_->displayName()), cb(sb, 'B', b_->displayName());
        std::uint64_t steps = 0;
        while (!ca.atEnd() || !cb.atEnd()) {
            if ((ca.hasDamage() || cb.hasDamage()) && !reportDamage(ca, cb)) {
                return JobOutcome::Stopped;
            }
            if ((++steps & 0xFFFF) == 0) {
                if (options_->cancelled()) {
                    return JobOutcome::Cancelled;
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
                return JobOutcome::Stopped;
            }
            cur.advance();
        }
        if (!reportDamage(ca, cb)) {
            return JobOutcome::Stopped;
        }
        if (!layout(sa.blocks(), sb.blocks(), ca.count())) {
            return JobOutcome::Stopped;
        }
        options_->reportProgress(1.0, "done");
        return JobOutcome::Completed;
    }

    // Blocks that cannot be read are differences of their own; their records are not compared
    // (records of the other side in their key range then show as only there).
    bool reportDamage(RecordCursor& ca, RecordCursor& cb) {
        for (const auto& [cursor, side, file] :
             {std::tuple{&ca, 'A', a_.get()}, std::tuple{&cb, 'B', b_.get()}}) {
            for (const RecordBatch& marker : cursor->takeDamage()) {
                Difference d;
                d.kind = DiffKind::Changed;
                if (!marker.damageWhole.empty()) {
                    d.path = std::string("damage/") + side + "/sha256";
                    d.description = std::string(1, side) + ": " + marker.damageWhole;
                    (side == 'A' ? d.a : d.b).region = marker.damageRegion;
                    if (!put(std::move(d))) {
                        return false;
                    }
                    continue;
                }
                d.path = std::string("damage/") + side + "/" + std::to_string(marker.blockOffset);
                d.description = std::string(1, side) + ": bytes " +
                                std::to_string(marker.blockOffset) + " to " +
                                std::to_string(marker.blockOffset + marker.damageLength) +
                                " cannot be read (" + marker.damage +
                                "); records stored there are not compared";
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
