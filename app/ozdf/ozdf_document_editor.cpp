#include "ozdf_document_editor.h"

#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSplitter>
#include <QTabWidget>
#include <QTimer>
#include <QTreeView>
#include <QVBoxLayout>

#include "app/ozdf/ozdf_reload_banner.h"
#include "app/widgets/document_view.h"
#include "formats/ozdf/ozdf_edit.h"
#include "model/core/document.h"
#include "model/core/text_draft.h"
#include "model/ozdf/ozdf_commands.h"
#include "model/ozdf/ozdf_document_model.h"
#include "model/ozdf/ozdf_editor.h"
#include "model/ozdf/ozdf_text_draft.h"

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
    connect(model_, &QAbstractItemModel::modelReset, this, &OzdfDocumentEditor::onModelReset);

    auto* grid = new QGridLayout;
    connect(button(this, grid, 0, 0, tr("Add Block…")), &QPushButton::clicked, this,
            settled([this] { addElement(ozdf::ElementKind::Block); }));
    connect(button(this, grid, 0, 1, tr("Add List…")), &QPushButton::clicked, this,
            settled([this] { addElement(ozdf::ElementKind::List); }));
    connect(button(this, grid, 0, 2, tr("Add Comment")), &QPushButton::clicked, this,
            settled([this] { addElement(ozdf::ElementKind::Comment); }));
    connect(button(this, grid, 0, 3, tr("Add Item…")), &QPushButton::clicked, this,
            settled([this] { addItem(); }));
    connect(button(this, grid, 0, 4, tr("Add Paragraph")), &QPushButton::clicked, this,
            settled([this] { addParagraph(); }));
    connect(button(this, grid, 1, 0, tr("Rename…")), &QPushButton::clicked, this,
            settled([this] { rename(); }));
    connect(button(this, grid, 1, 1, tr("Remove")), &QPushButton::clicked, this,
            settled([this] { remove(); }));
    connect(button(this, grid, 1, 2, tr("Move Up")), &QPushButton::clicked, this,
            settled([this] { move(-1); }));
    connect(button(this, grid, 1, 3, tr("Move Down")), &QPushButton::clicked, this,
            settled([this] { move(1); }));
    connect(button(this, grid, 1, 4, tr("List ↔ External List")), &QPushButton::clicked, this,
            settled([this] { toggleExternal(); }));

    text_ = new QPlainTextEdit(this);
    text_->setPlaceholderText(tr("Select a paragraph or comment to edit its text."));
    preview_ = new QPlainTextEdit(this);
    preview_->setReadOnly(true);
    preview_->setPlaceholderText(tr("What the reader will see"));
    error_ = new QLabel(this);
    error_->setWordWrap(true);
    error_->setStyleSheet(QStringLiteral("color: #c62828"));
    apply_ = new QPushButton(tr("Apply Text"), this);
    apply_->setToolTip(
        tr("Replace the paragraph or comment with this text (undoable). Moving "
           "to another paragraph or saving applies it too."));
    revert_ = new QPushButton(tr("Revert"), this);
    revert_->setToolTip(tr("Drop what you typed: back to the text as it is"));
    draft_ = new model::TextDraft(*view.document());
    connect(text_, &QPlainTextEdit::textChanged, this, [this] {
        if (draft_) {
            draft_->setText(text_->toPlainText());
        }
        updatePreview();
    });
    connect(draft_, &model::TextDraft::textReset, this, [this](const QString& text) {
        const QSignalBlocker block(text_);
        text_->setPlainText(text);
        updatePreview();
    });
    connect(draft_, &model::TextDraft::showRequested, this, [this] {
        view_.centreTabs()->setCurrentWidget(this);
        text_->setFocus();
    });
    connect(apply_, &QPushButton::clicked, this, [this] { applyText(); });
    connect(revert_, &QPushButton::clicked, this, &OzdfDocumentEditor::revertText);

    auto* right = new QWidget(this);
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->addWidget(new QLabel(tr("Text"), right));
    rightLayout->addWidget(text_, 2);
    rightLayout->addWidget(new QLabel(tr("Normalised (as the reader will read it)"), right));
    rightLayout->addWidget(preview_, 1);
    rightLayout->addWidget(error_);
    auto* applyRow = new QHBoxLayout;
    applyRow->addStretch(1);
    applyRow->addWidget(revert_);
    applyRow->addWidget(apply_);
    rightLayout->addLayout(applyRow);

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
    view_.addStateKeeper(
        QStringLiteral("ozdfEditor"), this, [this] { return saveState(); },
        [this](const QVariant& state) { restoreState(state); });
    loadText();
}

bool OzdfDocumentEditor::showDocument(int index) {
    if (index == documentIndex()) {
        return true;
    }
    if (!settleDraft()) {
        return false;
    }
    model_->setDocument(index);
    showTitle();
    tree_->expandToDepth(0);
    selectFirstText();
    return true;
}

void OzdfDocumentEditor::showTitle() {
    const int index = documentIndex();
    title_->setText(index >= 0 ? QString::fromStdString(editor_.session().document(index).filename)
                               : tr("Pick a document in the Corpus tab."));
}

void OzdfDocumentEditor::selectFirstText() {
    if (documentIndex() < 0) {
        return;
    }
    const auto& elements = editor_.session().document(documentIndex()).elements;
    for (std::size_t i = 0; i < elements.size(); ++i) {
        const ozdf::Element& e = elements[i];
        if (e.kind == ozdf::ElementKind::Comment) {
            select({Kind::Element, i, std::nullopt, 0});
            return;
        }
        if (!e.paragraphs.empty()) {
            select({Kind::Paragraph, i, std::nullopt, 0});
            return;
        }
        for (std::size_t item = 0; item < e.items.size(); ++item) {
            if (!e.items[item].paragraphs.empty()) {
                select({Kind::Paragraph, i, item, 0});
                return;
            }
        }
    }
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

std::function<void()> OzdfDocumentEditor::settled(std::function<void()> edit) {
    return [this, edit = std::move(edit)] {
        const model::OzdfAddress a = current();
        if (!settleDraft()) {
            return;
        }
        if (!model::sameOzdfAddress(current(), a)) {
            select(a);  // applying rebuilt the tree
        }
        edit();
    };
}

bool OzdfDocumentEditor::settleDraft() {
    if (!draft_ || !draft_->isPending()) {
        return true;
    }
    settling_ = true;
    const QString error = draft_->apply();
    settling_ = false;
    if (error.isEmpty()) {
        error_->clear();
        return true;
    }
    error_->setText(tr("Not applied: %1. Fix the text or press Revert.").arg(error));
    emit view_.message(error_->text());
    return false;
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
    if (settling_ || reselecting_) {
        return;
    }
    if (draft_ && draft_->isPending()) {
        queueFollow();  // decide once the click (or the undo) that moved the tree is over
        return;
    }
    loadText();
}

void OzdfDocumentEditor::onModelReset() {
    showTitle();  // renamed, or removed
    if (settling_) {
        return;  // whoever settles selects again
    }
    if (draft_ && draft_->isPending()) {
        // The document changed under the typed text (an undo, a replace elsewhere, the window
        // applying it): keep the text and its paragraph selected.
        reselecting_ = true;
        tree_->setCurrentIndex(model_->indexOf(shown_));
        reselecting_ = false;
        queueFollow();
        return;
    }
    loadText();
}

void OzdfDocumentEditor::queueFollow() {
    if (followQueued_) {
        return;
    }
    followQueued_ = true;
    QTimer::singleShot(0, this, [this] {
        followQueued_ = false;
        followCurrent();
    });
}

void OzdfDocumentEditor::followCurrent() {
    if (!draft_ || !draft_->isPending()) {
        loadText();
        return;
    }
    const model::OzdfAddress wanted = current();
    if (documentIndex() == shownDocument_ && model::sameOzdfAddress(wanted, shown_)) {
        return;
    }
    if (!settleDraft()) {
        // Back to the paragraph the text belongs to until it is fixed or reverted.
        reselecting_ = true;
        tree_->setCurrentIndex(model_->indexOf(shown_));
        reselecting_ = false;
        return;
    }
    select(wanted);
    loadText();
}

void OzdfDocumentEditor::loadText() {
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
    shown_ = a;
    shownDocument_ = documentIndex();
    {
        const QSignalBlocker block(text_);
        text_->setPlainText(text);
    }
    text_->setEnabled(editable);
    apply_->setEnabled(editable);
    revert_->setEnabled(editable);
    error_->clear();
    if (draft_ && editable) {
        const std::string& file = editor_.session().document(documentIndex()).filename;
        draft_->load(
            model::ozdfDraftTarget(editor_.session(), documentIndex(), a),
            model::ozdfDraftKey(file, a), text_->toPlainText(),
            model::ozdfTextApplier(*view_.document()->undoStack(), editor_.session(), file, a));
    } else if (draft_) {
        draft_->clear();
    }
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
    if (!draft_ || !draft_->isPending()) {
        return false;
    }
    const model::OzdfAddress a = shown_;
    if (!settleDraft()) {
        return false;
    }
    select(a);  // applying rebuilt the tree
    loadText();
    return true;
}

void OzdfDocumentEditor::revertText() {
    if (draft_) {
        draft_->discard();
    }
    error_->clear();
}

QVariant OzdfDocumentEditor::saveState() const {
    QVariantMap state;
    if (documentIndex() >= 0) {
        state.insert(QStringLiteral("document"),
                     QString::fromStdString(editor_.session().document(documentIndex()).filename));
    }
    const model::OzdfAddress a = current();
    state.insert(QStringLiteral("kind"), static_cast<int>(a.kind));
    state.insert(QStringLiteral("element"), static_cast<qulonglong>(a.element));
    state.insert(QStringLiteral("item"), a.item ? static_cast<qlonglong>(*a.item) : -1);
    state.insert(QStringLiteral("paragraph"), static_cast<qulonglong>(a.paragraph));
    state.insert(QStringLiteral("treeScroll"), tree_->verticalScrollBar()->value());
    state.insert(QStringLiteral("textScroll"), text_->verticalScrollBar()->value());
    state.insert(QStringLiteral("textCursor"), text_->textCursor().position());
    if (draft_ && draft_->isPending()) {
        state.insert(QStringLiteral("draftKey"), draft_->key());
        state.insert(QStringLiteral("draftText"), draft_->text());
    }
    return state;
}

void OzdfDocumentEditor::restoreState(const QVariant& value) {
    const QVariantMap state = value.toMap();
    const int index =
        editor_.session().indexOf(state.value(QStringLiteral("document")).toString().toStdString());
    if (index < 0 || !showDocument(index)) {
        return;
    }
    model::OzdfAddress a;
    a.kind = static_cast<Kind>(state.value(QStringLiteral("kind")).toInt());
    a.element = state.value(QStringLiteral("element")).toULongLong();
    const qlonglong item = state.value(QStringLiteral("item")).toLongLong();
    if (item >= 0) {
        a.item = static_cast<std::size_t>(item);
    }
    a.paragraph = state.value(QStringLiteral("paragraph")).toULongLong();
    if (a.kind != Kind::None) {
        select(a);
    }
    const QString key = state.value(QStringLiteral("draftKey")).toString();
    if (draft_ && !key.isEmpty() && key == draft_->key()) {
        draft_->restore(state.value(QStringLiteral("draftText")).toString());
    }
    QTextCursor cursor = text_->textCursor();
    cursor.setPosition(std::min<int>(state.value(QStringLiteral("textCursor")).toInt(),
                                     text_->document()->characterCount() - 1));
    text_->setTextCursor(cursor);
    const int treeScroll = state.value(QStringLiteral("treeScroll")).toInt();
    const int textScroll = state.value(QStringLiteral("textScroll")).toInt();
    QTimer::singleShot(0, this, [this, treeScroll, textScroll] {
        tree_->verticalScrollBar()->setValue(treeScroll);
        text_->verticalScrollBar()->setValue(textScroll);
    });
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
