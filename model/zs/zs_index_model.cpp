#include "zs_index_model.h"

#include <QColor>

#include <algorithm>

#include "formats/zs/zs_block.h"
#include "zs_records_model.h"

namespace strata::model {

ZsIndexModel::ZsIndexModel(std::shared_ptr<const zs::ZsFile> file, QObject* parent)
    : QAbstractItemModel(parent), file_(std::move(file)), top_(std::make_unique<Item>()) {
    const zs::Header& h = file_->header();
    if (!h.hasFields) {
        return;
    }
    auto root = std::make_unique<Item>();
    root->parent = top_.get();
    root->isRoot = true;
    root->entry.offset = h.rootIndexOffset;
    root->entry.length = h.rootIndexLength;
    const auto& block = file_->rootBlock();
    root->level = block && block->frame.usable() ? block->frame.frame.level : -1;
    top_->children.push_back(std::move(root));
    top_->read = true;
}

ZsIndexModel::~ZsIndexModel() = default;

void ZsIndexModel::setHexRendering(bool hex) {
    if (hex == hex_) {
        return;
    }
    hex_ = hex;
    emit headerDataChanged(Qt::Horizontal, KeyColumn, KeyColumn);
    emitKeysChanged({});
}

void ZsIndexModel::emitKeysChanged(const QModelIndex& parent) {
    const int rows = rowCount(parent);
    if (rows == 0) {
        return;
    }
    emit dataChanged(index(0, KeyColumn, parent), index(rows - 1, KeyColumn, parent));
    for (int row = 0; row < rows; ++row) {
        emitKeysChanged(index(row, 0, parent));
    }
}

void ZsIndexModel::setBatchSize(int entries) {
    batch_ = std::max(entries, 1);
}

ZsIndexModel::Item* ZsIndexModel::itemFor(const QModelIndex& index) const {
    return index.isValid() ? static_cast<Item*>(index.internalPointer()) : top_.get();
}

QModelIndex ZsIndexModel::index(int row, int column, const QModelIndex& parent) const {
    const Item* p = itemFor(parent);
    if (row < 0 || column < 0 || column >= ColumnCount || std::size_t(row) >= p->children.size()) {
        return {};
    }
    return createIndex(row, column, p->children[std::size_t(row)].get());
}

QModelIndex ZsIndexModel::parent(const QModelIndex& child) const {
    const Item* item = itemFor(child);
    if (!child.isValid() || item->parent == top_.get()) {
        return {};
    }
    return createIndex(item->parent->row, 0, item->parent);
}

int ZsIndexModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() && parent.column() != 0) {
        return 0;
    }
    return int(itemFor(parent)->children.size());
}

int ZsIndexModel::columnCount(const QModelIndex&) const {
    return ColumnCount;
}

bool ZsIndexModel::hasChildren(const QModelIndex& parent) const {
    const Item* item = itemFor(parent);
    if (!parent.isValid()) {
        return !item->children.empty();
    }
    if (item->read) {
        return !item->children.empty() || !item->pending.empty();
    }
    return item->level >= 1 && item->level <= zs::kMaxIndexLevel;
}

bool ZsIndexModel::canFetchMore(const QModelIndex& parent) const {
    const Item* item = itemFor(parent);
    if (!parent.isValid()) {
        return false;
    }
    return item->read ? !item->pending.empty() : hasChildren(parent);
}

void ZsIndexModel::readBlock(Item& item) const {
    item.read = true;
    const std::uint64_t offset = item.entry.offset;
    const zs::BlockRead block =
        item.isRoot && file_->rootBlock() ? *file_->rootBlock() : file_->readBlock(offset);
    if (!block.frame.usable()) {
        item.error = QString::fromStdString(block.frame.message);
        return;
    }
    const int level = block.frame.frame.level;
    const int parentLevel = item.isRoot ? zs::kMaxIndexLevel + 1 : item.parent->level;
    item.level = level;
    if (level == 0 || level > zs::kMaxIndexLevel) {
        return;  // a data or extension block: nothing below it in the index
    }
    if (level >= parentLevel) {
        // Never follow a child that is not below its parent: that is how cycles are cut.
        item.error = tr("level %1 is not below its parent's level %2").arg(level).arg(parentLevel);
        return;
    }
    if (!block.crc->ok()) {
        item.error = tr("checksum mismatch");
    }
    if (!block.payload || !block.payload->complete()) {
        item.error = block.payload ? QString::fromStdString(block.payload->message)
                                   : tr("the payload cannot be decoded");
        return;
    }
    const auto payload = block.payload->bytes.bytes;
    const zs::IndexPayload index = zs::parseIndexPayload(payload);
    if (index.problem) {
        item.error = QString::fromStdString(index.problem->message);
    }
    item.pending.reserve(index.entries.size());
    for (const zs::IndexEntry& e : index.entries) {
        const auto key = payload.subspan(e.keyOffset, e.keyLength);
        item.pending.push_back(
            {QByteArray(reinterpret_cast<const char*>(key.data()), qsizetype(key.size())),
             e.childOffset, e.childLength});
    }
}

void ZsIndexModel::fetchMore(const QModelIndex& parent) {
    if (!parent.isValid()) {
        return;
    }
    Item* item = itemFor(parent);
    if (!item->read) {
        readBlock(*item);
        emit dataChanged(index(item->row, 0, parent.parent()),
                         index(item->row, ColumnCount - 1, parent.parent()));
    }
    if (item->pending.empty()) {
        return;
    }
    const std::size_t first = item->children.size();
    const std::size_t count = std::min(item->pending.size(), std::size_t(batch_));
    const QModelIndex parent0 = parent.sibling(parent.row(), 0);
    beginInsertRows(parent0, int(first), int(first + count - 1));
    for (std::size_t i = 0; i < count; ++i) {
        auto child = std::make_unique<Item>();
        child->parent = item;
        child->row = int(first + i);
        child->entry = std::move(item->pending[i]);
        child->level = item->level - 1;
        item->children.push_back(std::move(child));
    }
    item->pending.erase(item->pending.begin(), item->pending.begin() + std::ptrdiff_t(count));
    endInsertRows();
}

strata::Region ZsIndexModel::blockRegion(const QModelIndex& index) const {
    if (!index.isValid()) {
        return {};
    }
    const Item* item = itemFor(index);
    return strata::Region{&file_->source(), item->entry.offset, item->entry.length}.clipped();
}

QString ZsIndexModel::errorText(const QModelIndex& index) const {
    return index.isValid() ? itemFor(index)->error : QString();
}

QVariant ZsIndexModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid()) {
        return {};
    }
    const Item* item = itemFor(index);
    if (role == BlockOffsetRole) {
        return QVariant::fromValue<qulonglong>(item->entry.offset);
    }
    if (role == KeyBytesRole) {
        return item->entry.key;
    }
    if (role == Qt::ToolTipRole && !item->error.isEmpty()) {
        return item->error;
    }
    if (role == Qt::ForegroundRole && !item->error.isEmpty()) {
        return QColor(0xd0, 0x30, 0x30);
    }
    if (role != Qt::DisplayRole) {
        return {};
    }
    switch (index.column()) {
        case KeyColumn: {
            if (item->isRoot) {
                return tr("root index");
            }
            const auto& key = item->entry.key;
            return ZsRecordsModel::renderRecord(
                std::span(reinterpret_cast<const std::uint8_t*>(key.constData()),
                          std::size_t(key.size())),
                hex_, 128);
        }
        case LevelColumn:
            if (item->level < 0) {
                return {};
            }
            return item->level == 0                   ? tr("0 (data)")
                   : item->level > zs::kMaxIndexLevel ? tr("%1 (extension)").arg(item->level)
                                                      : QString::number(item->level);
        case OffsetColumn:
            return QVariant::fromValue<qulonglong>(item->entry.offset);
        case LengthColumn:
            return QVariant::fromValue<qulonglong>(item->entry.length);
        default:
            return {};
    }
}

QVariant ZsIndexModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
        case KeyColumn:
            return hex_ ? tr("First key (hex)") : tr("First key");
        case LevelColumn:
            return tr("Level");
        case OffsetColumn:
            return tr("Block offset");
        case LengthColumn:
            return tr("Block length");
        default:
            return {};
    }
}

}  // namespace strata::model
