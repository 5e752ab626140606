// The corpus tab: every document with its block, item and paragraph counts and text size,
// sortable and filterable, with the document-level edits (add, remove, rename, standalone ↔
// directory), find and replace, JSONL export and import, and a banner offering to reload after an
// external change on disk.
#pragma once

#include <QVariant>
#include <QWidget>

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;
class QWidget;

namespace strata::model {
class OzdfCorpusModel;
class OzdfEditor;
}  // namespace strata::model

namespace strata::gui {

class DocumentView;
class OzdfReloadBanner;

class OzdfCorpusView : public QWidget {
    Q_OBJECT
public:
    OzdfCorpusView(DocumentView& view, model::OzdfEditor& editor, QWidget* parent = nullptr);

    QTableView* table() const { return table_; }
    QLineEdit* filterEdit() const { return filter_; }
    QSortFilterProxyModel* proxy() const { return proxy_; }
    // Shows the reload banner (called by the watcher).
    void showExternalChange(const QString& what);
    OzdfReloadBanner* reloadBanner() const { return banner_; }
    // Makes document `index` (of the session) the current row; when the filter hides it (or
    // for -1), no row is current.
    void selectDocument(int index);
    // The current document, sort, filter and scroll position, for a view of the same corpus
    // opened again (DocumentView::saveState).
    QVariant saveState() const;
    void restoreState(const QVariant& state);

signals:
    // The current row changed to document `index`.
    void documentActivated(int index);
    // Document `index` was double-clicked (or Enter pressed on it): open it in the editor.
    void documentOpened(int index);

private:
    // The document of the highlighted row (what the buttons act on), or -1.
    int currentDocument() const;
    // Counts the model changes under way, so the current row is followed once each is done.
    void trackModelChanges();
    // Tells the editor (documentActivated) which document the highlighted row now is.
    void followCurrentRow();
    void queueFollow();
    void addDocument();
    void removeDocument();
    void renameDocument();
    void toggleKind();
    void exportJsonl();
    void importJsonl();
    void report(bool ok, const QString& error);
    // Applies text typed in the editor before a document-level edit; false when it cannot.
    bool applyTypedText();

    DocumentView& view_;
    model::OzdfEditor& editor_;
    model::OzdfCorpusModel* model_ = nullptr;
    QSortFilterProxyModel* proxy_ = nullptr;
    QTableView* table_ = nullptr;
    QLineEdit* filter_ = nullptr;
    OzdfReloadBanner* banner_ = nullptr;
    int modelChanging_ = 0;
    bool followQueued_ = false;
};

}  // namespace strata::gui
