// The document editor tab: the blocks, items and paragraphs of one document as a tree, with
// buttons for every structural edit, and a text editor for the selected paragraph or comment
// with a live preview of what the reader will make of the text.
#pragma once

#include <QPointer>
#include <QVariant>
#include <QWidget>
#include <functional>

#include "formats/ozdf/ozdf_document.h"
#include "model/core/text_draft.h"
#include "model/ozdf/ozdf_document_model.h"

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTreeView;

namespace strata::model {
class OzdfEditor;
}  // namespace strata::model

namespace strata::gui {

class DocumentView;
class OzdfReloadBanner;

class OzdfDocumentEditor : public QWidget {
    Q_OBJECT
public:
    OzdfDocumentEditor(DocumentView& view, model::OzdfEditor& editor, QWidget* parent = nullptr);

    // Shows document `index`. False (the editor stays where it is) when text typed for the
    // shown paragraph cannot be applied first.
    bool showDocument(int index);
    int documentIndex() const;

    QTreeView* tree() const { return tree_; }
    QLabel* titleLabel() const { return title_; }
    QPlainTextEdit* textEdit() const { return text_; }
    QPlainTextEdit* preview() const { return preview_; }
    model::OzdfDocumentModel* documentModel() const { return model_; }
    // Shown by the watcher when a single document (no Corpus tab) changes on disk.
    OzdfReloadBanner* reloadBanner() const { return banner_; }
    // Applies the text editor's content to the selected paragraph or comment.
    bool applyText();
    // Puts the typed text back in the text editor as it was loaded.
    void revertText();
    // What the text editor holds that is not applied yet.
    model::TextDraft* draft() const { return draft_; }
    QLabel* errorLabel() const { return error_; }
    // Applies typed text before an edit elsewhere; false (with the error shown) when it cannot.
    bool settleDraft();
    // The shown document, element, scroll positions and typed text, for a view of the same
    // files opened again (DocumentView::saveState).
    QVariant saveState() const;
    void restoreState(const QVariant& state);
    // Selects the element, item or paragraph at `address` of the shown document.
    void select(const model::OzdfAddress& address);

private:
    bool edit(const QString& what, const std::function<void(ozdf::Document&)>& change);
    model::OzdfAddress current() const;
    void onCurrentChanged();
    void onModelReset();
    void followCurrent();
    void loadText();
    // The shown document's file name above the tree.
    void showTitle();
    // Selects the first paragraph or comment, so a document opens ready to edit.
    void selectFirstText();
    void queueFollow();
    // Runs a structural edit once typed text is applied.
    std::function<void()> settled(std::function<void()> edit);
    void updatePreview();
    void addElement(ozdf::ElementKind kind);
    void addItem();
    void addParagraph();
    void rename();
    void remove();
    void move(int delta);
    void toggleExternal();

    DocumentView& view_;
    model::OzdfEditor& editor_;
    model::OzdfDocumentModel* model_ = nullptr;
    QLabel* title_ = nullptr;
    QTreeView* tree_ = nullptr;
    QPlainTextEdit* text_ = nullptr;
    QPlainTextEdit* preview_ = nullptr;
    QPushButton* apply_ = nullptr;
    QPushButton* revert_ = nullptr;
    QLabel* error_ = nullptr;
    OzdfReloadBanner* banner_ = nullptr;
    QPointer<model::TextDraft> draft_;
    // What the text editor was loaded from.
    model::OzdfAddress shown_;
    int shownDocument_ = -1;
    bool settling_ = false;
    bool reselecting_ = false;
    bool followQueued_ = false;
};

}  // namespace strata::gui
