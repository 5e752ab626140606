#include "ozdf_corpus_view.h"

#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include "app/ozdf/ozdf_find_dialog.h"
#include "app/ozdf/ozdf_reload_banner.h"
#include "app/widgets/document_view.h"
#include "model/core/document.h"
#include "model/core/job_runner.h"
#include "model/ozdf/ozdf_commands.h"
#include "model/ozdf/ozdf_corpus_model.h"
#include "model/ozdf/ozdf_editor.h"
#include "model/ozdf/ozdf_jsonl_jobs.h"

namespace strata::gui {

namespace {

QPushButton* button(QWidget* parent, QLayout* layout, const QString& text) {
    auto* b = new QPushButton(text, parent);
    layout->addWidget(b);
    return b;
}

}  // namespace

OzdfCorpusView::OzdfCorpusView(DocumentView& view, model::OzdfEditor& editor, QWidget* parent)
    : QWidget(parent), view_(view), editor_(editor) {
    model_ = new model::OzdfCorpusModel(editor.session(), this);
    proxy_ = new QSortFilterProxyModel(this);
    proxy_->setSourceModel(model_);
    proxy_->setSortRole(model::OzdfCorpusModel::kSortRole);
    proxy_->setFilterKeyColumn(model::OzdfCorpusModel::Name);
    proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);

    banner_ = new OzdfReloadBanner(this);

    filter_ = new QLineEdit(this);
    filter_->setPlaceholderText(tr("Filter documents by name"));
    filter_->setClearButtonEnabled(true);
    connect(filter_, &QLineEdit::textChanged, proxy_, &QSortFilterProxyModel::setFilterFixedString);

    table_ = new QTableView(this);
    trackModelChanges();  // before the selection model connects: see followCurrentRow
    table_->setModel(proxy_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(model::OzdfCorpusModel::Name, Qt::AscendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->horizontalHeader()->setSectionResizeMode(model::OzdfCorpusModel::Name,
                                                     QHeaderView::Stretch);
    table_->verticalHeader()->hide();
    connect(table_, &QTableView::activated, this, [this] {
        if (currentDocument() >= 0) {
            emit documentActivated(currentDocument());
            emit documentOpened(currentDocument());
        }
    });
    // The highlighted row, not the current index: focus alone makes a row current without
    // highlighting it, and the editor must not change document behind the user's back.
    connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &OzdfCorpusView::followCurrentRow);

    auto* buttons = new QHBoxLayout;
    connect(button(this, buttons, tr("Add…")), &QPushButton::clicked, this,
            &OzdfCorpusView::addDocument);
    connect(button(this, buttons, tr("Remove")), &QPushButton::clicked, this,
            &OzdfCorpusView::removeDocument);
    connect(button(this, buttons, tr("Rename…")), &QPushButton::clicked, this,
            &OzdfCorpusView::renameDocument);
    connect(button(this, buttons, tr("Standalone ↔ Directory")), &QPushButton::clicked, this,
            &OzdfCorpusView::toggleKind);
    buttons->addStretch(1);
    connect(button(this, buttons, tr("Find and Replace…")), &QPushButton::clicked, this, [this] {
        auto* dialog = new OzdfFindDialog(view_, editor_, this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->show();
    });
    connect(button(this, buttons, tr("Export JSONL…")), &QPushButton::clicked, this,
            &OzdfCorpusView::exportJsonl);
    connect(button(this, buttons, tr("Import JSONL…")), &QPushButton::clicked, this,
            &OzdfCorpusView::importJsonl);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(banner_);
    layout->addWidget(filter_);
    layout->addWidget(table_, 1);
    layout->addLayout(buttons);
    view_.addStateKeeper(
        QStringLiteral("ozdfCorpus"), this, [this] { return saveState(); },
        [this](const QVariant& state) { restoreState(state); });
}

void OzdfCorpusView::trackModelChanges() {
    const auto changing = [this] { ++modelChanging_; };
    const auto changed = [this] {
        --modelChanging_;
        queueFollow();
    };
    connect(proxy_, &QAbstractItemModel::rowsAboutToBeInserted, this, changing);
    connect(proxy_, &QAbstractItemModel::rowsInserted, this, changed);
    connect(proxy_, &QAbstractItemModel::rowsAboutToBeRemoved, this, changing);
    connect(proxy_, &QAbstractItemModel::rowsRemoved, this, changed);
    connect(proxy_, &QAbstractItemModel::rowsAboutToBeMoved, this, changing);
    connect(proxy_, &QAbstractItemModel::rowsMoved, this, changed);
    connect(proxy_, &QAbstractItemModel::layoutAboutToBeChanged, this, changing);
    connect(proxy_, &QAbstractItemModel::layoutChanged, this, changed);
    connect(proxy_, &QAbstractItemModel::modelAboutToBeReset, this, changing);
    connect(proxy_, &QAbstractItemModel::modelReset, this, changed);
}

void OzdfCorpusView::followCurrentRow() {
    if (modelChanging_ > 0) {
        // The row moved because the documents change (an edit, its undo, a filter): the
        // session's indexes and the table's rows agree again, and any undo is over, only
        // once the change is done.
        queueFollow();
        return;
    }
    if (currentDocument() >= 0) {
        emit documentActivated(currentDocument());
    }
}

void OzdfCorpusView::queueFollow() {
    if (followQueued_) {
        return;
    }
    followQueued_ = true;
    QTimer::singleShot(0, this, [this] {
        followQueued_ = false;
        followCurrentRow();
    });
}

void OzdfCorpusView::selectDocument(int index) {
    const QModelIndex row =
        index < 0 ? QModelIndex() : proxy_->mapFromSource(model_->index(index, 0));
    if (!row.isValid()) {
        // Hidden by the filter: no other document stays highlighted.
        table_->selectionModel()->clear();
        return;
    }
    table_->setCurrentIndex(row);
    table_->scrollTo(row);
}

QVariant OzdfCorpusView::saveState() const {
    QVariantMap state;
    const int current = currentDocument();
    if (current >= 0) {
        state.insert(QStringLiteral("document"),
                     QString::fromStdString(editor_.session().document(current).filename));
    }
    state.insert(QStringLiteral("sortColumn"), table_->horizontalHeader()->sortIndicatorSection());
    state.insert(QStringLiteral("sortOrder"),
                 static_cast<int>(table_->horizontalHeader()->sortIndicatorOrder()));
    state.insert(QStringLiteral("filter"), filter_->text());
    state.insert(QStringLiteral("scroll"), table_->verticalScrollBar()->value());
    return state;
}

void OzdfCorpusView::restoreState(const QVariant& value) {
    const QVariantMap state = value.toMap();
    filter_->setText(state.value(QStringLiteral("filter")).toString());
    table_->sortByColumn(
        state.value(QStringLiteral("sortColumn"), int(model::OzdfCorpusModel::Name)).toInt(),
        static_cast<Qt::SortOrder>(state.value(QStringLiteral("sortOrder")).toInt()));
    // The row highlighted then, or none (whatever the restored structure tree picked is not
    // the user's choice, and the editor must not follow it).
    const QString document = state.value(QStringLiteral("document")).toString();
    selectDocument(document.isEmpty() ? -1 : editor_.session().indexOf(document.toStdString()));
    const int scroll = state.value(QStringLiteral("scroll")).toInt();
    QTimer::singleShot(0, this, [this, scroll] { table_->verticalScrollBar()->setValue(scroll); });
}

bool OzdfCorpusView::applyTypedText() {
    const QString error = view_.document()->applyPendingText();
    if (!error.isEmpty()) {
        report(false,
               tr("Your typed text is not applied (%1). Fix it or revert it first.").arg(error));
        return false;
    }
    return true;
}

void OzdfCorpusView::showExternalChange(const QString& what) {
    banner_->showChange(what);
}

int OzdfCorpusView::currentDocument() const {
    const QModelIndexList rows = table_->selectionModel()->selectedRows();
    const QModelIndex index = rows.isEmpty() ? QModelIndex() : proxy_->mapToSource(rows.front());
    return index.isValid() ? index.row() : -1;
}

void OzdfCorpusView::report(bool ok, const QString& error) {
    if (!ok && !error.isEmpty()) {
        QMessageBox::warning(this, tr("OZDF"), error);
    }
}

void OzdfCorpusView::addDocument() {
    if (!applyTypedText()) {
        return;
    }
    bool ok = false;
    const QString name = QInputDialog::getText(
        this, tr("Add Document"),
        tr("File name (name.ozdf for a standalone document, a plain name for a directory "
           "document):"),
        QLineEdit::Normal, QStringLiteral("new.ozdf"), &ok);
    if (!ok) {
        return;
    }
    QString error;
    report(model::addOzdfDocument(*view_.document()->undoStack(), editor_.session(), name,
                                  !name.trimmed().endsWith(QStringLiteral(".ozdf")), &error),
           error);
}

void OzdfCorpusView::removeDocument() {
    if (currentDocument() < 0 || !applyTypedText()) {
        return;  // no row highlighted: nothing to remove
    }
    QString error;
    report(model::removeOzdfDocument(*view_.document()->undoStack(), editor_.session(),
                                     currentDocument(), &error),
           error);
}

void OzdfCorpusView::renameDocument() {
    if (currentDocument() < 0 || !applyTypedText()) {
        return;
    }
    const int index = currentDocument();
    bool ok = false;
    const QString name = QInputDialog::getText(
        this, tr("Rename Document"), tr("New file name:"), QLineEdit::Normal,
        QString::fromStdString(editor_.session().document(index).filename), &ok);
    if (ok) {
        QString error;
        report(model::renameOzdfDocument(*view_.document()->undoStack(), editor_.session(), index,
                                         name, &error),
               error);
    }
}

void OzdfCorpusView::toggleKind() {
    if (currentDocument() < 0 || !applyTypedText()) {
        return;
    }
    QString error;
    report(model::toggleOzdfDocumentKind(*view_.document()->undoStack(), editor_.session(),
                                         currentDocument(), &error),
           error);
}

void OzdfCorpusView::exportJsonl() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export JSONL"), QString(),
                                                      tr("JSON Lines (*.jsonl)"));
    if (!path.isEmpty()) {
        view_.trackJob(model::startOzdfExport(*view_.jobRunner(), editor_.session(), path));
    }
}

void OzdfCorpusView::importJsonl() {
    const QString jsonl = QFileDialog::getOpenFileName(this, tr("Import JSONL"), QString(),
                                                       tr("JSON Lines (*.jsonl);;All files (*)"));
    if (jsonl.isEmpty()) {
        return;
    }
    const QString folder = QFileDialog::getExistingDirectory(
        this, tr("Empty folder for the new corpus"), QString(), QFileDialog::ShowDirsOnly);
    if (folder.isEmpty()) {
        return;
    }
    model::Job* job = model::startOzdfImport(*view_.jobRunner(), jsonl, folder);
    view_.trackJob(job);
    connect(job, &model::Job::stateChanged, this, [this, folder](model::Job::State state) {
        if (state == model::Job::State::Finished) {
            emit view_.message(
                tr("Imported a new corpus into %1; open it to edit it.").arg(folder));
        }
    });
}

}  // namespace strata::gui
