#include "shardlake_file_view.h"

#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableView>
#include <QTableWidget>
#include <QVBoxLayout>

#include "app/widgets/document_view.h"
#include "formats/shardlake/shardlake_binary.h"
#include "model/shardlake/shardlake_session.h"
#include "model/shardlake/shardlake_vector_model.h"

namespace strata::gui {

using namespace strata::shardlake;

ShardlakeFileView::ShardlakeFileView(DocumentView& view, const model::ShardlakeSession& session,
                                     QWidget* parent)
    : QWidget(parent), view_(view), session_(session) {
    summary_ = new QLabel(this);
    summary_->setWordWrap(true);
    header_ = new QTableWidget(0, 3, this);
    header_->setHorizontalHeaderLabels({tr("Field"), tr("Value"), tr("Offset")});
    header_->verticalHeader()->hide();
    header_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    header_->setSelectionBehavior(QAbstractItemView::SelectRows);
    header_->horizontalHeader()->setStretchLastSection(true);
    vectors_ = new model::ShardlakeVectorModel(this);
    table_ = new QTableView(this);
    table_->setModel(vectors_);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->horizontalHeader()->setDefaultSectionSize(84);
    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(header_);
    splitter->addWidget(table_);
    splitter->setStretchFactor(1, 3);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(summary_);
    layout->addWidget(splitter, 1);
    connect(table_, &QTableView::clicked, this, [this](const QModelIndex& index) {
        view_.selectRegion(
            session_.documentRegion(vectors_->rowRegion(static_cast<std::uint64_t>(index.row()))));
    });
    if (session_.kind() == model::ShardlakeSession::Kind::Shard) {
        showShard();
    } else {
        showQuantizer();
    }
}

namespace {

void fillHeader(QTableWidget* table, const std::vector<HeaderField>& fields) {
    table->setRowCount(static_cast<int>(fields.size()));
    for (int row = 0; row < table->rowCount(); ++row) {
        const HeaderField& field = fields[static_cast<std::size_t>(row)];
        table->setItem(row, 0, new QTableWidgetItem(QString::fromStdString(field.name)));
        table->setItem(row, 1, new QTableWidgetItem(QString::number(field.value)));
        table->setItem(row, 2, new QTableWidgetItem(QString::number(field.region.offset)));
    }
    table->resizeColumnsToContents();
}

}  // namespace

void ShardlakeFileView::showShard() {
    const auto& shard = session_.singleShard();
    if (!shard || !shard->source) {
        summary_->setText(tr("The shard cannot be read."));
        return;
    }
    const ShardParse parse = parseShard(*shard->source);
    fillHeader(header_, parse.fields);
    if (!shard->layout || !shard->layout->layoutKnown) {
        summary_->setText(tr("%1: %2").arg(QString::fromStdString(shard->key),
                                           QString::fromStdString(shard->problem)));
        return;
    }
    const ShardLayout& layout = *shard->layout;
    vectors_->setShard(shard->source, layout);
    QString text =
        tr("%1: .sidx v%2, shard %3, %4 records × %5 dims, %6")
            .arg(QString::fromStdString(shard->key))
            .arg(layout.version)
            .arg(layout.shardId)
            .arg(layout.vectorCount)
            .arg(layout.dims)
            .arg(layout.isPq() ? tr("PQ codes (M=%1, K=%2)").arg(layout.pqM).arg(layout.pqK)
                               : tr("raw f32"));
    if (!shard->problem.empty()) {
        text += QStringLiteral(" — ") + QString::fromStdString(shard->problem);
    }
    summary_->setText(text);
}

void ShardlakeFileView::showQuantizer() {
    const strata::ByteSourcePtr& source = session_.singleFile();
    if (!source) {
        summary_->setText(tr("The file cannot be read."));
        return;
    }
    const CoarseParse parse = parseCoarseQuantizer(*source);
    fillHeader(header_, parse.fields);
    if (!parse.layout || !parse.layout->layoutKnown) {
        summary_->setText(tr("The coarse quantizer header is unreadable."));
        return;
    }
    vectors_->setVectors(source, kCoarseHeaderSize, parse.layout->clusters, parse.layout->dims,
                         tr("centroid"));
    summary_->setText(tr("Coarse quantizer: %1 centroids × %2 dims")
                          .arg(parse.layout->clusters)
                          .arg(parse.layout->dims));
}

}  // namespace strata::gui
