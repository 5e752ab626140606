#include "shardlake_root_browser.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTreeView>
#include <QVBoxLayout>

#include "model/shardlake/shardlake_alias_editor.h"
#include "model/shardlake/shardlake_root_model.h"
#include "model/shardlake/shardlake_session.h"

namespace strata::gui {

using model::ShardlakeRootModel;

ShardlakeRootBrowser::ShardlakeRootBrowser(const model::ShardlakeSession& session,
                                           model::ShardlakeAliasEditor* editor, QWidget* parent)
    : QWidget(parent), editor_(editor) {
    model_ = new ShardlakeRootModel(session, editor, this);
    tree_ = new QTreeView(this);
    tree_->setModel(model_);
    tree_->setAlternatingRowColors(true);
    tree_->setSelectionBehavior(QAbstractItemView::SelectRows);
    tree_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    expandAll();
    connect(model_, &QAbstractItemModel::modelReset, this, &ShardlakeRootBrowser::expandAll);
    connect(tree_->selectionModel(), &QItemSelectionModel::currentChanged, this,
            &ShardlakeRootBrowser::onCurrentChanged);
    connect(tree_, &QTreeView::doubleClicked, this, [this](const QModelIndex& index) {
        if (index.data(ShardlakeRootModel::ItemKindRole).toString() == QLatin1String("index")) {
            emit indexActivated(index.data(ShardlakeRootModel::ItemNameRole).toString());
        }
    });

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(tree_, 1);
    auto* row = new QHBoxLayout;
    aliasBox_ = new QComboBox(this);
    aliasBox_->setEditable(true);
    aliasBox_->setMinimumContentsLength(12);
    versionBox_ = new QComboBox(this);
    versionBox_->setMinimumContentsLength(12);
    applyButton_ = new QPushButton(tr("Point alias"), this);
    buildButton_ = new QPushButton(tr("Build index…"), this);
    buildButton_->hide();
    row->addWidget(new QLabel(tr("Alias"), this));
    row->addWidget(aliasBox_);
    row->addWidget(new QLabel(tr("→ index version"), this));
    row->addWidget(versionBox_);
    row->addWidget(applyButton_);
    row->addStretch(1);
    row->addWidget(buildButton_);
    layout->addLayout(row);
    message_ = new QLabel(this);
    message_->setWordWrap(true);
    layout->addWidget(message_);
    if (editor_) {
        aliasBox_->addItems(editor_->aliasNames());
        versionBox_->addItems(editor_->indexVersions());
        versionBox_->setCurrentText(editor_->target(aliasBox_->currentText()));
        connect(aliasBox_, &QComboBox::currentTextChanged, this, [this](const QString& alias) {
            if (editor_ && !editor_->target(alias).isEmpty()) {
                versionBox_->setCurrentText(editor_->target(alias));
            }
        });
        connect(applyButton_, &QPushButton::clicked, this, &ShardlakeRootBrowser::applyAlias);
    } else {
        for (QWidget* widget :
             {static_cast<QWidget*>(aliasBox_), static_cast<QWidget*>(versionBox_),
              static_cast<QWidget*>(applyButton_)}) {
            widget->setEnabled(false);
        }
        message_->setText(tr("Open the storage root folder to edit its aliases."));
    }
    connect(buildButton_, &QPushButton::clicked, this, &ShardlakeRootBrowser::buildRequested);
}

void ShardlakeRootBrowser::expandAll() {
    tree_->expandAll();
}

void ShardlakeRootBrowser::onCurrentChanged() {
    const QModelIndex current = tree_->currentIndex();
    const QString kind = current.data(ShardlakeRootModel::ItemKindRole).toString();
    const QString name = current.data(ShardlakeRootModel::ItemNameRole).toString();
    if (kind == QLatin1String("alias")) {
        aliasBox_->setCurrentText(name);
    } else if (kind == QLatin1String("index")) {
        versionBox_->setCurrentText(name);
    }
}

bool ShardlakeRootBrowser::applyAlias() {
    if (!editor_) {
        return false;
    }
    QString error;
    const QString alias = aliasBox_->currentText().trimmed();
    const bool ok = editor_->setAliasTarget(alias, versionBox_->currentText(), &error);
    message_->setText(ok ? tr("%1 → %2 (unsaved: File > Save writes aliases/%1.json)")
                               .arg(alias, versionBox_->currentText())
                         : error);
    if (ok && aliasBox_->findText(alias) < 0) {
        aliasBox_->addItem(alias);
    }
    return ok;
}

}  // namespace strata::gui
