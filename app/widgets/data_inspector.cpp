#include "data_inspector.h"

#include <algorithm>

#include <QHeaderView>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <array>

#include "data_decoders.h"
#include "model/core/byte_overlay.h"

namespace strata::gui {
namespace {
constexpr int kByteCountRole = Qt::UserRole + 1;
}

DataInspector::DataInspector(QWidget* parent) : QWidget(parent), table_(new QTableWidget(this)) {
    table_->setColumnCount(2);
    table_->setHorizontalHeaderLabels({tr("Type"), tr("Value")});
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    table_->verticalHeader()->hide();
    table_->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setAlternatingRowColors(true);
    table_->setWordWrap(false);
    pendingRefresh_ = new QTimer(this);
    pendingRefresh_->setSingleShot(true);
    pendingRefresh_->setInterval(100);
    connect(pendingRefresh_, &QTimer::timeout, this, &DataInspector::refresh);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(table_);
    connect(table_, &QTableWidget::cellClicked, this, [this](int row, int) {
        const QTableWidgetItem* item = table_->item(row, 0);
        const quint64 count = item ? item->data(kByteCountRole).toULongLong() : 0;
        if (count > 0) {
            emit selectBytesRequested(offset_, count);
        }
    });
    refresh();
}

void DataInspector::setOverlay(model::ByteOverlay* overlay) {
    if (overlay_) {
        disconnect(overlay_, nullptr, this, nullptr);
    }
    overlay_ = overlay;
    if (overlay_) {
        connect(overlay_, &model::ByteOverlay::changed, this, &DataInspector::refresh);
    }
    offset_ = 0;
    refresh();
}

void DataInspector::setOffset(quint64 offset) {
    offset_ = offset;
    refresh();
}

void DataInspector::refresh() {
    std::array<std::uint8_t, kBytesRead> buffer{};
    std::size_t got = 0;
    bool pending = false;
    if (overlay_ && offset_ < overlay_->size()) {
        // Never waits for a server: a remote file's bytes still on their way leave the values
        // blank until they have come.
        const QByteArray bytes = overlay_->readIfReady(offset_, buffer.size(), &pending);
        got = static_cast<std::size_t>(bytes.size());
        std::copy(bytes.begin(), bytes.end(), buffer.begin());
    }
    if (pending) {
        pendingRefresh_->start();
    } else {
        pendingRefresh_->stop();
    }
    const QList<DecodedValue> values = decodeAll(std::span(buffer.data(), got));
    table_->setRowCount(static_cast<int>(values.size()));
    for (int row = 0; row < values.size(); ++row) {
        const DecodedValue& v = values[row];
        auto* name = new QTableWidgetItem(v.name);
        name->setData(kByteCountRole, v.byteCount);
        auto* value = new QTableWidgetItem(got == 0 ? QString() : v.value);
        value->setToolTip(value->text());
        table_->setItem(row, 0, name);
        table_->setItem(row, 1, value);
    }
}

QString DataInspector::valueOf(const QString& name) const {
    for (int row = 0; row < table_->rowCount(); ++row) {
        if (table_->item(row, 0)->text() == name) {
            return table_->item(row, 1)->text();
        }
    }
    return {};
}

}  // namespace strata::gui
