// The records browser's table: the records of a ZS file (or of a query over it) in file order,
// read block by block as the view scrolls (canFetchMore/fetchMore). Only a bounded number of
// decoded blocks is kept (least recently used first out); scrolling back decodes a block again.
// With background decoding on (the GUI), a block that is not cached is decoded by a worker
// while its rows show a placeholder; the rows update when it arrives. Where the file is damaged
// (a block failing its CRC, a length that cannot be read), one marker row names the damaged
// bytes and why, and the table goes on at the next intact block (zs::ZsBlockFinder; a worker
// looks for it with background decoding on, since it may have to scan).
#pragma once

#include <QAbstractTableModel>
#include <QByteArray>
#include <QThreadPool>
#include <QTimer>

#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "formats/common/region.h"
#include "formats/common/validator.h"
#include "formats/zs/zs_block_finder.h"
#include "formats/zs/zs_reader.h"

namespace strata::model {

// [lo, hi) in memcmp order: a query's start/stop narrowed by its prefix.
struct ZsQueryBounds {
    std::optional<std::string> lo;
    std::optional<std::string> hi;
    bool empty = false;  // lo >= hi: nothing can match

    static ZsQueryBounds of(const zs::RecordQuery& query);
    // -1 below lo, 0 inside, 1 at or above hi.
    int classify(std::span<const std::uint8_t> record) const;
};

// Where a query's scan starts: the data block the index descent names for its lower bound,
// then forward over blocks whose records all lie below it. O(depth) block reads plus the
// blocks skipped. Throws zs::ZsReadError where the file is damaged.
std::uint64_t zsFirstQueryBlock(const zs::ZsFile& file, const zs::RecordQuery& query);

class ZsRecordsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { NumberColumn, RecordColumn, LengthColumn, BlockColumn, ColumnCount };
    enum Role { BlockOffsetRole = Qt::UserRole + 1, RecordBytesRole };

    explicit ZsRecordsModel(std::shared_ptr<const zs::ZsFile> file, QObject* parent = nullptr);
    ~ZsRecordsModel() override;

    const zs::ZsFile& file() const { return *file_; }

    // Shows the records `query` selects, scanning data blocks from `startBlock` (by default the
    // first block after the header; pass zsFirstQueryBlock's answer to skip ahead). Row numbers
    // count from the first selected record.
    void setQuery(const zs::RecordQuery& query, std::optional<std::uint64_t> startBlock = {});
    const zs::RecordQuery& query() const { return query_; }
    bool isFiltered() const;

    // Records as hex bytes instead of text.
    void setHexRendering(bool hex);
    bool hexRendering() const { return hex_; }

    // Loads blocks until `rows` rows exist or the records end (tests, "go to end"); waits for a
    // worker looking for the next intact block.
    void fetchUntil(int rows);
    // True once the last selected record has been read (or the header cannot be read).
    bool isComplete() const { return done_; }
    // The records listed so far (rows without the damage markers).
    std::uint64_t recordCount() const { return records_; }
    // What is wrong: the header, or the damaged stretches passed so far (the first named, with
    // how many more); empty when nothing is. errorOffset() is where the first one starts.
    QString errorText() const;
    std::uint64_t errorOffset() const { return errorOffset_; }
    // Damaged stretches passed so far, each a marker row.
    int damageCount() const { return damages_; }
    bool isDamageRow(int row) const;
    // True while a worker looks for the next intact block after damage.
    bool isLookingForIntactBlock() const { return resuming_; }

    QByteArray recordAt(int row) const;
    std::optional<std::uint64_t> blockOffsetForRow(int row) const;
    // The whole block (framing, payload and CRC) the row's record is stored in; for a damage
    // marker, the damaged bytes.
    strata::Region blockRegionForRow(int row) const;

    // Decode uncached blocks on a worker thread instead of inside data() (the records view
    // turns this on; off, data() decodes on the spot, as the CLI and tests expect).
    void setBackgroundDecoding(bool on) { background_ = on; }
    bool backgroundDecoding() const { return background_; }
    // True while the next block's bytes are on their way from a server (background decoding
    // only): rows are added when they have come, without the view asking again.
    bool isWaitingForBytes() const;
    // Blocks being decoded by the worker.
    std::size_t pendingDecodes() const { return pending_.size(); }

    // Decoded blocks kept at most (default 32); decodes done so far (tests check both).
    void setCacheCapacity(std::size_t blocks);
    std::size_t cachedBlocks() const { return cache_.size(); }
    std::uint64_t blockDecodes() const { return decodes_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    bool canFetchMore(const QModelIndex& parent) const override;
    void fetchMore(const QModelIndex& parent) override;

    // Display text of a record: printable text with escapes, or spaced hex; cut after `max`
    // bytes.
    static QString renderRecord(std::span<const std::uint8_t> bytes, bool hex,
                                std::size_t max = 256);

signals:
    // The scan passed damaged bytes (a marker row was added for them), or the header cannot be
    // read.
    void readFailed(const QString& message, quint64 offset);
    // The scan reached the end of the file.
    void allRead();
    // A worker started or stopped looking for the next intact block after damage.
    void lookingForIntactBlockChanged(bool looking);

private:
    struct Block {
        std::uint64_t offset = 0;
        std::uint64_t length = 0;
        int firstRow = 0;
        int rows = 0;
        std::uint64_t skip = 0;         // records before the first selected one
        std::uint64_t firstRecord = 0;  // records listed before this block
        QString damage;                 // a damage marker (one row): why the bytes are unread
    };
    struct Decoded {
        strata::ByteView payload;  // keeps the records' bytes alive
        std::vector<std::span<const std::uint8_t>> records;
    };
    using DecodedPtr = std::shared_ptr<const Decoded>;

    // Reads the next data block from next_; false when there is none (the end, or a worker
    // looking for the next intact block).
    bool loadNextBlock();
    bool nextBlockReady() const;
    // After a fetch: when no data block is left (only index blocks up to the end), reads them
    // now, so the rows shown are known to be all of them without another scroll.
    void finishIfNoRecordsLeft();
    void fail(const QString& message, std::uint64_t offset);
    // Damage at `offset`: finds where reading goes on (on a worker with background decoding)
    // and adds a marker row for the bytes in between. False while a worker looks.
    bool passDamage(std::uint64_t offset, const QString& why);
    // The marker row for [offset, end), reading going on at `end`.
    void addDamage(std::uint64_t offset, std::uint64_t end, const QString& why);
    // Drops a worker's search for the next intact block (its answer is ignored).
    void stopResuming();
    int blockIndexForRow(int row) const;
    DecodedPtr decoded(int blockIndex) const;
    // The cached block, or nullptr after asking the worker for it (background decoding only).
    DecodedPtr decodedIfReady(int blockIndex) const;
    void requestDecode(int blockIndex) const;
    void decodeArrived(int blockIndex, int generation, DecodedPtr block);
    static DecodedPtr decodeBlock(const zs::ZsFile& file, const Block& block);
    static QVariant damageData(const Block& marker, int column, int role);
    void remember(int blockIndex, DecodedPtr block) const;

    std::shared_ptr<const zs::ZsFile> file_;
    zs::RecordQuery query_;
    ZsQueryBounds bounds_;
    bool hex_ = false;

    std::vector<Block> blocks_;
    int rows_ = 0;
    std::uint64_t records_ = 0;
    std::uint64_t next_ = 0;
    bool done_ = false;
    QString error_;  // the first damage, or the header
    std::uint64_t errorOffset_ = 0;
    int damages_ = 0;

    std::shared_ptr<zs::ZsBlockFinder> finder_;  // made at the first damage
    std::shared_ptr<std::mutex> finderMutex_ = std::make_shared<std::mutex>();
    std::shared_ptr<strata::CancelToken> resumeCancel_;
    bool resuming_ = false;
    bool resumeInline_ = false;  // fetchUntil: no worker, the caller waits
    int resumeTicket_ = 0;       // bumped when a worker's answer is no longer wanted
    std::uint64_t pendingDamage_ = 0;
    QString pendingWhy_;

    std::size_t capacity_ = 32;
    mutable std::list<int> lru_;  // most recent first
    mutable std::unordered_map<int, std::pair<DecodedPtr, std::list<int>::iterator>> cache_;
    mutable std::uint64_t decodes_ = 0;

    bool background_ = false;
    QTimer* fetchRetry_ = nullptr;  // fetchMore again once the next block's bytes have come
    int generation_ = 0;            // bumped when the rows are replaced; late decodes are dropped
    mutable std::unordered_set<int> pending_;
    std::unique_ptr<QThreadPool> pool_;
};

}  // namespace strata::model
