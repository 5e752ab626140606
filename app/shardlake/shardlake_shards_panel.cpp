#include "shardlake_shards_panel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include "app/widgets/document_view.h"
#include "formats/shardlake/shardlake_binary.h"
#include "model/core/document.h"
#include "model/core/job.h"
#include "model/shardlake/shardlake_session.h"
#include "model/shardlake/shardlake_shard_table_model.h"
#include "model/shardlake/shardlake_vector_model.h"

namespace strata::gui {

using namespace strata::shardlake;

namespace {

QTableView* makeTable(QWidget* parent) {
    auto* table = new QTableView(parent);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    table->setAlternatingRowColors(true);
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 6);
    table->horizontalHeader()->setDefaultSectionSize(84);
    return table;
}

// The outermost node of the tree that covers the whole file of `whole` (the shard node).
const strata::Node* wholeFileNode(const strata::Node* root, const strata::Region& whole) {
    const strata::Node* best = nullptr;
    for (const strata::Node* node = root ? root->deepestAt(0, whole.source) : nullptr;
         node != nullptr; node = node->parent()) {
        const strata::Region& region = node->region();
        if (region.source == whole.source && region.offset == 0 && region.length >= whole.length) {
            best = node;
        }
    }
    return best;
}

}  // namespace

ShardlakeShardsPanel::ShardlakeShardsPanel(DocumentView& view,
                                           const model::ShardlakeSession& session, QWidget* parent)
    : QWidget(parent), view_(view), session_(session) {
    indexBox_ = new QComboBox(this);
    for (const model::ShardlakeIndexInfo& index : session_.indexes()) {
        indexBox_->addItem(QString::fromStdString(index.version));
    }
    shardModel_ = new model::ShardlakeShardTableModel(this);
    recordModel_ = new model::ShardlakeVectorModel(this);
    centroidModel_ = new model::ShardlakeVectorModel(this);

    shardTable_ = makeTable(this);
    shardTable_->setModel(shardModel_);
    shardTable_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    shardTable_->horizontalHeader()->setStretchLastSection(true);

    lowerTabs_ = new QTabWidget(this);
    auto* recordPage = new QWidget(lowerTabs_);
    recordTable_ = makeTable(recordPage);
    recordTable_->setModel(recordModel_);
    recordLabel_ = new QLabel(recordPage);
    pickButton_ = new QPushButton(tr("Use as query"), recordPage);
    auto* recordTop = new QHBoxLayout;
    recordTop->addWidget(recordLabel_, 1);
    recordTop->addWidget(pickButton_);
    auto* recordLayout = new QVBoxLayout(recordPage);
    recordLayout->setContentsMargins(0, 0, 0, 0);
    recordLayout->addLayout(recordTop);
    recordLayout->addWidget(recordTable_, 1);
    lowerTabs_->addTab(recordPage, tr("Records"));

    auto* centroidPage = new QWidget(lowerTabs_);
    centroidTable_ = makeTable(centroidPage);
    centroidTable_->setModel(centroidModel_);
    centroidLabel_ = new QLabel(centroidPage);
    auto* centroidLayout = new QVBoxLayout(centroidPage);
    centroidLayout->setContentsMargins(0, 0, 0, 0);
    centroidLayout->addWidget(centroidLabel_);
    centroidLayout->addWidget(centroidTable_, 1);
    lowerTabs_->addTab(centroidPage, tr("Centroids (coarse quantizer)"));

    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(shardTable_);
    splitter->addWidget(lowerTabs_);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 2);

    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Index version"), this));
    top->addWidget(indexBox_);
    top->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(splitter, 1);

    connect(indexBox_, &QComboBox::currentTextChanged, this, &ShardlakeShardsPanel::showIndex);
    connect(shardTable_, &QTableView::clicked, this,
            [this](const QModelIndex& index) { showShard(index.row()); });
    connect(recordTable_, &QTableView::clicked, this,
            [this](const QModelIndex& index) { selectRecord(index.row()); });
    connect(centroidTable_, &QTableView::clicked, this, [this](const QModelIndex& index) {
        view_.selectRegion(session_.documentRegion(
            centroidModel_->rowRegion(static_cast<std::uint64_t>(index.row()))));
    });
    connect(pickButton_, &QPushButton::clicked, this, &ShardlakeShardsPanel::pickRecord);
    if (indexBox_->count() > 0) {
        showIndex(indexBox_->currentText());
    }
}

QString ShardlakeShardsPanel::currentIndex() const {
    return indexBox_->currentText();
}

void ShardlakeShardsPanel::showIndex(const QString& version) {
    if (indexBox_->currentText() != version) {
        indexBox_->setCurrentText(version);  // comes back here through the signal
        return;
    }
    if (fingerprintJob_) {
        fingerprintJob_->cancel();
    }
    const model::ShardlakeIndexInfo* index = session_.index(version.toStdString());
    shardModel_->setShards(index ? index->shards : std::vector<model::ShardlakeShardInfo>{});
    recordModel_->clear();
    shownShard_ = -1;
    recordLabel_->setText(tr("Click a shard to list its records."));
    showCentroids(version);
    if (view_.jobRunner() != nullptr && shardModel_->rowCount() > 0) {
        fingerprintJob_ = shardModel_->startFingerprints(*view_.jobRunner());
        view_.trackJob(fingerprintJob_);
    }
}

void ShardlakeShardsPanel::showCentroids(const QString& version) {
    centroidModel_->clear();
    const model::ShardlakeIndexInfo* index = session_.index(version.toStdString());
    ByteSourcePtr source = index ? session_.store()->source(index->coarseQuantizerKey) : nullptr;
    if (!source) {
        centroidLabel_->setText(tr("This index has no coarse quantizer."));
        return;
    }
    const CoarseParse parse = parseCoarseQuantizer(*source);
    if (!parse.layout || !parse.layout->layoutKnown) {
        centroidLabel_->setText(
            tr("The coarse quantizer is unreadable: %1")
                .arg(parse.problems.empty()
                         ? tr("bad header")
                         : QString::fromStdString(parse.problems.front().message)));
        return;
    }
    const CoarseLayout& layout = *parse.layout;
    centroidModel_->setVectors(source, kCoarseHeaderSize, layout.clusters, layout.dims,
                               tr("centroid"));
    centroidLabel_->setText(tr("%1: %2 centroids × %3 dims; centroid i routes queries to the "
                               "shard whose shard_id is i")
                                .arg(QString::fromStdString(index->coarseQuantizerKey))
                                .arg(layout.clusters)
                                .arg(layout.dims));
}

void ShardlakeShardsPanel::showShard(int row) {
    const model::ShardlakeShardInfo* shard = shardModel_->shard(row);
    if (shard == nullptr) {
        return;
    }
    shardTable_->selectRow(row);
    // The shard's own node (selectRegion would pick the deepest node, its header).
    const strata::Region whole =
        shard->source ? session_.documentRegion({shard->source.get(), 0, shard->source->size()})
                      : strata::Region{};
    const strata::Node* node =
        whole.valid() ? wholeFileNode(view_.document()->root(), whole) : nullptr;
    if (node != nullptr) {
        view_.selectNode(node);
    } else if (whole.valid()) {
        view_.selectRegion(whole);
    }
    if (!shard->layout || !shard->layout->layoutKnown) {
        recordModel_->clear();
        recordLabel_->setText(tr("%1: %2").arg(QString::fromStdString(shard->key),
                                               QString::fromStdString(shard->problem)));
        return;
    }
    shownShard_ = row;
    recordModel_->setShard(shard->source, *shard->layout);
    const ShardLayout& layout = *shard->layout;
    recordLabel_->setText(tr("%1: %2 records, %3")
                              .arg(QString::fromStdString(shard->key))
                              .arg(layout.recordsPresent())
                              .arg(layout.isPq() ? tr("PQ codes (M=%1)").arg(layout.pqM)
                                                 : tr("%1 f32 components").arg(layout.dims)));
    lowerTabs_->setCurrentIndex(0);
}

void ShardlakeShardsPanel::selectRecord(int row) {
    const strata::Region region = recordModel_->rowRegion(static_cast<std::uint64_t>(row));
    if (region.valid()) {
        recordTable_->selectRow(row);
        view_.selectRegion(session_.documentRegion(region));
    }
}

void ShardlakeShardsPanel::pickRecord() {
    const QModelIndex current = recordTable_->currentIndex();
    if (!current.isValid()) {
        recordLabel_->setText(tr("Pick a record first."));
        return;
    }
    const auto row = static_cast<std::uint64_t>(current.row());
    emit recordPicked(currentIndex(), recordModel_->vectorAt(row),
                      recordModel_->idAt(row).value_or(0));
}

}  // namespace strata::gui
