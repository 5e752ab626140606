// The differences of one comparison as a table (kind, path, description), filled in batches
// while the comparison runs, with the counts by kind; and a filter proxy that shows chosen kinds
// and paths. Views own nothing: the compare view and its tests read the same rows.
#pragma once

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>

#include <array>
#include <vector>

#include "formats/common/diff.h"

namespace strata::model {

class DiffModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { KindColumn, PathColumn, DescriptionColumn, ColumnCount };
    enum Role {
        KindRole = Qt::UserRole + 1,  // int (strata::DiffKind)
    };
    static constexpr int kKinds = 5;

    explicit DiffModel(QObject* parent = nullptr);

    void clear();
    void append(std::vector<strata::Difference> batch);
    const strata::Difference& difference(int row) const { return rows_[std::size_t(row)]; }
    int count(strata::DiffKind kind) const { return counts_[std::size_t(kind)]; }
    // "3 added, 1 removed, …" over what has arrived so far.
    QString countsText() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

signals:
    void countsChanged();

private:
    std::vector<strata::Difference> rows_;
    std::array<int, kKinds> counts_{};
};

class DiffFilterModel : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit DiffFilterModel(QObject* parent = nullptr);
    void setKindShown(strata::DiffKind kind, bool shown);
    bool kindShown(strata::DiffKind kind) const { return shown_[std::size_t(kind)]; }
    // Rows whose path or description contains `text` (case-insensitive); "" shows all.
    void setText(const QString& text);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    std::array<bool, DiffModel::kKinds> shown_{true, true, true, true, true};
    QString text_;
};

// The kind as the table shows it ("added", "stored differently" for encoding).
QString diffKindLabel(strata::DiffKind kind);

}  // namespace strata::model
