#include "bookmarks_panel.h"

#include <QHBoxLayout>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

#include "model/core/document.h"
#include "model/core/structure_model.h"

namespace strata::gui {

BookmarksPanel::BookmarksPanel(QWidget* parent)
    : QWidget(parent),
      list_(new QListWidget(this)),
      add_(new QPushButton(tr("&Add"), this)),
      remove_(new QPushButton(tr("&Remove"), this)) {
    auto* bar = new QHBoxLayout;
    bar->addWidget(add_);
    bar->addWidget(remove_);
    bar->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(list_, 1);
    layout->addLayout(bar);
    connect(list_, &QListWidget::itemActivated, this,
            [this](QListWidgetItem* item) { emit bookmarkActivated(list_->row(item)); });
    connect(list_, &QListWidget::itemClicked, this,
            [this](QListWidgetItem* item) { emit bookmarkActivated(list_->row(item)); });
    connect(add_, &QPushButton::clicked, this, &BookmarksPanel::addRequested);
    connect(remove_, &QPushButton::clicked, this, [this] {
        if (document_ && list_->currentRow() >= 0) {
            document_->removeBookmark(list_->currentRow());
        }
    });
    setDocument(nullptr);
}

void BookmarksPanel::setDocument(model::Document* document) {
    if (document_) {
        disconnect(document_, nullptr, this, nullptr);
    }
    document_ = document;
    if (document_) {
        connect(document_, &model::Document::bookmarksChanged, this, &BookmarksPanel::refresh);
    }
    add_->setEnabled(document != nullptr);
    remove_->setEnabled(document != nullptr);
    refresh();
}

void BookmarksPanel::refresh() {
    list_->clear();
    if (!document_) {
        return;
    }
    for (const model::Bookmark& b : document_->bookmarks()) {
        list_->addItem(
            tr("%1 — %2 (%3)")
                .arg(b.name, model::formatOffset(b.offset), model::formatSize(b.length)));
    }
}

}  // namespace strata::gui
