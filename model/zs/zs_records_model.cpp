#include "zs_records_model.h"

#include <QBrush>
#include <QColor>
#include <QFutureWatcher>
#include <QStringDecoder>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <climits>

#include "formats/common/bounds.h"
#include "formats/common/uleb128.h"
#include "formats/zs/zs_block.h"
#include "model/core/counted_text.h"

namespace strata::model {

namespace {

// Rows added per fetchMore, and blocks read at most per call (blocks may hold no selected row).
constexpr int kFetchRows = 512;
constexpr int kFetchBlocks = 64;

QString escapeControl(const QString& text) {
    QString out;
    out.reserve(text.size());
    for (const QChar c : text) {
        if (c == QLatin1Char('\n')) {
            out += QStringLiteral("\\n");
        } else if (c == QLatin1Char('\t')) {
            out += QStringLiteral("\\t");
        } else if (c == QLatin1Char('\r')) {
            out += QStringLiteral("\\r");
        } else if (c == QLatin1Char('\\')) {
            out += QStringLiteral("\\\\");
        } else if (c.unicode() < 0x20 || c.unicode() == 0x7f) {
            out += QStringLiteral("\\x%1").arg(c.unicode(), 2, 16, QLatin1Char('0'));
        } else {
            out += c;
        }
    }
    return out;
}

}  // namespace

ZsQueryBounds ZsQueryBounds::of(const zs::RecordQuery& query) {
    ZsQueryBounds b;
    b.lo = query.start;
    b.hi = query.stop;
    if (query.prefix) {
        if (!b.lo || *b.lo < *query.prefix) {
            b.lo = query.prefix;
        }
        const auto bound = zs::prefixUpperBound(*query.prefix);
        if (bound && (!b.hi || *bound < *b.hi)) {
            b.hi = bound;
        }
    }
    b.empty = b.lo && b.hi && zs::compareBytes(zs::asBytes(*b.lo), zs::asBytes(*b.hi)) >= 0;
    return b;
}

int ZsQueryBounds::classify(std::span<const std::uint8_t> record) const {
    if (lo && zs::compareBytes(record, zs::asBytes(*lo)) < 0) {
        return -1;
    }
    if (hi && zs::compareBytes(record, zs::asBytes(*hi)) >= 0) {
        return 1;
    }
    return 0;
}

std::uint64_t zsFirstQueryBlock(const zs::ZsFile& file, const zs::RecordQuery& query) {
    return file.locateDataBlock(ZsQueryBounds::of(query).lo);
}

ZsRecordsModel::ZsRecordsModel(std::shared_ptr<const zs::ZsFile> file, QObject* parent)
    : QAbstractTableModel(parent), file_(std::move(file)), pool_(std::make_unique<QThreadPool>()) {
    pool_->setMaxThreadCount(1);  // blocks arrive in the order the view asked for them
    fetchRetry_ = new QTimer(this);
    fetchRetry_->setSingleShot(true);
    fetchRetry_->setInterval(50);
    connect(fetchRetry_, &QTimer::timeout, this, [this] { fetchMore({}); });
    setQuery({});
}

ZsRecordsModel::~ZsRecordsModel() {
    if (resumeCancel_) {
        resumeCancel_->cancel();
    }
}

void ZsRecordsModel::setQuery(const zs::RecordQuery& query, std::optional<std::uint64_t> start) {
    beginResetModel();
    query_ = query;
    bounds_ = ZsQueryBounds::of(query);
    blocks_.clear();
    rows_ = 0;
    records_ = 0;
    damages_ = 0;
    stopResuming();
    lru_.clear();
    cache_.clear();
    pending_.clear();
    ++generation_;
    next_ = start.value_or(file_->blocksBegin());
    error_.clear();
    errorOffset_ = 0;
    done_ = bounds_.empty;
    if (!file_->readable()) {
        done_ = true;
        error_ = tr("The header is damaged or names an unknown codec: no block can be read.");
    }
    endResetModel();
}

bool ZsRecordsModel::isFiltered() const {
    return query_.start || query_.stop || query_.prefix;
}

void ZsRecordsModel::setHexRendering(bool hex) {
    if (hex == hex_) {
        return;
    }
    hex_ = hex;
    if (rows_ > 0) {
        emit dataChanged(index(0, RecordColumn), index(rows_ - 1, RecordColumn));
    }
}

void ZsRecordsModel::fail(const QString& message, std::uint64_t offset) {
    done_ = true;
    error_ = message;
    errorOffset_ = offset;
    emit readFailed(message, offset);
}

QString ZsRecordsModel::errorText() const {
    if (damages_ <= 1) {
        return error_;
    }
    return error_ + tr(" (and %1)").arg(counted(damages_ - 1, tr("more damaged stretch")));
}

bool ZsRecordsModel::isDamageRow(int row) const {
    const int b = blockIndexForRow(row);
    return b >= 0 && !blocks_[std::size_t(b)].damage.isEmpty();
}

bool ZsRecordsModel::canFetchMore(const QModelIndex& parent) const {
    return !parent.isValid() && !done_ && !resuming_;
}

void ZsRecordsModel::fetchMore(const QModelIndex& parent) {
    if (parent.isValid() || resuming_) {
        return;
    }
    const int before = rows_;
    for (int i = 0; i < kFetchBlocks && rows_ - before < kFetchRows && !done_; ++i) {
        if (background_ && !nextBlockReady()) {
            fetchRetry_->start();  // its bytes are on their way from a server
            break;
        }
        if (!loadNextBlock()) {
            break;
        }
    }
    finishIfNoRecordsLeft();
}

void ZsRecordsModel::finishIfNoRecordsLeft() {
    const std::uint64_t end = file_->blocksEnd();
    while (!done_ && !resuming_ && !fetchRetry_->isActive()) {
        if (next_ < end) {
            if (background_ && !nextBlockReady()) {
                return;  // not without waiting for a server: the next fetch finds out
            }
            const zs::FrameRead frame = zs::readFrame(file_->source(), next_, end);
            if (!frame.usable() || frame.frame.kind() == zs::BlockKind::Data) {
                return;  // records (or damage) to read on the next fetch
            }
        }
        if (!loadNextBlock()) {
            return;
        }
    }
}

// Whether the block at next_ can be read without waiting for a server: its length prefix,
// then the whole block. A source that would wait fetches them meanwhile.
bool ZsRecordsModel::nextBlockReady() const {
    const ByteSource& source = file_->source();
    if (!source.readyNow(next_, kUleb128MaxBytes)) {
        return false;
    }
    const Uleb128Result length = decodeUleb128At(source, next_);
    if (!length.ok()) {
        return true;  // loadNextBlock reports the damage
    }
    return source.readyNow(next_, saturatingEnd(length.length, length.value));
}

bool ZsRecordsModel::isWaitingForBytes() const {
    return fetchRetry_->isActive();
}

void ZsRecordsModel::fetchUntil(int rows) {
    resumeInline_ = true;
    if (resuming_) {  // do the worker's search here instead
        const std::uint64_t offset = pendingDamage_;
        const QString why = pendingWhy_;
        stopResuming();
        passDamage(offset, why);
    }
    while (rows_ < rows && !done_) {
        fetchMore({});
    }
    resumeInline_ = false;
}

void ZsRecordsModel::stopResuming() {
    if (resumeCancel_) {
        resumeCancel_->cancel();
    }
    resumeCancel_.reset();
    resuming_ = false;
    ++resumeTicket_;
}

bool ZsRecordsModel::passDamage(std::uint64_t offset, const QString& why) {
    if (!finder_) {
        finder_ = std::make_shared<zs::ZsBlockFinder>(file_, file_->blocksEnd());
    }
    if (!background_ || resumeInline_) {
        std::lock_guard lock(*finderMutex_);
        addDamage(offset, finder_->resumeAfter(offset).value_or(file_->blocksEnd()), why);
        return true;
    }
    resuming_ = true;
    emit lookingForIntactBlockChanged(true);
    pendingDamage_ = offset;
    pendingWhy_ = why;
    resumeCancel_ = std::make_shared<strata::CancelToken>();
    auto* watcher = new QFutureWatcher<std::optional<std::uint64_t>>(this);
    connect(watcher, &QFutureWatcher<std::optional<std::uint64_t>>::finished, this,
            [this, watcher, ticket = resumeTicket_, offset, why] {
                watcher->deleteLater();
                const auto next = watcher->result();
                if (ticket != resumeTicket_ || !next) {
                    return;  // the rows were replaced, or fetchUntil searched itself
                }
                resuming_ = false;
                emit lookingForIntactBlockChanged(false);
                addDamage(offset, *next, why);
                fetchMore({});
            });
    watcher->setFuture(
        QtConcurrent::run([finder = finder_, mutex = finderMutex_, cancel = resumeCancel_, offset] {
            std::lock_guard lock(*mutex);
            return finder->resumeAfter(offset, cancel.get());
        }));
    return false;
}

void ZsRecordsModel::addDamage(std::uint64_t offset, std::uint64_t end, const QString& why) {
    const QString text = tr("Bytes %1 to %2 cannot be read: %3 The records stored there are "
                            "missing; reading goes on after them.")
                             .arg(offset)
                             .arg(end)
                             .arg(why);
    beginInsertRows({}, rows_, rows_);
    Block marker{offset, end - offset, rows_, 1, 0, records_, text};
    blocks_.push_back(std::move(marker));
    ++rows_;
    endInsertRows();
    if (damages_++ == 0) {
        error_ = text;
        errorOffset_ = offset;
    }
    next_ = end;
    emit readFailed(text, offset);
}

bool ZsRecordsModel::loadNextBlock() {
    const std::uint64_t end = file_->blocksEnd();
    while (!done_ && next_ < end) {
        const std::uint64_t offset = next_;
        const zs::BlockRead read = file_->readBlock(offset);
        if (!read.frame.usable()) {
            return passDamage(offset,
                              QString::fromStdString(read.frame.message) + QLatin1Char('.'));
        }
        const zs::BlockFrame& frame = read.frame.frame;
        if (!read.crc || !read.crc->ok()) {
            // Nothing the CRC covers can be trusted, the level byte included; nor can the length.
            return passDamage(offset, tr("Checksum mismatch in the %1 at %2.")
                                          .arg(QString::fromUtf8(zs::blockKindName(frame.kind())))
                                          .arg(offset));
        }
        next_ = frame.end();
        if (frame.kind() != zs::BlockKind::Data) {
            continue;
        }
        if (!read.payload || !read.payload->complete()) {
            addDamage(
                offset, frame.end(),
                tr("The data block at %1 does not decode: %2")
                    .arg(offset)
                    .arg(read.payload ? QString::fromStdString(read.payload->message) : QString()));
            return true;
        }
        auto decoded = std::make_shared<Decoded>();
        decoded->payload = read.payload->bytes;
        Block block{offset, frame.totalLength(), rows_, 0, 0, records_, {}};
        zs::RecordCursor cursor(decoded->payload.bytes);
        while (const auto record = cursor.next()) {
            const int where = bounds_.classify(*record);
            if (where < 0) {
                ++block.skip;
                continue;
            }
            if (where > 0 || rows_ + block.rows == INT_MAX) {
                done_ = true;
                break;
            }
            decoded->records.push_back(*record);
            ++block.rows;
        }
        if (block.rows > 0) {
            beginInsertRows({}, rows_, rows_ + block.rows - 1);
            blocks_.push_back(block);
            rows_ += block.rows;
            records_ += std::uint64_t(block.rows);
            endInsertRows();
            remember(int(blocks_.size()) - 1, std::move(decoded));
        }
        if (cursor.problem() && !done_) {
            addDamage(offset, frame.end(),
                      tr("The data block at %1 is damaged: %2.")
                          .arg(offset)
                          .arg(QString::fromStdString(cursor.problem()->message)));
        }
        return true;
    }
    done_ = true;
    emit allRead();
    return false;
}

int ZsRecordsModel::blockIndexForRow(int row) const {
    if (row < 0 || row >= rows_) {
        return -1;
    }
    const auto it = std::upper_bound(blocks_.begin(), blocks_.end(), row,
                                     [](int r, const Block& b) { return r < b.firstRow; });
    return int(it - blocks_.begin()) - 1;
}

void ZsRecordsModel::remember(int blockIndex, DecodedPtr block) const {
    auto found = cache_.find(blockIndex);
    if (found != cache_.end()) {
        lru_.erase(found->second.second);
        cache_.erase(found);
    }
    lru_.push_front(blockIndex);
    cache_.emplace(blockIndex, std::make_pair(std::move(block), lru_.begin()));
    while (cache_.size() > capacity_ && !lru_.empty()) {
        cache_.erase(lru_.back());
        lru_.pop_back();
    }
}

ZsRecordsModel::DecodedPtr ZsRecordsModel::decodeBlock(const zs::ZsFile& file, const Block& block) {
    auto out = std::make_shared<Decoded>();
    const zs::BlockRead read = file.readBlock(block.offset);
    if (read.frame.usable() && read.payload && read.payload->complete()) {
        out->payload = read.payload->bytes;
        zs::RecordCursor cursor(out->payload.bytes);
        std::uint64_t index = 0;
        while (const auto record = cursor.next()) {
            if (index++ < block.skip) {
                continue;
            }
            if (out->records.size() == std::size_t(block.rows)) {
                break;
            }
            out->records.push_back(*record);
        }
    }
    return out;
}

ZsRecordsModel::DecodedPtr ZsRecordsModel::decoded(int blockIndex) const {
    const auto found = cache_.find(blockIndex);
    if (found != cache_.end()) {
        lru_.splice(lru_.begin(), lru_, found->second.second);
        return found->second.first;
    }
    DecodedPtr out = decodeBlock(*file_, blocks_[std::size_t(blockIndex)]);
    ++decodes_;
    remember(blockIndex, out);
    return out;
}

ZsRecordsModel::DecodedPtr ZsRecordsModel::decodedIfReady(int blockIndex) const {
    if (!background_ || cache_.count(blockIndex) != 0) {
        return decoded(blockIndex);
    }
    requestDecode(blockIndex);
    return nullptr;
}

void ZsRecordsModel::requestDecode(int blockIndex) const {
    if (!pending_.insert(blockIndex).second) {
        return;  // already on its way
    }
    auto* self = const_cast<ZsRecordsModel*>(this);  // data() is const; the cache is not
    auto* watcher = new QFutureWatcher<DecodedPtr>(self);
    const int generation = generation_;
    connect(watcher, &QFutureWatcher<DecodedPtr>::finished, self,
            [self, watcher, blockIndex, generation] {
                watcher->deleteLater();
                self->decodeArrived(blockIndex, generation, watcher->result());
            });
    watcher->setFuture(
        QtConcurrent::run(pool_.get(), [file = file_, block = blocks_[std::size_t(blockIndex)]] {
            return decodeBlock(*file, block);
        }));
}

void ZsRecordsModel::decodeArrived(int blockIndex, int generation, DecodedPtr block) {
    if (generation != generation_) {
        return;  // the rows were replaced meanwhile
    }
    pending_.erase(blockIndex);
    ++decodes_;
    remember(blockIndex, std::move(block));
    const Block& b = blocks_[std::size_t(blockIndex)];
    emit dataChanged(index(b.firstRow, RecordColumn), index(b.firstRow + b.rows - 1, LengthColumn),
                     {Qt::DisplayRole, Qt::ToolTipRole});
}

void ZsRecordsModel::setCacheCapacity(std::size_t blocks) {
    capacity_ = std::max<std::size_t>(blocks, 1);
    while (cache_.size() > capacity_) {
        cache_.erase(lru_.back());
        lru_.pop_back();
    }
}

QByteArray ZsRecordsModel::recordAt(int row) const {
    const int b = blockIndexForRow(row);
    if (b < 0 || !blocks_[std::size_t(b)].damage.isEmpty()) {
        return {};
    }
    const DecodedPtr block = decoded(b);
    const std::size_t i = std::size_t(row - blocks_[std::size_t(b)].firstRow);
    if (i >= block->records.size()) {
        return {};
    }
    const auto r = block->records[i];
    return QByteArray(reinterpret_cast<const char*>(r.data()), qsizetype(r.size()));
}

std::optional<std::uint64_t> ZsRecordsModel::blockOffsetForRow(int row) const {
    const int b = blockIndexForRow(row);
    if (b < 0) {
        return std::nullopt;
    }
    return blocks_[std::size_t(b)].offset;
}

strata::Region ZsRecordsModel::blockRegionForRow(int row) const {
    const int b = blockIndexForRow(row);
    if (b < 0) {
        return {};
    }
    const Block& block = blocks_[std::size_t(b)];
    return strata::Region{&file_->source(), block.offset, block.length}.clipped();
}

int ZsRecordsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : rows_;
}

int ZsRecordsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QString ZsRecordsModel::renderRecord(std::span<const std::uint8_t> bytes, bool hex,
                                     std::size_t max) {
    const bool cut = bytes.size() > max;
    const auto shown = cut ? bytes.first(max) : bytes;
    QString text;
    if (hex) {
        const QByteArray raw(reinterpret_cast<const char*>(shown.data()), qsizetype(shown.size()));
        text = QString::fromLatin1(raw.toHex(' '));
    } else {
        QStringDecoder utf8(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
        const QByteArrayView raw(reinterpret_cast<const char*>(shown.data()),
                                 qsizetype(shown.size()));
        const QString decoded = utf8.decode(raw);
        if (!utf8.hasError()) {
            text = escapeControl(decoded);
        } else {
            for (const std::uint8_t b : shown) {
                text += b < 0x80 ? escapeControl(QString(QLatin1Char(char(b))))
                                 : QStringLiteral("\\x%1").arg(b, 2, 16, QLatin1Char('0'));
            }
        }
    }
    return cut ? text + QStringLiteral(" …") : text;
}

QVariant ZsRecordsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rows_) {
        return {};
    }
    const int b = blockIndexForRow(index.row());
    const Block& block = blocks_[std::size_t(b)];
    if (role == BlockOffsetRole) {
        return QVariant::fromValue<qulonglong>(block.offset);
    }
    if (!block.damage.isEmpty()) {
        return damageData(block, index.column(), role);
    }
    if (role == RecordBytesRole) {
        return recordAt(index.row());
    }
    if (role == Qt::TextAlignmentRole && index.column() != RecordColumn) {
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    }
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole) {
        return {};
    }
    if (index.column() == RecordColumn || index.column() == LengthColumn) {
        if (decodedIfReady(b) == nullptr) {
            return index.column() == RecordColumn ? QVariant(tr("decoding…")) : QVariant();
        }
    }
    switch (index.column()) {
        case NumberColumn:
            return qulonglong(block.firstRecord + std::uint64_t(index.row() - block.firstRow));
        case RecordColumn: {
            const QByteArray bytes = recordAt(index.row());
            const std::span<const std::uint8_t> span(
                reinterpret_cast<const std::uint8_t*>(bytes.constData()),
                std::size_t(bytes.size()));
            return renderRecord(span, hex_, role == Qt::ToolTipRole ? 4096 : 256);
        }
        case LengthColumn:
            return qlonglong(recordAt(index.row()).size());
        case BlockColumn:
            return QVariant::fromValue<qulonglong>(block.offset);
        default:
            return {};
    }
}

QVariant ZsRecordsModel::damageData(const Block& marker, int column, int role) {
    if (role == Qt::ForegroundRole) {
        return QBrush(QColor(0xd0, 0x30, 0x30));
    }
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole) {
        return {};
    }
    switch (column) {
        case RecordColumn:
            return role == Qt::ToolTipRole ? marker.damage
                                           : QStringLiteral("\u26a0 ") + marker.damage;
        case BlockColumn:
            return QVariant::fromValue<qulonglong>(marker.offset);
        default:
            return {};
    }
}

QVariant ZsRecordsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    switch (section) {
        case NumberColumn:
            return tr("#");
        case RecordColumn:
            return hex_ ? tr("Record (hex)") : tr("Record");
        case LengthColumn:
            return tr("Bytes");
        case BlockColumn:
            return tr("Data block");
        default:
            return {};
    }
}

}  // namespace strata::model
