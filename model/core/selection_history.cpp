#include "selection_history.h"

#include <QVariantList>
#include <QVariantMap>

#include <algorithm>
#include <limits>

namespace strata::model {
namespace {

// A cursor without a selection stands for the one byte under it.
quint64 endOf(const SelectionLocation& l) {
    const quint64 length = std::max<quint64>(l.length, 1);
    return l.offset > std::numeric_limits<quint64>::max() - length
               ? std::numeric_limits<quint64>::max()
               : l.offset + length;
}

// Bytes between the two ranges; 0 when they touch or overlap.
quint64 gapBetween(const SelectionLocation& a, const SelectionLocation& b) {
    if (a.offset >= endOf(b)) {
        return a.offset - endOf(b);
    }
    if (b.offset >= endOf(a)) {
        return b.offset - endOf(a);
    }
    return 0;
}

QVariantMap toMap(const SelectionLocation& l) {
    QVariantMap map{{QStringLiteral("file"), l.file},
                    {QStringLiteral("offset"), l.offset},
                    {QStringLiteral("length"), l.length}};
    if (l.hasNode) {
        QVariantList rows;
        for (quint64 row : l.nodeRows) {
            rows << row;
        }
        map.insert(QStringLiteral("nodeRows"), rows);
        map.insert(QStringLiteral("nodeKind"), l.nodeKind);
        map.insert(QStringLiteral("nodeLabel"), l.nodeLabel);
        map.insert(QStringLiteral("nodeOffset"), l.nodeOffset);
    }
    return map;
}

SelectionLocation fromMap(const QVariantMap& map) {
    SelectionLocation l;
    l.file = map.value(QStringLiteral("file")).toString();
    l.offset = map.value(QStringLiteral("offset")).toULongLong();
    l.length = map.value(QStringLiteral("length")).toULongLong();
    l.hasNode = map.contains(QStringLiteral("nodeRows"));
    for (const QVariant& row : map.value(QStringLiteral("nodeRows")).toList()) {
        l.nodeRows << row.toULongLong();
    }
    l.nodeKind = map.value(QStringLiteral("nodeKind")).toString();
    l.nodeLabel = map.value(QStringLiteral("nodeLabel")).toString();
    l.nodeOffset = map.value(QStringLiteral("nodeOffset")).toULongLong();
    return l;
}

}  // namespace

SelectionHistory::SelectionHistory(QObject* parent, int limit)
    : QObject(parent), limit_(std::max(limit, 1)) {}

void SelectionHistory::record(const SelectionLocation& location, SelectionMove move) {
    if (current_ >= 0 && entries_[current_] == location) {
        return;
    }
    if (current_ >= 0 && continuesCurrent(location, move)) {
        entries_[current_] = location;  // Back and Forward reach the same entries as before
        return;
    }
    append(location);
    emit changed();
}

bool SelectionHistory::continuesCurrent(const SelectionLocation& location,
                                        SelectionMove move) const {
    const SelectionLocation& current = entries_[current_];
    if (location.sameBytes(current) || move == SelectionMove::Settle) {
        return true;
    }
    return move == SelectionMove::Step && location.file == current.file &&
           gapBetween(location, current) <= kStepReach;
}

void SelectionHistory::append(const SelectionLocation& location) {
    // Like a browser's: a new place after going back forgets the places gone back from.
    entries_.resize(current_ + 1);
    entries_.append(location);
    if (entries_.size() > limit_) {
        entries_.remove(0, entries_.size() - limit_);
    }
    current_ = entries_.size() - 1;
}

std::optional<SelectionLocation> SelectionHistory::goBack() {
    if (!canGoBack()) {
        return std::nullopt;
    }
    --current_;
    emit changed();
    return entries_[current_];
}

std::optional<SelectionLocation> SelectionHistory::goForward() {
    if (!canGoForward()) {
        return std::nullopt;
    }
    ++current_;
    emit changed();
    return entries_[current_];
}

void SelectionHistory::clear() {
    entries_.clear();
    current_ = -1;
    emit changed();
}

QVariant SelectionHistory::toVariant() const {
    QVariantList entries;
    for (const SelectionLocation& location : entries_) {
        entries << toMap(location);
    }
    return QVariantMap{{QStringLiteral("entries"), entries},
                       {QStringLiteral("current"), static_cast<qlonglong>(current_)}};
}

void SelectionHistory::restore(const QVariant& saved) {
    const QVariantMap map = saved.toMap();
    entries_.clear();
    for (const QVariant& entry : map.value(QStringLiteral("entries")).toList()) {
        entries_ << fromMap(entry.toMap());
    }
    const qsizetype dropped = std::max<qsizetype>(entries_.size() - limit_, 0);
    entries_.remove(0, dropped);
    const qsizetype current = map.value(QStringLiteral("current")).toLongLong() - dropped;
    current_ = entries_.isEmpty() ? -1 : std::clamp<qsizetype>(current, 0, entries_.size() - 1);
    emit changed();
}

}  // namespace strata::model
