// The document editor tab: the blocks, items and paragraphs of one document as a tree, with
// buttons for every structural edit, and a text editor for the selected paragraph or comment
// with a live preview of what the reader will make of the text.
#pragma once

#include <QWidget>
#include <functional>

#include "formats/ozdf/ozdf_document.h"

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTreeView;

namespace strata::model {
class OzdfDocumentModel;
class OzdfEditor;
struct OzdfAddress;
}  // namespace strata::model

namespace strata::gui {

class DocumentView;
class OzdfReloadBanner;

class OzdfDocumentEditor : public QWidget {
    Q_OBJECT
public:
    OzdfDocumentEditor(DocumentView& view, model::OzdfEditor& editor, QWidget* parent = nullptr);

    void showDocument(int index);
    int documentIndex() const;

    QTreeView* tree() const { return tree_; }
    QPlainTextEdit* textEdit() const { return text_; }
    QPlainTextEdit* preview() const { return preview_; }
    model::OzdfDocumentModel* documentModel() const { return model_; }
    // Shown by the watcher when a single document (no Corpus tab) changes on disk.
    OzdfReloadBanner* reloadBanner() const { return banner_; }
    // Applies the text editor's content to the selected paragraph or comment.
    bool applyText();

private:
    bool edit(const QString& what, const std::function<void(ozdf::Document&)>& change);
    model::OzdfAddress current() const;
    void select(const model::OzdfAddress& address);
    void onCurrentChanged();
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
    OzdfReloadBanner* banner_ = nullptr;
};

}  // namespace strata::gui
