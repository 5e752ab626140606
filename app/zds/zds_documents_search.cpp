// The search pane of the ZDS documents tab: its fields, and running a search as a job whose
// hits fill the results table.
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

void ZdsDocumentsTab::buildSearchPane(QWidget* pane) {
    searchTarget_ = new QComboBox(pane);
    searchTarget_->addItems({tr("id"), tr("field"), tr("full text")});
    searchPointer_ = new QLineEdit(pane);
    searchPointer_->setPlaceholderText(tr("/json/pointer"));
    searchOp_ = new QComboBox(pane);
    searchOp_->addItems({QStringLiteral("="), QStringLiteral("<"), QStringLiteral(">"),
                         tr("contains"), tr("regex")});
    searchValue_ = new QLineEdit(pane);
    searchValue_->setPlaceholderText(tr("value (JSON or text)"));
    searchButton_ = new QPushButton(tr("Search"), pane);
    stopButton_ = new QPushButton(tr("Stop"), pane);
    searchStatus_ = new QLabel(pane);
    resultsView_ = new QTableView(pane);
    setUpDocumentTable(resultsView_);
    resultsView_->setSelectionMode(QAbstractItemView::SingleSelection);
    resultsView_->setModel(results_);

    auto* fields = new QHBoxLayout;
    fields->addWidget(searchTarget_);
    fields->addWidget(searchPointer_, 1);
    fields->addWidget(searchOp_);
    fields->addWidget(searchValue_, 2);
    fields->addWidget(searchButton_);
    fields->addWidget(stopButton_);
    auto* layout = new QVBoxLayout(pane);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(fields);
    layout->addWidget(searchStatus_);
    layout->addWidget(resultsView_, 1);

    auto updateFields = [this] {
        const bool field = searchTarget_->currentIndex() == 1;
        searchPointer_->setEnabled(field);
    };
    connect(searchTarget_, &QComboBox::currentIndexChanged, this, updateFields);
    updateFields();
    auto run = [this] {
        const QString error = runSearch(searchTarget_->currentIndex(), searchOp_->currentIndex(),
                                        searchPointer_->text(), searchValue_->text());
        if (!error.isEmpty()) {
            searchStatus_->setText(error);
        }
    };
    connect(searchButton_, &QPushButton::clicked, this, run);
    connect(searchValue_, &QLineEdit::returnPressed, this, run);
    connect(stopButton_, &QPushButton::clicked, results_, &model::ZdsSearchResults::cancel);
    connect(results_, &model::ZdsSearchResults::searchFinished, this,
            [this](int hits, bool complete) {
                const QString found = model::counted(hits, tr("match"));
                searchStatus_->setText(complete ? found : tr("%1 so far").arg(found));
            });
    connect(resultsView_, &QTableView::clicked, this, [this](const QModelIndex& index) {
        const int stored = results_->storedPosition(index.row());
        if (stored >= 0) {
            showDocument(stored);
        }
    });
}

QString ZdsDocumentsTab::runSearch(int target, int op, const QString& pointer,
                                   const QString& value) {
    model::ZdsTableModel* m = currentModel();
    if (m == nullptr) {
        return tr("no collection");
    }
    zds::ZdsQuery query;
    query.target = static_cast<zds::ZdsQuery::Target>(target);
    query.op = static_cast<zds::ZdsQuery::Op>(op);
    query.pointer = pointer.toStdString();
    query.value = value.toStdString();
    QString error;
    model::Job* job = results_->start(*view_.jobRunner(), m, query, &error);
    if (job == nullptr) {
        return error;
    }
    view_.trackJob(job);
    searchStatus_->setText(tr("searching…"));
    return {};
}

}  // namespace strata::gui
