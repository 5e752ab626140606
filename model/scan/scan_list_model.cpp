#include "scan_list_model.h"

#include <QBrush>
#include <QColor>
#include <QDateTime>
#include <QLocale>

#include <algorithm>

namespace strata::model {

namespace {

using strata::scan::ScanResult;
using strata::scan::Verdict;

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

// An entry's modification time as listed: nanoseconds since the epoch (local files), ISO 8601
// (S3) or an HTTP date (nginx listings). Null when absent or in none of these forms.
QDateTime modifiedTime(const std::string& listed) {
    if (listed.empty()) {
        return {};
    }
    if (std::all_of(listed.begin(), listed.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        return listed.size() <= 19
                   ? QDateTime::fromMSecsSinceEpoch(qint64(std::stoull(listed) / 1'000'000))
                   : QDateTime();
    }
    const QString text = qs(listed);
    QDateTime time = QDateTime::fromString(text, Qt::ISODateWithMs);
    if (!time.isValid()) {
        time = QDateTime::fromString(text, Qt::RFC2822Date);
    }
    return time;
}

QString statusText(const ScanResult& result) {
    switch (result.verdict) {
        case Verdict::Valid:
            return ScanListModel::tr("valid");
        case Verdict::Warnings:
            return ScanListModel::tr("warnings");
        case Verdict::Damaged:
            return ScanListModel::tr("damaged");
        case Verdict::Unreadable:
            return ScanListModel::tr("unreadable");
        case Verdict::UnknownFormat:
            return ScanListModel::tr("unknown format");
    }
    return {};
}

// "ZS-HEADER-CRC at 16: message", the entry's first problem in one line.
QString problemText(const ScanResult& result) {
    if (!result.problem.empty()) {
        return qs(result.problem);
    }
    if (result.diagnostics.empty()) {
        return {};
    }
    const auto& d = result.diagnostics.front();
    QString text = qs(d.code);
    if (!d.file.empty()) {
        text += QStringLiteral(" in ") + qs(d.file);
    }
    if (d.offset) {
        text += ScanListModel::tr(" at %1").arg(*d.offset);
    }
    return text + QStringLiteral(": ") + qs(d.message);
}

QString diagnosticsTip(const ScanResult& result) {
    QStringList lines;
    if (!result.problem.empty()) {
        lines << qs(result.problem);
    }
    for (const auto& d : result.diagnostics) {
        QString line = qs(d.code);
        if (!d.file.empty()) {
            line += QStringLiteral(" ") + qs(d.file);
        }
        if (d.offset) {
            line += QStringLiteral("@") + QString::number(*d.offset);
        }
        lines << line + QStringLiteral(": ") + qs(d.message);
    }
    const std::size_t shown = result.diagnostics.size();
    if (result.errors + result.warnings > shown) {
        lines << ScanListModel::tr("… %1 more").arg(result.errors + result.warnings - shown);
    }
    return lines.join(QLatin1Char('\n'));
}

}  // namespace

ScanListModel::ScanListModel(QObject* parent) : QAbstractTableModel(parent) {}

void ScanListModel::clear() {
    beginResetModel();
    rows_.clear();
    rowByIndex_.clear();
    verdicts_.fill(0);
    checked_ = 0;
    formats_.clear();
    endResetModel();
    emit summaryChanged();
}

void ScanListModel::addListed(std::vector<strata::scan::ScanEntry> entries) {
    std::erase_if(entries, [this](const auto& e) { return rowByIndex_.contains(e.index); });
    if (entries.empty()) {
        return;
    }
    const int first = int(rows_.size());
    beginInsertRows({}, first, first + int(entries.size()) - 1);
    for (auto& entry : entries) {
        rowByIndex_.emplace(entry.index, int(rows_.size()));
        const QDateTime modified = modifiedTime(entry.modified);
        rows_.push_back({std::move(entry), std::nullopt, modified});
    }
    endInsertRows();
}

int ScanListModel::rowOf(const strata::scan::ScanEntry& entry) {
    if (const auto found = rowByIndex_.find(entry.index); found != rowByIndex_.end()) {
        return found->second;
    }
    addListed({entry});
    return int(rows_.size()) - 1;
}

void ScanListModel::addChecked(std::vector<ScanResult> results) {
    if (results.empty()) {
        return;
    }
    int low = std::numeric_limits<int>::max(), high = -1;
    for (auto& result : results) {
        const int row = rowOf(result.entry);
        Row& r = rows_[std::size_t(row)];
        if (r.result) {
            --verdicts_[std::size_t(r.result->verdict)];  // checked again
        } else {
            ++checked_;
        }
        ++verdicts_[std::size_t(result.verdict)];
        const QString format = qs(result.format);
        if (!format.isEmpty() && !formats_.contains(format)) {
            formats_ << format;
        }
        r.entry = result.entry;  // a folder unit's size is known once checked
        r.modified = modifiedTime(r.entry.modified);
        r.result = std::move(result);
        low = std::min(low, row);
        high = std::max(high, row);
    }
    emit dataChanged(index(low, 0), index(high, ColumnCount - 1));
    emit summaryChanged();
}

QString ScanListModel::location(int row) const {
    return row >= 0 && row < rowCount() ? qs(rows_[std::size_t(row)].entry.location.text())
                                        : QString();
}

const ScanResult* ScanListModel::result(int row) const {
    if (row < 0 || row >= rowCount() || !rows_[std::size_t(row)].result) {
        return nullptr;
    }
    return &*rows_[std::size_t(row)].result;
}

quint64 ScanListModel::count(Verdict verdict) const {
    return verdicts_[std::size_t(verdict)];
}

int ScanListModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(rows_.size());
}

int ScanListModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ScanListModel::display(const Row& row, int column) const {
    const ScanResult* result = row.result ? &*row.result : nullptr;
    switch (column) {
        case Name:
            return qs(row.entry.relativePath) + (row.entry.isFolder ? QStringLiteral("/") : "");
        case Format:
            return result ? qs(result->format) : QString();
        case Size:
            return row.entry.size > 0 || !row.entry.isFolder || result
                       ? QLocale().formattedDataSize(qint64(row.entry.size))
                       : QString();
        case Modified:
            return row.modified.isValid()
                       ? QLocale().toString(row.modified.toLocalTime(), QLocale::ShortFormat)
                       : qs(row.entry.modified);
        case Status:
            return result ? statusText(*result) + (result->fromCache ? tr(" (cached)") : "")
                          : tr("waiting");
        case Errors:
            return result ? QVariant(qulonglong(result->errors)) : QVariant();
        case Warnings:
            return result ? QVariant(qulonglong(result->warnings)) : QVariant();
        case Problem:
            return result ? problemText(*result) : QString();
    }
    return {};
}

QVariant ScanListModel::sortKey(const Row& row, int column) const {
    switch (column) {
        case Size:
            return qulonglong(row.entry.size);
        case Modified:
            return row.modified;
        case Errors:
        case Warnings:
            return row.result
                       ? qulonglong(column == Errors ? row.result->errors : row.result->warnings)
                       : qulonglong(0);
        default:
            return display(row, column);
    }
}

QVariant ScanListModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) {
        return {};
    }
    const Row& row = rows_[std::size_t(index.row())];
    switch (role) {
        case Qt::DisplayRole:
            return display(row, index.column());
        case Qt::ToolTipRole:
            return row.result ? diagnosticsTip(*row.result) : QString();
        case Qt::ForegroundRole:
            if (row.result && index.column() == Status) {
                if (strata::scan::isProblem(row.result->verdict)) {
                    return QBrush(QColor(0xC0, 0x20, 0x20));
                }
                if (row.result->verdict == Verdict::Warnings) {
                    return QBrush(QColor(0xA0, 0x60, 0x00));
                }
            }
            return {};
        case Qt::TextAlignmentRole:
            return index.column() == Size || index.column() == Errors || index.column() == Warnings
                       ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                       : QVariant();
        case VerdictRole:
            return row.result ? QString::fromLatin1(strata::scan::verdictName(row.result->verdict))
                              : QString();
        case FormatRole:
            return row.result ? qs(row.result->format) : QString();
        case LocationRole:
            return qs(row.entry.location.text());
        case SortRole:
            return sortKey(row, index.column());
        default:
            return {};
    }
}

QVariant ScanListModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    static const char* const kTitles[ColumnCount] = {
        QT_TR_NOOP("Name"),     QT_TR_NOOP("Format"),       QT_TR_NOOP("Size"),
        QT_TR_NOOP("Modified"), QT_TR_NOOP("Status"),       QT_TR_NOOP("Errors"),
        QT_TR_NOOP("Warnings"), QT_TR_NOOP("First problem")};
    return section >= 0 && section < ColumnCount ? tr(kTitles[section]) : QVariant();
}

ScanFilterModel::ScanFilterModel(QObject* parent) : QSortFilterProxyModel(parent) {
    setSortRole(ScanListModel::SortRole);
}

void ScanFilterModel::setFormat(const QString& format) {
    format_ = format;
    invalidateRowsFilter();
}

void ScanFilterModel::setVerdict(const QString& verdict) {
    verdict_ = verdict;
    invalidateRowsFilter();
}

bool ScanFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
    const QModelIndex index = sourceModel()->index(sourceRow, 0, sourceParent);
    if (!format_.isEmpty() && index.data(ScanListModel::FormatRole).toString() != format_) {
        return false;
    }
    if (verdict_.isEmpty()) {
        return true;
    }
    const QString verdict = index.data(ScanListModel::VerdictRole).toString();
    if (verdict_ == QLatin1String("problems")) {
        return verdict == QLatin1String("damaged") || verdict == QLatin1String("unreadable");
    }
    return verdict == verdict_;
}

}  // namespace strata::model
