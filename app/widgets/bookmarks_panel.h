// The Bookmarks dock: the active document's bookmarks; activate one to jump to its bytes.
#pragma once

#include <QPointer>
#include <QWidget>

#include "model/core/document.h"

class QListWidget;
class QPushButton;

namespace strata::gui {

class BookmarksPanel : public QWidget {
    Q_OBJECT
public:
    explicit BookmarksPanel(QWidget* parent = nullptr);

    void setDocument(model::Document* document);
    QListWidget* list() const { return list_; }

signals:
    void bookmarkActivated(int index);
    void addRequested();

private:
    void refresh();

    QPointer<model::Document> document_;
    QListWidget* list_;
    QPushButton* add_;
    QPushButton* remove_;
};

}  // namespace strata::gui
