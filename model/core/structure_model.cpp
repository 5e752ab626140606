#include "structure_model.h"

#include <QFutureWatcher>
#include <QLocale>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <limits>
#include <vector>

#include "format_colors.h"
#include "formats/remote/remote_session.h"

namespace strata::model {

namespace {

QString fromStd(const std::string& s) {
    return QString::fromStdString(s);
}

}  // namespace

QString formatOffset(quint64 offset) {
    return QStringLiteral("0x") + QString::number(offset, 16).toUpper();
}

QString formatSize(quint64 size) {
    if (size < 1024) {
        return QStringLiteral("%1 B").arg(size);
    }
    return QStringLiteral("%1 (%2)").arg(
        QLocale::c().formattedDataSize(qint64(std::min<quint64>(size, quint64(INT64_MAX))), 1,
                                       QLocale::DataSizeIecFormat),
        QString::number(size));
}

StructureModel::StructureModel(QObject* parent) : QAbstractItemModel(parent) {}

StructureModel::StructureModel(const strata::Node* root, QObject* parent)
    : QAbstractItemModel(parent), root_(root) {}

void StructureModel::setRoot(const strata::Node* root) {
    stopBackgroundFetch();
    beginResetModel();
    root_ = root;
    revealed_.clear();
    unfetchable_.clear();
    endResetModel();
}

int StructureModel::childLimit(const strata::Node* node) {
    if (node == nullptr || !node->hasChildren()) {
        return 0;
    }
    return int(std::min<std::uint64_t>(node->childCount(),
                                       std::uint64_t(std::numeric_limits<int>::max())));
}

struct StructureModel::BackgroundFetch {
    QFutureWatcher<bool> watcher;
    std::shared_ptr<strata::CancelToken> cancel = std::make_shared<strata::CancelToken>();
    const strata::Node* node = nullptr;
    QPersistentModelIndex parent;
};

StructureModel::~StructureModel() {
    stopBackgroundFetch();
}

void StructureModel::setBackgroundFetch(bool on) {
    if (on && !background_) {
        background_ = std::make_unique<BackgroundFetch>();
        connect(&background_->watcher, &QFutureWatcher<bool>::finished, this,
                &StructureModel::onBackgroundFetched);
    } else if (!on) {
        stopBackgroundFetch();
        background_.reset();
    }
}

bool StructureModel::isFetching() const {
    return background_ && background_->watcher.isRunning();
}

// The worker reads the tree: it stops (a read in flight ends as cancelled) and is waited for
// before the tree can go away.
void StructureModel::stopBackgroundFetch() {
    if (background_ && background_->watcher.isRunning()) {
        background_->cancel->cancel();
        background_->watcher.waitForFinished();
        background_->cancel = std::make_shared<strata::CancelToken>();
    }
}

void StructureModel::fetchInBackground(const strata::Node* node, const QModelIndex& parent,
                                       int have) {
    if (background_->watcher.isRunning()) {
        return;  // one batch at a time; the view asks again when it is revealed
    }
    background_->node = node;
    background_->parent = QPersistentModelIndex(parent.sibling(parent.row(), 0));
    const std::shared_ptr<strata::CancelToken> cancel = background_->cancel;
    background_->watcher.setFuture(QtConcurrent::run([node, have, cancel] {
        const strata::RemoteCancelScope scope(cancel.get());
        try {
            const std::uint64_t count = node->childCount();
            const std::uint64_t end =
                std::min<std::uint64_t>(count, std::uint64_t(have) + kFetchBatch);
            for (std::uint64_t i = std::uint64_t(have); i < end; ++i) {
                node->child(i);
            }
            return true;
        } catch (const std::exception&) {
            return false;
        }
    }));
}

void StructureModel::onBackgroundFetched() {
    const QPersistentModelIndex parent = background_->parent;
    const strata::Node* node = background_->node;
    background_->parent = QPersistentModelIndex();
    if (!background_->watcher.result()) {
        unfetchable_.insert(node);
    }
    if (parent.isValid() && nodeAt(parent) == node && !unfetchable_.contains(node)) {
        fetchMore(parent);
    }
}

int StructureModel::revealed(const strata::Node* node) const {
    return revealed_.value(node, 0);
}

// Internal ids: an index's internal pointer is its parent node (nullptr for the root row), so
// making an index never builds the node itself; nodeAt() does, on first use.
const strata::Node* StructureModel::nodeAt(const QModelIndex& index) const {
    if (!index.isValid() || index.model() != this) {
        return nullptr;
    }
    const auto* parentNode = static_cast<const strata::Node*>(index.internalPointer());
    if (parentNode == nullptr) {
        return index.row() == 0 ? root_ : nullptr;
    }
    return parentNode->child(std::uint64_t(index.row()));
}

QModelIndex StructureModel::index(int row, int column, const QModelIndex& parent) const {
    if (row < 0 || column < 0 || column >= ColumnCount) {
        return {};
    }
    if (!parent.isValid()) {
        return (root_ != nullptr && row == 0) ? createIndex(0, column, nullptr) : QModelIndex();
    }
    const strata::Node* parentNode = nodeAt(parent);
    if (parentNode == nullptr || row >= revealed(parentNode)) {
        return {};
    }
    return createIndex(row, column, const_cast<strata::Node*>(parentNode));
}

QModelIndex StructureModel::parent(const QModelIndex& index) const {
    if (!index.isValid()) {
        return {};
    }
    const auto* parentNode = static_cast<const strata::Node*>(index.internalPointer());
    if (parentNode == nullptr) {
        return {};
    }
    if (parentNode == root_) {
        return createIndex(0, 0, nullptr);
    }
    return createIndex(int(parentNode->row()), 0, parentNode->parent());
}

int StructureModel::rowCount(const QModelIndex& parent) const {
    if (!parent.isValid()) {
        return root_ != nullptr ? 1 : 0;
    }
    if (parent.column() != 0) {
        return 0;
    }
    return revealed(nodeAt(parent));
}

int StructureModel::columnCount(const QModelIndex&) const {
    return ColumnCount;
}

bool StructureModel::hasChildren(const QModelIndex& parent) const {
    if (!parent.isValid()) {
        return root_ != nullptr;
    }
    if (parent.column() != 0) {
        return false;
    }
    const strata::Node* node = nodeAt(parent);
    return node != nullptr && node->hasChildren();
}

bool StructureModel::canFetchMore(const QModelIndex& parent) const {
    if (!parent.isValid() || parent.column() != 0) {
        return false;
    }
    const strata::Node* node = nodeAt(parent);
    if (inserting_ || node == nullptr || !node->hasChildren()) {
        return false;
    }
    if (background_ && !node->childrenBuilt(0)) {
        return !unfetchable_.contains(node);  // how many is not known until a worker asks
    }
    return revealed(node) < childLimit(node);
}

void StructureModel::fetchMore(const QModelIndex& parent) {
    if (!canFetchMore(parent)) {
        return;
    }
    const strata::Node* node = nodeAt(parent);
    const int have = revealed(node);
    if (background_ && !node->childrenBuilt(std::uint64_t(have) + kFetchBatch)) {
        fetchInBackground(node, parent, have);
        return;
    }
    const int limit = childLimit(node);
    const int batch = int(std::min<qint64>(qint64(limit) - have, kFetchBatch));
    revealUpTo(node, parent, have + batch);
}

void StructureModel::revealUpTo(const strata::Node* node, const QModelIndex& nodeIndex, int count) {
    const int have = revealed(node);
    count = std::min(count, childLimit(node));
    if (inserting_ || count <= have) {
        return;
    }
    const QModelIndex parent = nodeIndex.sibling(nodeIndex.row(), 0);
    inserting_ = true;
    beginInsertRows(parent, have, count - 1);
    revealed_.insert(node, count);
    endInsertRows();
    inserting_ = false;
}

QModelIndex StructureModel::indexForNode(const strata::Node* node, int column) {
    if (node == nullptr || root_ == nullptr || column < 0 || column >= ColumnCount) {
        return {};
    }
    std::vector<const strata::Node*> chain;
    for (const strata::Node* n = node; n != nullptr; n = n->parent()) {
        chain.push_back(n);
        if (n == root_) {
            break;
        }
    }
    if (chain.back() != root_) {
        return {};
    }
    QModelIndex current = createIndex(0, 0, nullptr);
    for (auto it = chain.rbegin() + 1; it != chain.rend(); ++it) {
        const strata::Node* parentNode = *(it - 1);
        const std::uint64_t row = (*it)->row();
        if (row >= std::uint64_t(childLimit(parentNode))) {
            return {};
        }
        // Reveal every row up to this one: rows must keep their Node::row() numbers, and
        // revealing a row costs nothing until a view asks for its data.
        revealUpTo(parentNode, current, int(row) + 1);
        current = createIndex(int(row), 0, const_cast<strata::Node*>(parentNode));
    }
    return column == 0 ? current : current.sibling(current.row(), column);
}

QVariant StructureModel::data(const QModelIndex& index, int role) const {
    const strata::Node* node = nodeAt(index);
    if (node == nullptr) {
        return {};
    }
    const Region& region = node->region();
    switch (role) {
        case Qt::DisplayRole:
            switch (index.column()) {
                case NameColumn:
                    return fromStd(node->label());
                case ValueColumn:
                    return fromStd(node->value());
                case OffsetColumn:
                    return region.valid() ? formatOffset(region.offset) : QString();
                case SizeColumn:
                    return region.valid() ? formatSize(region.length) : QString();
                case StatusColumn: {
                    const std::string_view name = strata::statusName(node->status());
                    return QString::fromLatin1(name.data(), qsizetype(name.size()));
                }
                default:
                    return {};
            }
        case Qt::ToolTipRole:
            return QStringLiteral("%1 (%2)").arg(fromStd(node->path()), fromStd(node->kind()));
        case Qt::ForegroundRole:
            if (index.column() == StatusColumn || node->status() >= strata::Status::Warning) {
                const QColor color = colorForStatus(node->status());
                return color.isValid() ? QVariant(color) : QVariant();
            }
            return {};
        case Qt::DecorationRole:
            if (index.column() == NameColumn) {
                return colorForKind(node->kind());
            }
            return {};
        case Qt::TextAlignmentRole:
            if (index.column() == OffsetColumn || index.column() == SizeColumn) {
                return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
            }
            return {};
        case NodeRole:
            return QVariant::fromValue(quintptr(node));
        case KindRole:
            return fromStd(node->kind());
        case OffsetRole:
            return QVariant::fromValue(quint64(region.offset));
        case LengthRole:
            return QVariant::fromValue(quint64(region.length));
        case StatusRole:
            return int(node->status());
        case SourceRole:
            return QVariant::fromValue(quintptr(region.source));
        default:
            return {};
    }
}

QVariant StructureModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
        case NameColumn:
            return tr("Name");
        case ValueColumn:
            return tr("Value");
        case OffsetColumn:
            return tr("Offset");
        case SizeColumn:
            return tr("Size");
        case StatusColumn:
            return tr("Status");
        default:
            return {};
    }
}

Qt::ItemFlags StructureModel::flags(const QModelIndex& index) const {
    if (!index.isValid()) {
        return Qt::NoItemFlags;
    }
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (index.column() == 0 && !hasChildren(index)) {
        f |= Qt::ItemNeverHasChildren;
    }
    return f;
}

}  // namespace strata::model
