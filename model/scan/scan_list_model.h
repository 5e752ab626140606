// The entries of a scan (formats/scan) as a table: a row per entry as soon as the walk lists
// it, its format and verdict filled in when it is checked. Rows arrive in batches (a scan of
// 100,000 entries is a few hundred inserts, not 100,000), and a row's result is found by the
// entry's index, never by searching. ScanFilterModel filters by format and verdict.
#pragma once

#include <QAbstractTableModel>
#include <QDateTime>
#include <QSortFilterProxyModel>

#include <array>
#include <optional>
#include <unordered_map>
#include <vector>

#include "formats/scan/scan_result.h"

namespace strata::model {

class ScanListModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Format, Size, Modified, Status, Errors, Warnings, Problem, ColumnCount };
    enum Role {
        VerdictRole = Qt::UserRole + 1,  // the verdict's name ("damaged"); empty until checked
        FormatRole,                      // the format's name; empty until checked
        LocationRole,                    // the path or URL that opens the entry
        SortRole,                        // numbers as numbers (size, counts)
    };

    explicit ScanListModel(QObject* parent = nullptr);

    void clear();
    void addListed(std::vector<strata::scan::ScanEntry> entries);
    // Results of entries listed before (a result of an entry not listed adds its row).
    void addChecked(std::vector<strata::scan::ScanResult> results);

    const strata::scan::ScanEntry& entry(int row) const { return rows_[std::size_t(row)].entry; }
    // The path or URL that opens the entry of `row`.
    QString location(int row) const;
    // The entry's result, or null while it is not checked.
    const strata::scan::ScanResult* result(int row) const;
    // Rows checked, and of those, how many have each verdict.
    quint64 checkedCount() const { return checked_; }
    quint64 count(strata::scan::Verdict verdict) const;
    // The formats seen so far, in the order first seen.
    QStringList formats() const { return formats_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

signals:
    // The counts (checkedCount, count) or the formats changed.
    void summaryChanged();

private:
    struct Row {
        strata::scan::ScanEntry entry;
        std::optional<strata::scan::ScanResult> result;
        QDateTime modified;  // entry.modified read once, not per paint or comparison
    };
    QVariant display(const Row& row, int column) const;
    QVariant sortKey(const Row& row, int column) const;
    int rowOf(const strata::scan::ScanEntry& entry);

    std::vector<Row> rows_;
    std::unordered_map<std::uint64_t, int> rowByIndex_;
    std::array<quint64, std::size(strata::scan::kAllVerdicts)> verdicts_{};
    quint64 checked_ = 0;
    QStringList formats_;
};

// Rows of one format and one verdict (empty: any).
class ScanFilterModel : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit ScanFilterModel(QObject* parent = nullptr);
    void setFormat(const QString& format);
    // A verdict's name ("damaged"); "problems" means damaged or unreadable.
    void setVerdict(const QString& verdict);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    QString format_;
    QString verdict_;
};

}  // namespace strata::model
