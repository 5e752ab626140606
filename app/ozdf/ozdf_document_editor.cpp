#include "ozdf_document_editor.h"

#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTreeView>
#include <QVBoxLayout>

#include "app/gui/document_view.h"
#include "app/ozdf/ozdf_reload_banner.h"
#include "formats/ozdf/ozdf_edit.h"
#include "model/core/document.h"
#include "model/ozdf/ozdf_commands.h"
#include "model/ozdf/ozdf_document_model.h"
#include "model/ozdf/ozdf_editor.h"

namespace strata::gui {

namespace {

using Kind = model::OzdfAddress::Kind;

QPushButton* button(QWidget* parent, QGridLayout* grid, int row, int column, const QString& text) {
    auto* b = new QPushButton(text, parent);
    grid->addWidget(b, row, column);
    return b;
}

}  // namespace

OzdfDocumentEditor::OzdfDocumentEditor(DocumentView& view, model::OzdfEditor& editor,
                                       QWidget* parent)
    : QWidget(parent), view_(view), editor_(editor) {
    model_ = new model::OzdfDocumentModel(editor.session(), this);
    title_ = new QLabel(tr("Pick a document in the Corpus tab."), this);
    tree_ = new QTreeView(this);
    tree_->setModel(model_);
    tree_->header()->hide();
    connect(tree_->selectionModel(), &QItemSelectionModel::currentChanged, this,
            &OzdfDocumentEditor::onCurrentChanged);
    connect(model_, &QAbstractItemModel::modelReset, this, [this] { onCurrentChanged(); });

    auto* grid = new QGridLayout;
    connect(button(this, grid, 0, 0, tr("Add Block…")), &QPushButton::clicked, this,
            [this] { addElement(ozdf::ElementKind::Block); });
    connect(button(this, grid, 0, 1, tr("Add List…")), &QPushButton::clicked, this,
            [this] { addElement(ozdf::ElementKind::List); });
    connect(button(this, grid, 0, 2, tr("Add Comment")), &QPushButton::clicked, this,
            [this] { addElement(ozdf::ElementKind::Comment); });
    connect(button(this, grid, 0, 3, tr("Add Item…")), &QPushButton::clicked, this,
            &OzdfDocumentEditor::addItem);
    connect(button(this, grid, 0, 4, tr("Add Paragraph")), &QPushButton::clicked, this,
            &OzdfDocumentEditor::addParagraph);
    connect(button(this, grid, 1, 0, tr("Rename…")), &QPushButton::clicked, this,
            &OzdfDocumentEditor::rename);
    connect(button(this, grid, 1, 1, tr("Remove")), &QPushButton::clicked, this,
            &OzdfDocumentEditor::remove);
    connect(button(this, grid, 1, 2, tr("Move Up")), &QPushButton::clicked, this,
            [this] { move(-1); });
    connect(button(this, grid, 1, 3, tr("Move Down")), &QPushButton::clicked, this,
            [this] { move(1); });
    connect(button(this, grid, 1, 4, tr("List ↔ External List")), &QPushButton::clicked, this,
            &OzdfDocumentEditor::toggleExternal);

    text_ = new QPlainTextEdit(this);
    text_->setPlaceholderText(tr("Select a paragraph or comment to edit its text."));
    preview_ = new QPlainTextEdit(this);
    preview_->setReadOnly(true);
    preview_->setPlaceholderText(tr("What the reader will see"));
    apply_ = new QPushButton(tr("Apply Text"), this);
    connect(text_, &QPlainTextEdit::textChanged, this, &OzdfDocumentEditor::updatePreview);
    connect(apply_, &QPushButton::clicked, this, [this] { applyText(); });

    auto* right = new QWidget(this);
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->addWidget(new QLabel(tr("Text"), right));
    rightLayout->addWidget(text_, 2);
    rightLayout->addWidget(new QLabel(tr("Normalised (as the reader will read it)"), right));
    rightLayout->addWidget(preview_, 1);
    rightLayout->addWidget(apply_);

    auto* left = new QWidget(this);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->addWidget(tree_, 1);
    leftLayout->addLayout(grid);

    auto* splitter = new QSplitter(this);
    splitter->addWidget(left);
    splitter->addWidget(right);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);
    banner_ = new OzdfReloadBanner(this);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(banner_);
    layout->addWidget(title_);
    layout->addWidget(splitter, 1);
    onCurrentChanged();
}

void OzdfDocumentEditor::showDocument(int index) {
    model_->setDocument(index);
    title_->setText(index >= 0 ? QString::fromStdString(editor_.session().document(index).filename)
                               : tr("Pick a document in the Corpus tab."));
    tree_->expandToDepth(0);
}

int OzdfDocumentEditor::documentIndex() const {
    return model_->documentIndex();
}

model::OzdfAddress OzdfDocumentEditor::current() const {
    return model_->addressOf(tree_->currentIndex());
}

void OzdfDocumentEditor::select(const model::OzdfAddress& address) {
    const QModelIndex index = model_->indexOf(address);
    if (index.isValid()) {
        tree_->setCurrentIndex(index);
        tree_->scrollTo(index);
    }
}

bool OzdfDocumentEditor::edit(const QString& what,
                              const std::function<void(ozdf::Document&)>& change) {
    QString error;
    const bool ok = model::applyOzdfEdit(*view_.document()->undoStack(), editor_.session(),
                                         documentIndex(), what, change, &error);
    if (!ok) {
        QMessageBox::warning(this, tr("OZDF"), error);
    }
    return ok;
}

void OzdfDocumentEditor::onCurrentChanged() {
    const model::OzdfAddress a = current();
    QString text;
    bool editable = false;
    if (documentIndex() >= 0 && a.kind != Kind::None) {
        const ozdf::Element& e = editor_.session().document(documentIndex()).elements[a.element];
        if (a.kind == Kind::Paragraph) {
            const auto& list = a.item ? e.items[*a.item].paragraphs : e.paragraphs;
            text = QString::fromStdString(list[a.paragraph].text);
            editable = true;
        } else if (a.kind == Kind::Element && e.kind == ozdf::ElementKind::Comment) {
            text = QString::fromStdString(e.text);
            editable = true;
        }
    }
    const QSignalBlocker block(text_);
    text_->setPlainText(text);
    text_->setEnabled(editable);
    apply_->setEnabled(editable);
    updatePreview();
}

void OzdfDocumentEditor::updatePreview() {
    const model::OzdfAddress a = current();
    if (a.kind != Kind::Paragraph) {
        preview_->setPlainText(a.kind == Kind::Element ? text_->toPlainText() : QString());
        return;
    }
    try {
        const auto texts = ozdf::normaliseText(text_->toPlainText().toStdString());
        QStringList out;
        for (const std::string& t : texts) {
            out << QString::fromStdString(t);
        }
        preview_->setPlainText(texts.empty() ? tr("(no text: the paragraph will be removed)")
                                             : out.join(QStringLiteral("\n\n")));
    } catch (const std::exception& e) {
        preview_->setPlainText(tr("Cannot be written: %1").arg(QString::fromUtf8(e.what())));
    }
}

bool OzdfDocumentEditor::applyText() {
    const model::OzdfAddress a = current();
    const std::string text = text_->toPlainText().toStdString();
    if (a.kind == Kind::Paragraph) {
        return edit(tr("Edit paragraph"), [&](ozdf::Document& d) {
            ozdf::setParagraphText(d, {a.element, a.item}, a.paragraph, text);
        });
    }
    if (a.kind == Kind::Element) {
        return edit(tr("Edit comment"),
                    [&](ozdf::Document& d) { ozdf::setCommentText(d, a.element, text); });
    }
    return false;
}

void OzdfDocumentEditor::addElement(ozdf::ElementKind kind) {
    if (documentIndex() < 0) {
        return;
    }
    QString name = QStringLiteral("note");
    if (kind != ozdf::ElementKind::Comment) {
        bool ok = false;
        name = QInputDialog::getText(this, tr("Add"), tr("Name:"), QLineEdit::Normal, {}, &ok);
        if (!ok) {
            return;
        }
    }
    const model::OzdfAddress a = current();
    const std::size_t at = a.kind == Kind::None
                               ? editor_.session().document(documentIndex()).elements.size()
                               : a.element + 1;
    if (edit(tr("Add %1").arg(name),
             [&](ozdf::Document& d) { ozdf::insertElement(d, at, kind, name.toStdString()); })) {
        select({Kind::Element, at, std::nullopt, 0});
    }
}

void OzdfDocumentEditor::addItem() {
    const model::OzdfAddress a = current();
    if (a.kind == Kind::None) {
        return;
    }
    bool ok = false;
    const QString name =
        QInputDialog::getText(this, tr("Add Item"), tr("Item name (empty for an unnamed item):"),
                              QLineEdit::Normal, {}, &ok);
    if (!ok) {
        return;
    }
    const ozdf::Element& e = editor_.session().document(documentIndex()).elements[a.element];
    const std::size_t at = a.item ? *a.item + 1 : e.items.size();
    std::optional<std::string> itemName;
    if (!name.trimmed().isEmpty()) {
        itemName = name.toStdString();
    }
    if (edit(tr("Add item"), [&](ozdf::Document& d) {
            ozdf::insertItem(d, a.element, at, itemName);
            ozdf::insertParagraph(d, {a.element, at}, 0, "New paragraph.");
        })) {
        select({Kind::Item, a.element, at, 0});
    }
}

void OzdfDocumentEditor::addParagraph() {
    const model::OzdfAddress a = current();
    if (a.kind == Kind::None) {
        return;
    }
    const ozdf::Element& e = editor_.session().document(documentIndex()).elements[a.element];
    const std::vector<ozdf::Paragraph>& list = a.item ? e.items[*a.item].paragraphs : e.paragraphs;
    const std::size_t at = a.kind == Kind::Paragraph ? a.paragraph + 1 : list.size();
    if (edit(tr("Add paragraph"), [&](ozdf::Document& d) {
            ozdf::insertParagraph(d, {a.element, a.item}, at, "New paragraph.");
        })) {
        select({Kind::Paragraph, a.element, a.item, at});
    }
}

void OzdfDocumentEditor::rename() {
    const model::OzdfAddress a = current();
    if (a.kind == Kind::Element) {
        const ozdf::Element& e = editor_.session().document(documentIndex()).elements[a.element];
        bool ok = false;
        const QString name =
            QInputDialog::getText(this, tr("Rename"), tr("Name:"), QLineEdit::Normal,
                                  QString::fromStdString(e.name), &ok);
        if (ok) {
            edit(tr("Rename %1").arg(name),
                 [&](ozdf::Document& d) { ozdf::renameElement(d, a.element, name.toStdString()); });
        }
    } else if (a.kind == Kind::Item) {
        const ozdf::Item& item =
            editor_.session().document(documentIndex()).elements[a.element].items[*a.item];
        bool ok = false;
        const QString name = QInputDialog::getText(
            this, tr("Rename Item"), tr("Item name (empty for an unnamed item):"),
            QLineEdit::Normal, QString::fromStdString(item.name.value_or("")), &ok);
        if (ok) {
            std::optional<std::string> itemName;
            if (!name.trimmed().isEmpty()) {
                itemName = name.toStdString();
            }
            edit(tr("Rename item"),
                 [&](ozdf::Document& d) { ozdf::renameItem(d, a.element, *a.item, itemName); });
        }
    }
}

void OzdfDocumentEditor::remove() {
    const model::OzdfAddress a = current();
    switch (a.kind) {
        case Kind::Element:
            edit(tr("Remove block"), [&](ozdf::Document& d) { ozdf::removeElement(d, a.element); });
            break;
        case Kind::Item:
            edit(tr("Remove item"),
                 [&](ozdf::Document& d) { ozdf::removeItem(d, a.element, *a.item); });
            break;
        case Kind::Paragraph:
            edit(tr("Remove paragraph"), [&](ozdf::Document& d) {
                ozdf::removeParagraph(d, {a.element, a.item}, a.paragraph);
            });
            break;
        case Kind::None:
            break;
    }
}

void OzdfDocumentEditor::move(int delta) {
    model::OzdfAddress a = current();
    const auto shifted = [delta](std::size_t i) { return delta < 0 ? i - 1 : i + 1; };
    bool ok = false;
    switch (a.kind) {
        case Kind::Element:
            if (a.element == 0 && delta < 0) {
                return;
            }
            ok = edit(tr("Move block"), [&](ozdf::Document& d) {
                ozdf::moveElement(d, a.element, shifted(a.element));
            });
            a.element = shifted(a.element);
            break;
        case Kind::Item:
            if (*a.item == 0 && delta < 0) {
                return;
            }
            ok = edit(tr("Move item"), [&](ozdf::Document& d) {
                ozdf::moveItem(d, a.element, *a.item, shifted(*a.item));
            });
            a.item = shifted(*a.item);
            break;
        case Kind::Paragraph:
            if (a.paragraph == 0 && delta < 0) {
                return;
            }
            ok = edit(tr("Move paragraph"), [&](ozdf::Document& d) {
                ozdf::moveParagraph(d, {a.element, a.item}, a.paragraph, shifted(a.paragraph));
            });
            a.paragraph = shifted(a.paragraph);
            break;
        case Kind::None:
            return;
    }
    if (ok) {
        select(a);
    }
}

void OzdfDocumentEditor::toggleExternal() {
    const model::OzdfAddress a = current();
    if (a.kind == Kind::None) {
        return;
    }
    edit(tr("Toggle external list"),
         [&](ozdf::Document& d) { ozdf::toggleExternalList(d, a.element); });
    select({Kind::Element, a.element, std::nullopt, 0});
}

}  // namespace strata::gui
