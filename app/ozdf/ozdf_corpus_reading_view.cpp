#include "ozdf_corpus_reading_view.h"

#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QTableView>
#include <QVBoxLayout>

#include "app/widgets/document_view.h"
#include "model/core/document.h"
#include "model/ozdf/ozdf_listing_model.h"

namespace strata::gui {

OzdfCorpusReadingView::OzdfCorpusReadingView(DocumentView& view,
                                             std::shared_ptr<const ozdf::ListedCorpus> corpus,
                                             QWidget* parent)
    : QWidget(parent) {
    status_ = new QLabel(tr("Reading %1 documents; the corpus can be edited once all are read.")
                             .arg(QLocale().toString(static_cast<qlonglong>(corpus->size()))),
                         this);
    status_->setWordWrap(true);
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 1000);
    table_ = new QTableView(this);
    table_->setModel(new model::OzdfListingModel(std::move(corpus), table_));
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    table_->setColumnWidth(model::OzdfListingModel::Name, 320);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(status_);
    layout->addWidget(progress_);
    layout->addWidget(table_);

    // The tree reads just the chosen document to show it.
    connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [&view](const QModelIndex& current) {
                const strata::Node* root = view.document()->root();
                if (current.isValid() && root != nullptr &&
                    static_cast<std::uint64_t>(current.row()) < root->childCount()) {
                    view.selectNode(root->child(static_cast<std::uint64_t>(current.row())));
                }
            });
}

int OzdfCorpusReadingView::currentDocument() const {
    const QModelIndex current = table_->currentIndex();
    return current.isValid() ? current.row() : -1;
}

void OzdfCorpusReadingView::showProgress(double fraction, const QString& text) {
    progress_->setValue(static_cast<int>(fraction * 1000.0));
    progress_->setFormat(text);
}

void OzdfCorpusReadingView::showStopped(const QString& why) {
    progress_->hide();
    status_->setText(tr("Reading the corpus stopped: %1. The documents can be browsed; reload "
                        "(F5) to read them again for editing.")
                         .arg(why));
}

QString OzdfCorpusReadingView::statusText() const {
    return status_->text();
}

}  // namespace strata::gui
