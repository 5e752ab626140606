// Validation results as a table, filled in batches while a validator runs, plus a filter proxy.
#pragma once

#include <QAbstractTableModel>
#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QSet>
#include <QSortFilterProxyModel>
#include <QString>

#include <array>
#include <vector>

#include "formats/common/diagnostic.h"

namespace strata::model {

class DiagnosticsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        SeverityColumn,
        CodeColumn,
        MessageColumn,
        FileColumn,
        OffsetColumn,
        LengthColumn,
        NodeColumn,
        ColumnCount
    };
    enum Role {
        SeverityRole = Qt::UserRole + 1,  // int (strata::Severity)
        CodeRole,                         // QString
        OffsetRole,                       // quint64, primary region offset
        LengthRole,                       // quint64
        SourceRole,                       // const strata::ByteSource* as quintptr
        NodePathRole,                     // QString
    };

    explicit DiagnosticsModel(QObject* parent = nullptr);

    // The File column shows paths under this folder relative to it (the full path is the
    // tooltip): "collections/train/meta/data.jsonl" rather than a long absolute path.
    void setBaseFolder(const QString& folder);

    // Appends on the model's thread. From a worker thread use post(), which queues the batch.
    void appendDiagnostics(std::vector<strata::Diagnostic> batch);
    void appendDiagnostic(strata::Diagnostic diagnostic);
    // Thread-safe: queues `batch` for appendDiagnostics on the model's thread.
    void post(std::vector<strata::Diagnostic> batch);
    void clear();

    const strata::Diagnostic& diagnostic(int row) const { return rows_[std::size_t(row)]; }
    int size() const { return int(rows_.size()); }
    strata::Severity worstSeverity() const;  // Info when empty
    bool isEmpty() const { return rows_.empty(); }
    int countOf(strata::Severity severity) const;

    // A JSON array of {severity, code, message, offset, length, path, node}, the same objects
    // strata-cli validate --json prints.
    QByteArray exportJson() const;
    // One line per diagnostic: "error ZS-BLOCK-CRC file.zs@0x1A0+16 header/crc: message".
    QString exportText() const;
    static QJsonObject toJson(const strata::Diagnostic& diagnostic);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

signals:
    // Counts or worst severity changed (after an append or a clear).
    void summaryChanged();

private:
    QString shownFile(const strata::Diagnostic& d) const;

    std::vector<strata::Diagnostic> rows_;
    std::array<int, 3> counts_{};
    QString baseFolder_;
};

// Shows diagnostics at or above a minimum severity whose code matches a substring or a set.
class DiagnosticsFilterModel : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit DiagnosticsFilterModel(QObject* parent = nullptr);

    void setMinimumSeverity(strata::Severity severity);
    strata::Severity minimumSeverity() const { return minimum_; }
    // Case-insensitive substring of the code; empty matches every code.
    void setCodeFilter(const QString& text);
    QString codeFilter() const { return codeText_; }
    // Exact codes to keep; empty keeps every code.
    void setCodeSet(const QSet<QString>& codes);
    QSet<QString> codeSet() const { return codeSet_; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

private:
    strata::Severity minimum_ = strata::Severity::Info;
    QString codeText_;
    QSet<QString> codeSet_;
};

}  // namespace strata::model
