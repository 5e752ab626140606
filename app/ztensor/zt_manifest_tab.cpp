#include "zt_manifest_tab.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTableView>
#include <QTreeView>
#include <QVBoxLayout>

#include "model/ztensor/zt_editor.h"
#include "model/ztensor/zt_manifest_models.h"

namespace strata::gui {

ZtManifestTab::ZtManifestTab(std::shared_ptr<const ztensor::ZtFile> file, model::ZtEditor* editor,
                             QWidget* parent)
    : QWidget(parent), file_(std::move(file)), editor_(editor) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* splitter = new QSplitter(Qt::Vertical, this);
    layout->addWidget(splitter, 1);

    tree_ = new QTreeView(splitter);
    tree_->setModel(model::ztBuildManifestTree(file_->manifestJson(), tree_));
    tree_->setUniformRowHeights(true);
    tree_->expandToDepth(1);
    tree_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    if (!file_->manifestDecoded()) {
        tree_->setToolTip(tr("The manifest could not be decoded."));
    }

    auto* attributesPage = new QWidget(splitter);
    auto* attributesLayout = new QVBoxLayout(attributesPage);
    attributesLayout->setContentsMargins(0, 0, 0, 0);
    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Attributes"), attributesPage));
    auto* add = new QPushButton(tr("Add…"), attributesPage);
    auto* remove = new QPushButton(tr("Remove"), attributesPage);
    add->setEnabled(editor_ != nullptr);
    remove->setEnabled(editor_ != nullptr);
    bar->addWidget(add);
    bar->addWidget(remove);
    bar->addStretch(1);
    attributesLayout->addLayout(bar);
    attributesModel_ = new model::ZtAttributesModel(file_, editor, this);
    attributes_ = new QTableView(attributesPage);
    attributes_->setModel(attributesModel_);
    attributes_->setSelectionBehavior(QAbstractItemView::SelectRows);
    attributes_->verticalHeader()->setVisible(false);
    attributes_->horizontalHeader()->setStretchLastSection(true);
    attributesLayout->addWidget(attributes_, 1);
    message_ = new QLabel(attributesPage);
    attributesLayout->addWidget(message_);
    splitter->addWidget(tree_);
    splitter->addWidget(attributesPage);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);

    connect(add, &QPushButton::clicked, this, &ZtManifestTab::addAttribute);
    connect(remove, &QPushButton::clicked, this, &ZtManifestTab::removeAttribute);
    // A refused cell edit (empty or duplicate key) says why.
    connect(attributes_->itemDelegate(), &QAbstractItemDelegate::closeEditor, this,
            [this] { message_->setText(attributesModel_->lastError()); });
    message_->setText(editor_ ? tr("Double-click a key or value to edit it.")
                              : tr("This file cannot be rewritten; attributes are read-only."));
}

void ZtManifestTab::addAttribute() {
    bool ok = false;
    const QString key =
        QInputDialog::getText(this, tr("Add attribute"), tr("Key:"), QLineEdit::Normal, {}, &ok);
    if (!ok || key.isEmpty() || !editor_) {
        return;
    }
    const QString value =
        QInputDialog::getText(this, tr("Add attribute"), tr("Value:"), QLineEdit::Normal, {}, &ok);
    QString error;
    if (ok && !editor_->setAttribute(key, value, &error)) {
        QMessageBox::warning(this, tr("Add attribute"), error);
    }
}

void ZtManifestTab::removeAttribute() {
    const QModelIndex current = attributes_->currentIndex();
    if (!editor_ || !current.isValid()) {
        return;
    }
    editor_->removeAttribute(attributesModel_->index(current.row(), 0).data().toString());
}

}  // namespace strata::gui
