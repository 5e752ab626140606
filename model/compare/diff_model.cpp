#include "diff_model.h"

#include <QBrush>
#include <QColor>
#include <QStringList>

namespace strata::model {

QString diffKindLabel(strata::DiffKind kind) {
    switch (kind) {
        case strata::DiffKind::Added:
            return QObject::tr("added");
        case strata::DiffKind::Removed:
            return QObject::tr("removed");
        case strata::DiffKind::Changed:
            return QObject::tr("changed");
        case strata::DiffKind::Moved:
            return QObject::tr("moved");
        case strata::DiffKind::Encoding:
            return QObject::tr("stored differently");
    }
    return {};
}

namespace {

QColor kindColor(strata::DiffKind kind) {
    switch (kind) {
        case strata::DiffKind::Added:
            return QColor(0x2e, 0x7d, 0x32);
        case strata::DiffKind::Removed:
            return QColor(0xc6, 0x28, 0x28);
        case strata::DiffKind::Changed:
            return QColor(0xef, 0x6c, 0x00);
        case strata::DiffKind::Moved:
            return QColor(0x15, 0x65, 0xc0);
        case strata::DiffKind::Encoding:
            return QColor(0x75, 0x75, 0x75);
    }
    return {};
}

}  // namespace

DiffModel::DiffModel(QObject* parent) : QAbstractTableModel(parent) {}

void DiffModel::clear() {
    beginResetModel();
    rows_.clear();
    counts_ = {};
    endResetModel();
    emit countsChanged();
}

void DiffModel::append(std::vector<strata::Difference> batch) {
    if (batch.empty()) {
        return;
    }
    const int first = int(rows_.size());
    beginInsertRows({}, first, first + int(batch.size()) - 1);
    for (auto& d : batch) {
        ++counts_[std::size_t(d.kind)];
        rows_.push_back(std::move(d));
    }
    endInsertRows();
    emit countsChanged();
}

QString DiffModel::countsText() const {
    QStringList parts;
    for (int k = 0; k < kKinds; ++k) {
        parts << QStringLiteral("%1 %2")
                     .arg(counts_[std::size_t(k)])
                     .arg(diffKindLabel(strata::DiffKind(k)));
    }
    return parts.join(QStringLiteral(", "));
}

int DiffModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(rows_.size());
}

int DiffModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant DiffModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= int(rows_.size())) {
        return {};
    }
    const strata::Difference& d = rows_[std::size_t(index.row())];
    if (role == KindRole) {
        return int(d.kind);
    }
    if (role == Qt::ForegroundRole && index.column() == KindColumn) {
        return QBrush(kindColor(d.kind));
    }
    if (role == Qt::ToolTipRole && index.column() == DescriptionColumn) {
        QStringList lines{QString::fromStdString(d.description)};
        for (const auto& f : d.fields) {
            lines << QStringLiteral("%1: %2 → %3")
                         .arg(QString::fromStdString(f.path), QString::fromStdString(f.a),
                              QString::fromStdString(f.b));
        }
        return lines.join(QLatin1Char('\n'));
    }
    if (role != Qt::DisplayRole) {
        return {};
    }
    switch (index.column()) {
        case KindColumn:
            return diffKindLabel(d.kind);
        case PathColumn:
            return QString::fromStdString(d.path);
        case DescriptionColumn:
            return QString::fromStdString(d.description);
        default:
            return {};
    }
}

QVariant DiffModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
        case KindColumn:
            return tr("Kind");
        case PathColumn:
            return tr("Where");
        case DescriptionColumn:
            return tr("What");
        default:
            return {};
    }
}

DiffFilterModel::DiffFilterModel(QObject* parent) : QSortFilterProxyModel(parent) {}

void DiffFilterModel::setKindShown(strata::DiffKind kind, bool shown) {
    shown_[std::size_t(kind)] = shown;
    invalidateFilter();
}

void DiffFilterModel::setText(const QString& text) {
    text_ = text;
    invalidateFilter();
}

bool DiffFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
    const QModelIndex kind = sourceModel()->index(sourceRow, DiffModel::KindColumn, sourceParent);
    if (!shown_[std::size_t(kind.data(DiffModel::KindRole).toInt())]) {
        return false;
    }
    if (text_.isEmpty()) {
        return true;
    }
    for (int column : {DiffModel::PathColumn, DiffModel::DescriptionColumn}) {
        const QString value =
            sourceModel()->index(sourceRow, column, sourceParent).data().toString();
        if (value.contains(text_, Qt::CaseInsensitive)) {
            return true;
        }
    }
    return false;
}

}  // namespace strata::model
