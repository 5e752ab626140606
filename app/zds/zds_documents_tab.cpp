#include "zds_documents_tab.h"

#include <QAction>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScopedValueRollback>
#include <QScrollBar>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

#include "app/widgets/document_view.h"
#include "model/core/counted_text.h"
#include "model/core/document.h"
#include "model/core/job.h"
#include "model/core/job_runner.h"
#include "model/core/text_draft.h"
#include "model/zds/zds_document_draft.h"
#include "model/zds/zds_edit_commands.h"
#include "model/zds/zds_editor.h"
#include "model/zds/zds_search_results.h"
#include "model/zds/zds_table_model.h"
#include "zds_dataset_actions.h"
#include "zds_document_editor.h"

namespace strata::gui {

namespace {

constexpr int kRowHeight = 22;

}  // namespace

void setUpDocumentTable(QTableView* table) {
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    table->verticalHeader()->setDefaultSectionSize(kRowHeight);
    table->horizontalHeader()->setStretchLastSection(true);
    table->setWordWrap(false);
}

ZdsDocumentsTab::ZdsDocumentsTab(DocumentView& view, model::ZdsEditor* editor, QWidget* parent)
    : QWidget(parent), view_(view), editor_(editor) {
    toolBar_ = new QToolBar(this);
    collections_ = new QComboBox(this);
    status_ = new QLabel(this);
    liveNotes_ = new QLabel(this);
    liveNotes_->setObjectName(QStringLiteral("zdsLiveNotes"));
    liveNotes_->setWordWrap(true);
    liveNotes_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    liveNotes_->setStyleSheet(QStringLiteral("QLabel { background: #fff4ce; padding: 3px; }"));
    liveNotes_->hide();
    table_ = new QTableView(this);
    documentEditor_ = new ZdsDocumentEditor(this);
    results_ = new model::ZdsSearchResults(this);
    setUpDocumentTable(table_);
    table_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    table_->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    table_->setSortingEnabled(true);

    for (int i = 0; i < editor_->collectionCount(); ++i) {
        collections_->addItem(QString::fromStdString(editor_->table(i)->collection().name()));
    }
    buildToolBar();

    auto* searchPane = new QWidget(this);
    buildSearchPane(searchPane);
    // The count under the table it counts, not in the toolbar, whose actions need the width.
    auto* tableBox = new QWidget(this);
    auto* tableColumn = new QVBoxLayout(tableBox);
    tableColumn->setContentsMargins(0, 0, 0, 0);
    tableColumn->setSpacing(2);
    tableColumn->addWidget(table_, 1);
    tableColumn->addWidget(status_);
    auto* left = new QSplitter(Qt::Vertical, this);
    left->addWidget(tableBox);
    left->addWidget(searchPane);
    left->setStretchFactor(0, 3);
    left->setStretchFactor(1, 1);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(left);
    split->addWidget(documentEditor_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(toolBar_);
    layout->addWidget(liveNotes_);
    layout->addWidget(split, 1);

    draft_ = new model::TextDraft(*view.document());
    documentEditor_->setDraft(draft_);
    connect(draft_, &model::TextDraft::showRequested, this, [this] {
        view_.centreTabs()->setCurrentWidget(this);
        documentEditor_->textEdit()->setFocus();
    });
    view_.addStateKeeper(
        QStringLiteral("zds"), this, [this] { return saveState(); },
        [this](const QVariant& state) { restoreState(state); });

    connect(collections_, &QComboBox::currentIndexChanged, this, [this] { connectModel(); });
    connect(documentEditor_, &ZdsDocumentEditor::applyRequested, this,
            [this](const QString& text) { report(applyEditorText(text)); });
    for (int i = 0; i < editor_->collectionCount(); ++i) {
        connect(editor_->table(i), &model::ZdsTableModel::loadingProgress, this, [this, i] {
            showStatus();
            if (i == currentCollection()) {
                showFirstDocument();
                if (shownStored_ >= 0) {
                    documentEditor_->setTitle(editorTitle());  // the count grew
                }
            }
        });
        // An edit, its undo or redo moved stored positions or changed the shown document.
        connect(editor_->table(i), &model::ZdsTableModel::rowsEdited, this, [this, i] {
            if (i == currentCollection()) {
                followEdit();
            }
        });
    }
    connect(&view_, &DocumentView::currentNodeChanged, this,
            [this](const strata::Node* node) { followNode(node); });
    connectModel();
}

void ZdsDocumentsTab::buildToolBar() {
    // Every action stays in view in a 1366-pixel window: the less used ones are in two menus
    // (Document ▾, Columns ▾), and the document count sits under the table.
    collections_->setToolTip(tr("Collection"));
    toolBar_->addWidget(collections_);
    toolBar_->addSeparator();
    toolBar_->addAction(tr("Add…"), this, [this] {
        model::ZdsTableModel* m = currentModel();
        if (m == nullptr) {
            return;
        }
        const QString seed =
            QStringLiteral("{\"_id\":\"%1\"}").arg(QString::fromStdString(m->freeId("doc")));
        bool ok = false;
        const QString json = QInputDialog::getMultiLineText(
            this, tr("Add document"), tr("JSON of the new document:"), seed, &ok);
        if (ok) {
            report(addDocument(json));
        }
    });
    toolBar_->addAction(tr("Duplicate"), this, [this] { report(duplicateSelected()); });
    toolBar_->addAction(tr("Delete"), this, [this] { report(deleteSelected()); });
    QMenu* document = popupButton(tr("Document"));
    document->addAction(tr("Rename id…"), this, [this] {
        model::ZdsTableModel* m = currentModel();
        if (m == nullptr || currentStored() < 0) {
            return;
        }
        bool ok = false;
        const QString id =
            QInputDialog::getText(this, tr("Rename id"), tr("New id:"), QLineEdit::Normal,
                                  QString::fromStdString(m->id(currentStored())), &ok);
        if (ok) {
            report(renameCurrent(id));
        }
    });
    document->addAction(tr("Set field…"), this, [this] {
        bool ok = false;
        const QString pointer = QInputDialog::getText(
            this, tr("Set field"),
            tr("Field (a top-level key or a JSON pointer such as /meta/lang), set on the %1:")
                .arg(selectedStored().size() == 1
                         ? tr("selected document")
                         : tr("%1 selected documents").arg(selectedStored().size())),
            QLineEdit::Normal, {}, &ok);
        if (!ok) {
            return;
        }
        const QString value = QInputDialog::getText(
            this, tr("Set field"), tr("New value as JSON (\"text\", 3, true, null, {...}):"),
            QLineEdit::Normal, {}, &ok);
        if (ok) {
            report(setFieldOnSelection(pointer, value));
        }
    });
    QMenu* columns = popupButton(tr("Columns"));
    columns->addAction(tr("Add column…"), this, [this] {
        bool ok = false;
        const QString pointer = QInputDialog::getText(this, tr("Add column"),
                                                      tr("Top-level key or JSON pointer (/a/b):"),
                                                      QLineEdit::Normal, {}, &ok);
        if (ok && currentModel() != nullptr) {
            currentModel()->addColumn(pointer);
        }
    });
    columns->addAction(tr("Stored order"), this, [this] {
        if (currentModel() != nullptr) {
            currentModel()->clearSort();
            table_->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
        }
    });
    toolBar_->addSeparator();
    toolBar_->addAction(tr("Index entry"), this, [this] { showIndexEntry(); });
    addZdsActions(popupButton(tr("Dataset")), view_);
}

QMenu* ZdsDocumentsTab::popupButton(const QString& text) {
    auto* button = new QToolButton(this);
    button->setText(text);
    button->setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(button);
    button->setMenu(menu);
    toolBar_->addWidget(button);
    return menu;
}

int ZdsDocumentsTab::currentCollection() const {
    return collections_->currentIndex();
}

void ZdsDocumentsTab::setCurrentCollection(int collection) {
    collections_->setCurrentIndex(collection);
}

model::ZdsTableModel* ZdsDocumentsTab::currentModel() const {
    return editor_->table(currentCollection());
}

void ZdsDocumentsTab::connectModel() {
    if (modelCollection_ >= 0 && modelCollection_ != currentCollection() &&
        !settleDraft().isEmpty()) {
        // The typed text does not apply: stay on its collection until it is fixed or reverted.
        const QSignalBlocker block(collections_);
        collections_->setCurrentIndex(modelCollection_);
        return;
    }
    modelCollection_ = currentCollection();
    results_->clear();
    shownStored_ = -1;
    documentEditor_->clearDocument();
    if (draft_) {
        draft_->clear();
    }
    table_->setModel(currentModel());
    if (table_->selectionModel() != nullptr) {
        connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
                [this] { onCurrentRowChanged(); });
    }
    showStatus();
    showFirstDocument();
}

QString ZdsDocumentsTab::editorTitle() const {
    const model::ZdsTableModel* m = currentModel();
    if (m == nullptr || shownStored_ < 0 || shownStored_ >= m->documentCount()) {
        return {};
    }
    const QString count = m->loaded() ? QLocale().toString(m->documentCount())
                                      : tr("%1 so far").arg(QLocale().toString(m->documentCount()));
    return tr("Document %1 of %2: %3")
        .arg(QLocale().toString(shownStored_ + 1), count,
             QString::fromStdString(m->id(shownStored_)));
}

void ZdsDocumentsTab::showFirstDocument() {
    const model::ZdsTableModel* m = currentModel();
    if (m != nullptr && m->documentCount() > 0 && currentStored() < 0) {
        const QScopedValueRollback first(showingFirst_, true);
        showDocument(m->storedIndex(0));
    }
}

void ZdsDocumentsTab::showStatus() {
    const model::ZdsTableModel* m = currentModel();
    if (m == nullptr) {
        status_->setText(tr("no collections"));
        liveNotes_->hide();
        return;
    }
    // What the live set says about the index and the data, in its own words.
    const QStringList notes = m->liveNotes();
    liveNotes_->setText(notes.join(QStringLiteral("\n")));
    liveNotes_->setVisible(!notes.isEmpty());
    const QString source = m->liveBasis().isEmpty() ? tr("index") : m->liveBasis();
    status_->setText(
        m->loaded()
            ? tr("%1, from %2").arg(model::counted(m->documentCount(), tr("document")), source)
            : tr("listing… %1 so far").arg(model::counted(m->documentCount(), tr("document"))));
}

int ZdsDocumentsTab::currentStored() const {
    const model::ZdsTableModel* m = currentModel();
    const QModelIndex current = table_->currentIndex();
    return m == nullptr || !current.isValid() ? -1 : m->storedIndex(current.row());
}

std::vector<int> ZdsDocumentsTab::selectedStored() const {
    std::vector<int> out;
    const model::ZdsTableModel* m = currentModel();
    if (m == nullptr || table_->selectionModel() == nullptr) {
        return out;
    }
    for (const QModelIndex& index : table_->selectionModel()->selectedRows()) {
        out.push_back(m->storedIndex(index.row()));
    }
    if (out.empty() && currentStored() >= 0) {
        out.push_back(currentStored());
    }
    return out;
}

int ZdsDocumentsTab::topSelectedRow() const {
    int top = table_->currentIndex().isValid() ? table_->currentIndex().row() : 0;
    if (table_->selectionModel() == nullptr) {
        return top;
    }
    for (const QItemSelectionRange& range : table_->selectionModel()->selection()) {
        top = std::min(top, range.top());
    }
    return top;
}

void ZdsDocumentsTab::showDocument(int stored) {
    model::ZdsTableModel* m = currentModel();
    if (m == nullptr || stored < 0 || stored >= m->documentCount()) {
        return;
    }
    const int row = m->tableRow(stored);
    const QModelIndex index = m->index(row, 0);
    table_->selectionModel()->setCurrentIndex(
        index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    table_->scrollTo(index);
    onCurrentRowChanged();
}

void ZdsDocumentsTab::onCurrentRowChanged() {
    if (settling_ || reselecting_) {
        return;
    }
    if (draft_ && draft_->isPending()) {
        // Decide once whatever moved the row is over: a click, or an undo that shifted rows
        // (applying the text must not push an edit while the stack is undoing one).
        if (!followQueued_) {
            followQueued_ = true;
            QTimer::singleShot(0, this, [this] {
                followQueued_ = false;
                followCurrentRow();
            });
        }
        return;
    }
    loadEditor();
}

void ZdsDocumentsTab::followCurrentRow() {
    if (!draft_ || !draft_->isPending()) {
        loadEditor();
        return;
    }
    const model::ZdsTableModel* m = currentModel();
    const int stored = currentStored();
    if (m != nullptr && stored >= 0 && m->id(stored) == shownId_) {
        shownStored_ = stored;  // still on the document being typed into (rows moved)
        return;
    }
    if (const QString error = settleDraft(); !error.isEmpty()) {
        // The typed text does not apply: back to its document until it is fixed or reverted.
        emit view_.message(error);
        selectShownRow();
        return;
    }
    loadEditor();
}

void ZdsDocumentsTab::selectShownRow() {
    model::ZdsTableModel* m = currentModel();
    if (m == nullptr || shownStored_ < 0) {
        return;
    }
    shownStored_ = model::findZdsDocument(*m, shownId_, shownStored_);
    if (shownStored_ < 0) {
        return;  // gone (an undo removed it): the editor keeps the text until Revert
    }
    const QModelIndex index = m->index(m->tableRow(shownStored_), 0);
    reselecting_ = true;
    table_->selectionModel()->setCurrentIndex(
        index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    reselecting_ = false;
    table_->scrollTo(index);
}

void ZdsDocumentsTab::loadEditor() {
    model::ZdsTableModel* m = currentModel();
    const int stored = currentStored();
    if (m == nullptr || stored < 0) {
        shownStored_ = -1;
        documentEditor_->clearDocument();
        if (draft_) {
            draft_->clear();
        }
        return;
    }
    shownStored_ = stored;
    const std::string id = m->id(stored);
    shownId_ = id;
    shownText_ = m->text(stored);
    documentEditor_->setDocument(editorTitle(), shownText_);
    if (draft_ && documentEditor_->isEditable()) {
        draft_->load(
            tr("document %1 of collection %2")
                .arg(QString::fromStdString(id), QString::fromStdString(m->collection().name())),
            model::zdsDraftKey(*m, id), documentEditor_->text(),
            model::zdsDraftApplier(view_.document()->undoStack(), m, id, stored));
    } else if (draft_) {
        draft_->clear();
    }
    const Region line = currentLineRegion();
    if (line.valid() && !following_) {
        view_.selectRegion(
            line, nullptr,
            showingFirst_ ? model::SelectionMove::Settle : model::SelectionMove::Jump);
    }
}

void ZdsDocumentsTab::followEdit() {
    model::ZdsTableModel* m = currentModel();
    if (m == nullptr || shownStored_ < 0) {
        return;
    }
    if (settling_ || (draft_ && draft_->isPending())) {
        // The typed text stays; stored positions moved, so its document is found by id.
        const int stored = model::findZdsDocument(*m, shownId_, shownStored_);
        if (stored >= 0) {
            shownStored_ = stored;
            documentEditor_->setTitle(editorTitle());
        }
        return;
    }
    // The current row stays on its document through edits (persistent index), whose id or
    // text an undo or redo may have changed: the editor shows it as it is now.
    const int current = currentStored();
    if (current < 0) {
        return;  // its row went: the selection moved on, and the editor follows it
    }
    if (current != shownStored_ || m->id(current) != shownId_ || m->text(current) != shownText_) {
        loadEditor();
    } else {
        documentEditor_->setTitle(editorTitle());  // the count changed
    }
}

QString ZdsDocumentsTab::settleDraft() {
    if (!draft_ || !draft_->isPending()) {
        return {};
    }
    settling_ = true;
    const QString error = draft_->apply();
    settling_ = false;
    if (error.isEmpty()) {
        return {};
    }
    const QString text = tr("Not applied: %1. Fix the text or press Revert.").arg(error);
    documentEditor_->showError(text);
    return text;
}

QVariant ZdsDocumentsTab::saveState() const {
    QVariantMap state;
    state.insert(QStringLiteral("collection"), currentCollection());
    const model::ZdsTableModel* m = currentModel();
    if (m != nullptr && shownStored_ >= 0 && shownStored_ < m->documentCount()) {
        state.insert(QStringLiteral("id"), QString::fromStdString(m->id(shownStored_)));
        state.insert(QStringLiteral("stored"), shownStored_);
    }
    if (m != nullptr) {
        state.insert(QStringLiteral("columns"), m->columnPointers());
        if (m->isSorted()) {
            state.insert(QStringLiteral("sortColumn"),
                         table_->horizontalHeader()->sortIndicatorSection());
            state.insert(QStringLiteral("sortOrder"),
                         static_cast<int>(table_->horizontalHeader()->sortIndicatorOrder()));
        }
    }
    state.insert(QStringLiteral("scroll"), table_->verticalScrollBar()->value());
    state.insert(QStringLiteral("hscroll"), table_->horizontalScrollBar()->value());
    state.insert(QStringLiteral("pretty"), documentEditor_->pretty());
    state.insert(QStringLiteral("textScroll"),
                 documentEditor_->textEdit()->verticalScrollBar()->value());
    state.insert(QStringLiteral("textCursor"),
                 documentEditor_->textEdit()->textCursor().position());
    if (draft_ && draft_->isPending()) {
        state.insert(QStringLiteral("draftKey"), draft_->key());
        state.insert(QStringLiteral("draftText"), draft_->text());
    }
    return state;
}

void ZdsDocumentsTab::restoreState(const QVariant& value) {
    const QVariantMap state = value.toMap();
    if (editor_->loaded()) {
        applyState(state);
        return;
    }
    // The rows are still being listed: restore once every collection has them.
    auto done = std::make_shared<bool>(false);
    for (int i = 0; i < editor_->collectionCount(); ++i) {
        connect(editor_->table(i), &model::ZdsTableModel::loadingProgress, this,
                [this, done, state] {
                    if (!*done && editor_->loaded()) {
                        *done = true;
                        applyState(state);
                    }
                });
    }
}

void ZdsDocumentsTab::applyState(const QVariantMap& state) {
    const int collection = state.value(QStringLiteral("collection")).toInt();
    if (collection >= 0 && collection < editor_->collectionCount()) {
        setCurrentCollection(collection);
    }
    model::ZdsTableModel* m = currentModel();
    if (m == nullptr) {
        return;
    }
    const QStringList columns = state.value(QStringLiteral("columns")).toStringList();
    for (const QString& pointer : columns) {
        if (!m->columnPointers().contains(pointer)) {
            m->addColumn(pointer);
        }
    }
    if (state.contains(QStringLiteral("sortColumn"))) {
        table_->sortByColumn(state.value(QStringLiteral("sortColumn")).toInt(),
                             static_cast<Qt::SortOrder>(state.value("sortOrder").toInt()));
    }
    documentEditor_->setPretty(state.value(QStringLiteral("pretty"), true).toBool());
    const std::string id = state.value(QStringLiteral("id")).toString().toStdString();
    const int stored =
        id.empty() ? -1
                   : model::findZdsDocument(*m, id, state.value(QStringLiteral("stored")).toInt());
    if (stored >= 0) {
        showDocument(stored);
    }
    const QString draftKey = state.value(QStringLiteral("draftKey")).toString();
    if (draft_ && !draftKey.isEmpty() && draftKey == draft_->key()) {
        draft_->restore(state.value(QStringLiteral("draftText")).toString());
    }
    QPlainTextEdit* text = documentEditor_->textEdit();
    QTextCursor cursor = text->textCursor();
    cursor.setPosition(std::min<int>(state.value(QStringLiteral("textCursor")).toInt(),
                                     text->document()->characterCount() - 1));
    text->setTextCursor(cursor);
    // Scroll ranges are known once the restored view is laid out.
    const int scroll = state.value(QStringLiteral("scroll")).toInt();
    const int hscroll = state.value(QStringLiteral("hscroll")).toInt();
    const int textScroll = state.value(QStringLiteral("textScroll")).toInt();
    QTimer::singleShot(0, this, [this, scroll, hscroll, textScroll] {
        table_->verticalScrollBar()->setValue(scroll);
        table_->horizontalScrollBar()->setValue(hscroll);
        documentEditor_->textEdit()->verticalScrollBar()->setValue(textScroll);
    });
}

int ZdsDocumentsTab::followNode(const strata::Node* node) {
    if (node == nullptr || following_ ||
        (node->kind() != "zds.document" && node->kind() != "zds.zdx.entry")) {
        return -1;
    }
    for (int i = 0; i < editor_->collectionCount(); ++i) {
        const std::int64_t original = editor_->table(i)->originalForNode(*node);
        const int stored = original < 0 ? -1 : editor_->table(i)->storedOfOriginal(original);
        if (stored < 0) {
            continue;
        }
        if (i == currentCollection() && stored == currentStored()) {
            return stored;  // already shown (the row itself moved the hex view here)
        }
        following_ = true;
        if (i != currentCollection()) {
            setCurrentCollection(i);
        }
        showDocument(stored);
        following_ = false;
        return stored;
    }
    return -1;
}

Region ZdsDocumentsTab::inDocument(const Region& region) const {
    if (!region.valid()) {
        return {};
    }
    // The table reads the dataset the document opened, so its sources are the document's; a
    // file the dataset opened later (a docs/ file) is matched by name.
    for (const ByteSourcePtr& source : view_.document()->opened()->sources) {
        if (source.get() == region.source || source->name() == region.source->name()) {
            return Region{source.get(), region.offset, region.length};
        }
    }
    return {};
}

Region ZdsDocumentsTab::currentLineRegion() const {
    const model::ZdsTableModel* m = currentModel();
    const int stored = currentStored();
    return m == nullptr || stored < 0 ? Region{} : inDocument(m->documentRegion(stored));
}

Region ZdsDocumentsTab::currentEntryRegion() const {
    const model::ZdsTableModel* m = currentModel();
    const int stored = currentStored();
    return m == nullptr || stored < 0 ? Region{} : inDocument(m->indexEntryRegion(stored));
}

void ZdsDocumentsTab::showIndexEntry() {
    const Region entry = currentEntryRegion();
    if (entry.valid()) {
        view_.selectRegion(entry);
    } else {
        emit view_.message(tr("This document has no index entry (no index, or edited)."));
    }
}

void ZdsDocumentsTab::report(const QString& error) {
    if (error.isEmpty()) {
        showStatus();
        return;
    }
    documentEditor_->showError(error);
    emit view_.message(error);
}

QString ZdsDocumentsTab::addDocument(const QString& json) {
    if (const QString typed = settleDraft(); !typed.isEmpty()) {
        return typed;
    }
    model::ZdsTableModel* m = currentModel();
    if (m == nullptr || !m->loaded()) {
        return tr("the documents are still being listed");
    }
    const int at = currentStored() >= 0 ? currentStored() + 1 : m->documentCount();
    const QString error =
        model::addZdsDocument(view_.document()->undoStack(), m, json.toStdString(), at);
    if (error.isEmpty()) {
        showDocument(at);
    }
    return error;
}

QString ZdsDocumentsTab::duplicateSelected() {
    if (const QString typed = settleDraft(); !typed.isEmpty()) {
        return typed;
    }
    model::ZdsTableModel* m = currentModel();
    if (m == nullptr || !m->loaded()) {
        return tr("the documents are still being listed");
    }
    std::vector<int> rows = selectedStored();
    const int after = rows.empty() ? -1 : *std::max_element(rows.begin(), rows.end());
    const QString error =
        model::duplicateZdsDocuments(view_.document()->undoStack(), m, std::move(rows));
    if (error.isEmpty()) {
        showDocument(after + 1);
    }
    return error;
}

QString ZdsDocumentsTab::deleteSelected() {
    if (const QString typed = settleDraft(); !typed.isEmpty()) {
        return typed;
    }
    model::ZdsTableModel* m = currentModel();
    if (m == nullptr || !m->loaded()) {
        return tr("the documents are still being listed");
    }
    // The row that takes the place of the topmost deleted one is shown next, in the order the
    // table shows (sorted or stored).
    const int top = topSelectedRow();
    const QString error =
        model::deleteZdsDocuments(view_.document()->undoStack(), m, selectedStored());
    if (error.isEmpty() && m->documentCount() > 0) {
        showDocument(m->storedIndex(std::clamp(top, 0, m->documentCount() - 1)));
    }
    return error;
}

QString ZdsDocumentsTab::renameCurrent(const QString& newId) {
    if (const QString typed = settleDraft(); !typed.isEmpty()) {
        return typed;
    }
    model::ZdsTableModel* m = currentModel();
    if (m == nullptr || !m->loaded()) {
        return tr("the documents are still being listed");
    }
    const int stored = currentStored();
    const QString error =
        model::renameZdsDocument(view_.document()->undoStack(), m, stored, newId.toStdString());
    if (error.isEmpty()) {
        showDocument(stored);
    }
    return error;
}

QString ZdsDocumentsTab::setFieldOnSelection(const QString& pointer, const QString& valueJson) {
    if (const QString typed = settleDraft(); !typed.isEmpty()) {
        return typed;
    }
    model::ZdsTableModel* m = currentModel();
    if (m == nullptr || !m->loaded()) {
        return tr("the documents are still being listed");
    }
    const int stored = currentStored();
    const QString error = model::setZdsField(view_.document()->undoStack(), m, selectedStored(),
                                             pointer.toStdString(), valueJson.toStdString());
    if (error.isEmpty() && stored >= 0) {
        onCurrentRowChanged();
    }
    return error;
}

QString ZdsDocumentsTab::applyEditorText(const QString& json) {
    model::ZdsTableModel* m = currentModel();
    if (m == nullptr || !m->loaded()) {
        return tr("the documents are still being listed");
    }
    const int stored = shownStored_ < 0 ? -1 : model::findZdsDocument(*m, shownId_, shownStored_);
    const QString error =
        model::replaceZdsDocument(view_.document()->undoStack(), m, stored, json.toStdString());
    if (error.isEmpty()) {
        if (draft_) {
            draft_->clear();  // applied: the editor shows the document as it is now
        }
        showDocument(stored);
    }
    return error;
}

}  // namespace strata::gui
