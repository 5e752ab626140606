#include "zs_header_panel.h"

#include <QFontDatabase>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include "app/widgets/document_view.h"
#include "model/core/format_colors.h"

namespace strata::gui {

namespace {

QString bytesText(const strata::Region& region) {
    if (region.length == 0) {
        return QStringLiteral("—");
    }
    return QStringLiteral("%1 – %2 (%3 B)")
        .arg(region.offset)
        .arg(region.offset + region.length - 1)
        .arg(region.length);
}

}  // namespace

ZsHeaderPanel::ZsHeaderPanel(std::shared_ptr<const zs::ZsFile> file, DocumentView& view,
                             QWidget* parent)
    : QWidget(parent), view_(view), rows_(model::zsHeaderRows(file->header())) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* splitter = new QSplitter(Qt::Vertical, this);
    layout->addWidget(splitter);

    table_ = new QTableWidget(int(rows_.size()), 3, splitter);
    table_->setObjectName(QStringLiteral("zsHeaderTable"));
    table_->setHorizontalHeaderLabels({tr("Field"), tr("Value"), tr("Bytes")});
    table_->verticalHeader()->hide();
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setWordWrap(false);
    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    for (int r = 0; r < rows_.size(); ++r) {
        const model::ZsHeaderRow& row = rows_[r];
        auto* field = new QTableWidgetItem(row.field);
        auto* value = new QTableWidgetItem(row.value);
        auto* bytes = new QTableWidgetItem(bytesText(row.region));
        value->setFont(mono);
        const QString tip = row.problem.isEmpty() ? row.value : row.value + "\n\n" + row.problem;
        value->setToolTip(tip);
        const QColor colour = model::colorForStatus(row.status);
        if (colour.isValid()) {
            for (auto* item : {field, value, bytes}) {
                item->setForeground(colour);
                item->setToolTip(tip);
            }
        }
        table_->setItem(r, 0, field);
        table_->setItem(r, 1, value);
        table_->setItem(r, 2, bytes);
    }
    table_->resizeColumnsToContents();
    table_->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    connect(table_, &QTableWidget::cellClicked, this, [this](int row, int) { activateRow(row); });
    connect(table_, &QTableWidget::currentCellChanged, this,
            [this](int row, int, int, int) { activateRow(row); });

    auto* metadataBox = new QWidget(splitter);
    auto* metadataLayout = new QVBoxLayout(metadataBox);
    metadataLayout->setContentsMargins(0, 0, 0, 0);
    metadataLayout->addWidget(new QLabel(tr("Metadata"), metadataBox));
    metadata_ = new QPlainTextEdit(metadataBox);
    metadata_->setObjectName(QStringLiteral("zsMetadataText"));
    metadata_->setReadOnly(true);
    metadata_->setFont(mono);
    metadata_->setPlainText(model::zsMetadataText(file->header()));
    metadataLayout->addWidget(metadata_);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
}

void ZsHeaderPanel::activateRow(int row) {
    if (row < 0 || row >= rows_.size() || rows_[row].region.length == 0) {
        return;
    }
    view_.selectRegion(rows_[row].region);
}

}  // namespace strata::gui
