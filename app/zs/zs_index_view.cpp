#include "zs_index_view.h"

#include <QCheckBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTabWidget>
#include <QTreeView>
#include <QVBoxLayout>

#include "app/widgets/document_view.h"
#include "model/zs/zs_index_model.h"

namespace strata::gui {

void showHexTab(DocumentView& view) {
    view.centreTabs()->setCurrentIndex(0);  // the hex view is always the first tab
}

ZsIndexView::ZsIndexView(std::shared_ptr<const zs::ZsFile> file, DocumentView& view,
                         QWidget* parent)
    : QWidget(parent), view_(view) {
    model_ = new model::ZsIndexModel(std::move(file), this);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);

    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Expand an index block to read its entries."), this));
    bar->addStretch();
    hex_ = new QCheckBox(tr("Keys as hex"), this);
    hex_->setObjectName(QStringLiteral("zsIndexHex"));
    bar->addWidget(hex_);
    layout->addLayout(bar);

    tree_ = new QTreeView(this);
    tree_->setObjectName(QStringLiteral("zsIndexTree"));
    tree_->setModel(model_);
    tree_->setUniformRowHeights(true);
    tree_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    tree_->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    tree_->header()->setStretchLastSection(false);
    tree_->expand(model_->index(0, 0));
    layout->addWidget(tree_);

    connect(hex_, &QCheckBox::toggled, model_, &model::ZsIndexModel::setHexRendering);
    connect(tree_, &QTreeView::clicked, this, &ZsIndexView::activate);
    connect(tree_, &QTreeView::activated, this, [this](const QModelIndex& index) {
        activate(index);
        showHexTab(view_);
    });
}

void ZsIndexView::activate(const QModelIndex& index) {
    const strata::Region region = model_->blockRegion(index);
    if (region.length > 0) {
        view_.selectRegion(region);
    }
}

}  // namespace strata::gui
