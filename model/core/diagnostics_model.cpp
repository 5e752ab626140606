#include "diagnostics_model.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QMetaObject>
#include <QPointer>

#include <algorithm>
#include <memory>

#include "format_colors.h"
#include "structure_model.h"

namespace strata::model {

namespace {

QString fromView(std::string_view s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

const strata::Region* primaryRegion(const strata::Diagnostic& d) {
    return d.regions.empty() || !d.regions.front().valid() ? nullptr : &d.regions.front();
}

}  // namespace

DiagnosticsModel::DiagnosticsModel(QObject* parent) : QAbstractTableModel(parent) {}

void DiagnosticsModel::appendDiagnostics(std::vector<strata::Diagnostic> batch) {
    if (batch.empty()) {
        return;
    }
    const int first = size();
    beginInsertRows({}, first, first + int(batch.size()) - 1);
    for (auto& d : batch) {
        counts_[std::size_t(d.severity) % counts_.size()] += 1;
        rows_.push_back(std::move(d));
    }
    endInsertRows();
    emit summaryChanged();
}

void DiagnosticsModel::appendDiagnostic(strata::Diagnostic diagnostic) {
    std::vector<strata::Diagnostic> batch;
    batch.push_back(std::move(diagnostic));
    appendDiagnostics(std::move(batch));
}

void DiagnosticsModel::post(std::vector<strata::Diagnostic> batch) {
    if (batch.empty()) {
        return;
    }
    // std::function needs a copyable callable; share the batch instead of copying it.
    auto shared = std::make_shared<std::vector<strata::Diagnostic>>(std::move(batch));
    QMetaObject::invokeMethod(
        this, [this, shared] { appendDiagnostics(std::move(*shared)); }, Qt::QueuedConnection);
}

void DiagnosticsModel::clear() {
    if (rows_.empty()) {
        return;
    }
    beginResetModel();
    rows_.clear();
    counts_ = {};
    endResetModel();
    emit summaryChanged();
}

strata::Severity DiagnosticsModel::worstSeverity() const {
    for (int s = int(counts_.size()) - 1; s > 0; --s) {
        if (counts_[std::size_t(s)] > 0) {
            return strata::Severity(s);
        }
    }
    return strata::Severity::Info;
}

int DiagnosticsModel::countOf(strata::Severity severity) const {
    return counts_[std::size_t(severity) % counts_.size()];
}

QJsonObject DiagnosticsModel::toJson(const strata::Diagnostic& d) {
    QJsonObject o;
    o.insert(QStringLiteral("severity"), fromView(strata::severityName(d.severity)));
    o.insert(QStringLiteral("code"), QString::fromStdString(d.code));
    o.insert(QStringLiteral("message"), QString::fromStdString(d.message));
    if (const strata::Region* r = primaryRegion(d)) {
        // JSON numbers are doubles: exact up to 2^53, which covers every real file offset.
        o.insert(QStringLiteral("offset"), double(r->offset));
        o.insert(QStringLiteral("length"), double(r->length));
    } else {
        o.insert(QStringLiteral("offset"), QJsonValue::Null);
        o.insert(QStringLiteral("length"), QJsonValue::Null);
    }
    o.insert(QStringLiteral("path"), QString::fromStdString(d.fileName()));
    o.insert(QStringLiteral("node"), QString::fromStdString(d.nodePath));
    return o;
}

QByteArray DiagnosticsModel::exportJson() const {
    QJsonArray array;
    for (const auto& d : rows_) {
        array.append(toJson(d));
    }
    return QJsonDocument(array).toJson(QJsonDocument::Indented);
}

QString DiagnosticsModel::exportText() const {
    QString out;
    for (const auto& d : rows_) {
        out += fromView(strata::severityName(d.severity));
        out += QLatin1Char(' ') + QString::fromStdString(d.code) + QLatin1Char(' ');
        out += QString::fromStdString(d.fileName());
        if (const strata::Region* r = primaryRegion(d)) {
            out += QLatin1Char('@') + formatOffset(r->offset) + QLatin1Char('+') +
                   QString::number(r->length);
        }
        if (!d.nodePath.empty()) {
            out += QLatin1Char(' ') + QString::fromStdString(d.nodePath);
        }
        out += QStringLiteral(": ") + QString::fromStdString(d.message) + QLatin1Char('\n');
    }
    return out;
}

int DiagnosticsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : size();
}

void DiagnosticsModel::setBaseFolder(const QString& folder) {
    baseFolder_ = folder;
    if (!baseFolder_.isEmpty() && !baseFolder_.endsWith(u'/')) {
        baseFolder_ += u'/';
    }
    if (!rows_.empty()) {
        emit dataChanged(index(0, FileColumn), index(size() - 1, FileColumn));
    }
}

QString DiagnosticsModel::shownFile(const strata::Diagnostic& d) const {
    const QString file = QString::fromStdString(d.fileName());
    if (!baseFolder_.isEmpty() && file.startsWith(baseFolder_) &&
        file.size() > baseFolder_.size()) {
        return file.mid(baseFolder_.size());
    }
    return file;
}

int DiagnosticsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant DiagnosticsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= size()) {
        return {};
    }
    const strata::Diagnostic& d = diagnostic(index.row());
    const strata::Region* region = primaryRegion(d);
    switch (role) {
        case Qt::DisplayRole:
            switch (index.column()) {
                case SeverityColumn:
                    return fromView(strata::severityName(d.severity));
                case CodeColumn:
                    return QString::fromStdString(d.code);
                case MessageColumn:
                    return QString::fromStdString(d.message);
                case FileColumn:
                    return shownFile(d);
                case OffsetColumn:
                    return region ? formatOffset(region->offset) : QString();
                case LengthColumn:
                    return region ? QString::number(region->length) : QString();
                case NodeColumn:
                    return QString::fromStdString(d.nodePath);
                default:
                    return {};
            }
        case Qt::ToolTipRole:
            return index.column() == FileColumn ? QString::fromStdString(d.fileName())
                                                : QString::fromStdString(d.message);
        case Qt::ForegroundRole:
            if (index.column() == SeverityColumn) {
                return colorForSeverity(d.severity);
            }
            return {};
        case SeverityRole:
            return int(d.severity);
        case CodeRole:
            return QString::fromStdString(d.code);
        case OffsetRole:
            return region ? QVariant::fromValue(quint64(region->offset)) : QVariant();
        case LengthRole:
            return region ? QVariant::fromValue(quint64(region->length)) : QVariant();
        case SourceRole:
            return QVariant::fromValue(quintptr(region ? region->source : nullptr));
        case NodePathRole:
            return QString::fromStdString(d.nodePath);
        default:
            return {};
    }
}

QVariant DiagnosticsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
        case SeverityColumn:
            return tr("Severity");
        case CodeColumn:
            return tr("Code");
        case MessageColumn:
            return tr("Message");
        case FileColumn:
            return tr("File");
        case OffsetColumn:
            return tr("Offset");
        case LengthColumn:
            return tr("Length");
        case NodeColumn:
            return tr("Node");
        default:
            return {};
    }
}

DiagnosticsFilterModel::DiagnosticsFilterModel(QObject* parent) : QSortFilterProxyModel(parent) {}

void DiagnosticsFilterModel::setMinimumSeverity(strata::Severity severity) {
    minimum_ = severity;
    invalidateFilter();
}

void DiagnosticsFilterModel::setCodeFilter(const QString& text) {
    codeText_ = text.trimmed();
    invalidateFilter();
}

void DiagnosticsFilterModel::setCodeSet(const QSet<QString>& codes) {
    codeSet_ = codes;
    invalidateFilter();
}

bool DiagnosticsFilterModel::filterAcceptsRow(int sourceRow,
                                              const QModelIndex& sourceParent) const {
    const QModelIndex index = sourceModel()->index(sourceRow, 0, sourceParent);
    const int severity = index.data(DiagnosticsModel::SeverityRole).toInt();
    if (severity < int(minimum_)) {
        return false;
    }
    const QString code = index.data(DiagnosticsModel::CodeRole).toString();
    if (!codeSet_.isEmpty() && !codeSet_.contains(code)) {
        return false;
    }
    return codeText_.isEmpty() || code.contains(codeText_, Qt::CaseInsensitive);
}

bool DiagnosticsFilterModel::lessThan(const QModelIndex& left, const QModelIndex& right) const {
    // Sort by the typed values, not the display text ("0x10" < "0x9" as text).
    switch (left.column()) {
        case DiagnosticsModel::SeverityColumn:
            return left.data(DiagnosticsModel::SeverityRole).toInt() <
                   right.data(DiagnosticsModel::SeverityRole).toInt();
        case DiagnosticsModel::OffsetColumn:
            return left.data(DiagnosticsModel::OffsetRole).toULongLong() <
                   right.data(DiagnosticsModel::OffsetRole).toULongLong();
        case DiagnosticsModel::LengthColumn:
            return left.data(DiagnosticsModel::LengthRole).toULongLong() <
                   right.data(DiagnosticsModel::LengthRole).toULongLong();
        default:
            return QSortFilterProxyModel::lessThan(left, right);
    }
}

}  // namespace strata::model
