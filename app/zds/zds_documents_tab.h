// The "Documents" tab of a ZDS dataset: the document table of a collection (with its
// toolbar of edits and dataset jobs), the JSON editor of the selected document, and the search
// pane whose results lead back to table rows. Selecting a row selects its line in data.jsonl
// in the hex view; "Index entry" selects its ZDX entry in index.bin; moving in the hex view of
// data.jsonl or index.bin (or the tree) selects the document's row.
#pragma once

#include <QPointer>
#include <QString>
#include <QVariant>
#include <QWidget>

#include <functional>
#include <string>
#include <vector>

#include "formats/common/node.h"
#include "formats/common/region.h"
#include "model/core/text_draft.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QMenu;
class QPushButton;
class QTableView;
class QToolBar;

namespace strata::model {
enum class ZdsDatasetJob;
class ZdsEditor;
class ZdsSearchResults;
class ZdsTableModel;
}  // namespace strata::model

namespace strata::gui {

class DocumentView;
class ZdsDocumentEditor;

class ZdsDocumentsTab : public QWidget {
    Q_OBJECT
public:
    ZdsDocumentsTab(DocumentView& view, model::ZdsEditor* editor, QWidget* parent = nullptr);

    model::ZdsEditor* editor() const { return editor_; }
    int currentCollection() const;
    void setCurrentCollection(int collection);
    model::ZdsTableModel* currentModel() const;
    QTableView* table() const { return table_; }
    ZdsDocumentEditor* documentEditor() const { return documentEditor_; }
    // What the JSON editor holds that is not applied yet.
    model::TextDraft* draft() const { return draft_; }
    QTableView* searchResultsView() const { return resultsView_; }
    model::ZdsSearchResults* searchResults() const { return results_; }
    QToolBar* toolBar() const { return toolBar_; }

    // The stored position of the current row, or -1; of every selected row.
    int currentStored() const;
    std::vector<int> selectedStored() const;
    // Makes the document at stored position `stored` the current row (and shows it).
    void showDocument(int stored);
    // The region of the current document's line / ZDX entry in the document's own sources.
    Region currentLineRegion() const;
    Region currentEntryRegion() const;
    void showIndexEntry();
    // Selects the row of the document a structure node stands for (a document in data.jsonl
    // or docs/, or a ZDX entry): how a move in the hex view or the tree reaches the table.
    // The hex view keeps its cursor. Returns the stored position selected, or -1.
    int followNode(const strata::Node* node);

    // The edits behind the toolbar buttons; each returns an error text or "".
    QString addDocument(const QString& json);
    QString duplicateSelected();
    QString deleteSelected();
    QString renameCurrent(const QString& newId);
    QString setFieldOnSelection(const QString& pointer, const QString& valueJson);
    QString applyEditorText(const QString& json);
    // Applies the text typed into the JSON editor, if any, before the table moves elsewhere;
    // returns the error that keeps it from applying (the editor stays on it), or "".
    QString settleDraft();
    // The selected collection and document, scroll positions and typed text, for a view of
    // the same dataset opened again (DocumentView::saveState).
    QVariant saveState() const;
    void restoreState(const QVariant& state);
    // Runs a search from the search pane's fields (or the given query).
    QString runSearch(int target, int op, const QString& pointer, const QString& value);

private:
    void buildToolBar();
    // A toolbar button showing the menu it returns.
    QMenu* popupButton(const QString& text);
    void buildSearchPane(QWidget* pane);
    void connectModel();
    void onCurrentRowChanged();
    // After an edit, undo or redo: the shown document's stored position and text.
    void followEdit();
    // The topmost selected table row (or the current one).
    int topSelectedRow() const;
    void loadEditor();
    void selectShownRow();
    void followCurrentRow();
    // A collection shows its first document as soon as it is listed.
    void showFirstDocument();
    QString editorTitle() const;
    void applyState(const QVariantMap& state);
    void showStatus();
    void report(const QString& error);
    Region inDocument(const Region& region) const;

    DocumentView& view_;
    model::ZdsEditor* editor_;
    QToolBar* toolBar_ = nullptr;
    QComboBox* collections_ = nullptr;
    QLabel* status_ = nullptr;
    QLabel* liveNotes_ = nullptr;  // where index and data disagree (ZdsLiveSet::notes)
    QTableView* table_ = nullptr;
    ZdsDocumentEditor* documentEditor_ = nullptr;
    QComboBox* searchTarget_ = nullptr;
    QComboBox* searchOp_ = nullptr;
    QLineEdit* searchPointer_ = nullptr;
    QLineEdit* searchValue_ = nullptr;
    QPushButton* searchButton_ = nullptr;
    QPushButton* stopButton_ = nullptr;
    QLabel* searchStatus_ = nullptr;
    QTableView* resultsView_ = nullptr;
    model::ZdsSearchResults* results_ = nullptr;
    QPointer<model::TextDraft> draft_;
    int shownStored_ = -1;
    int modelCollection_ = -1;
    bool settling_ = false;
    bool reselecting_ = false;
    bool followQueued_ = false;
    std::string shownId_;
    std::string shownText_;      // the shown document's text as loaded into the editor
    bool following_ = false;     // the row follows the hex view: do not move the hex view back
    bool showingFirst_ = false;  // the first document shown by itself: no place to go back to
};

// A table of documents or search hits: whole rows selected, read-only, one line per row.
void setUpDocumentTable(QTableView* table);

}  // namespace strata::gui
