#include "zt_tensors_tab.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

#include "app/widgets/document_view.h"
#include "model/core/counted_text.h"
#include "model/core/job.h"
#include "model/ztensor/zt_editor.h"
#include "model/ztensor/zt_tensor_jobs.h"
#include "model/ztensor/zt_tensor_table_model.h"

namespace strata::gui {

using model::ZtTensorTableModel;

ZtTensorsTab::ZtTensorsTab(DocumentView& view, std::shared_ptr<const ztensor::ZtFile> file,
                           model::ZtEditor* editor, QWidget* parent)
    : QWidget(parent), view_(view), file_(std::move(file)), editor_(editor) {
    model_ = new ZtTensorTableModel(file_, editor, this);
    proxy_ = new QSortFilterProxyModel(this);
    proxy_->setSourceModel(model_);
    proxy_->setSortRole(ZtTensorTableModel::SortRole);
    proxy_->setFilterKeyColumn(-1);
    proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* bar = new QWidget(this);
    buildActions(bar);
    layout->addWidget(bar);

    table_ = new QTableView(this);
    table_->setModel(proxy_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(-1, Qt::AscendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->setVisible(false);
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(true);
    layout->addWidget(table_, 1);
    status_ = new QLabel(this);
    layout->addWidget(status_);

    connect(filter_, &QLineEdit::textChanged, proxy_, &QSortFilterProxyModel::setFilterFixedString);
    connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &ZtTensorsTab::onCurrentChanged);
    connect(table_, &QTableView::doubleClicked, this, [this] {
        view_.centreTabs()->setCurrentIndex(0);  // the hex view, with the bytes selected
    });
    if (editor_) {
        connect(editor_, &model::ZtEditor::planChanged, this, &ZtTensorsTab::updateActions);
    }
    status_->setText(tr("%1, %2").arg(model::counted(file_->tensors().size(), tr("tensor")),
                                      model::counted(file_->components().size(), tr("component"))));
    updateActions();
}

void ZtTensorsTab::buildActions(QWidget* bar) {
    auto* row = new QHBoxLayout(bar);
    row->setContentsMargins(0, 0, 0, 0);
    filter_ = new QLineEdit(bar);
    filter_->setPlaceholderText(tr("Filter tensors (name, dtype, format, …)"));
    filter_->setClearButtonEnabled(true);
    filter_->setMinimumWidth(220);
    row->addWidget(filter_, 1);
    verify_ = new QPushButton(tr("Verify digests"), bar);
    connect(verify_, &QPushButton::clicked, this, [this] { verifyDigests(); });
    row->addWidget(verify_);
    rename_ = new QPushButton(tr("Rename…"), bar);
    connect(rename_, &QPushButton::clicked, this, &ZtTensorsTab::renameCurrent);
    row->addWidget(rename_);
    delete_ = new QPushButton(tr("Delete"), bar);
    connect(delete_, &QPushButton::clicked, this, &ZtTensorsTab::toggleDeleted);
    row->addWidget(delete_);

    encoding_ = new QPushButton(tr("Encoding"), bar);
    auto* encodings = new QMenu(encoding_);
    const std::pair<QString, model::ZtEncodingChoice> encodingItems[] = {
        {tr("As stored"), model::ZtEncodingChoice::Keep},
        {tr("Raw"), model::ZtEncodingChoice::Raw},
        {tr("zstd"), model::ZtEncodingChoice::Zstd}};
    for (const auto& [text, choice] : encodingItems) {
        encodings->addAction(text, this, [this, choice = choice] {
            if (editor_) {
                editor_->setEncoding(selectedTensors(), choice);
            }
        });
    }
    encoding_->setMenu(encodings);
    row->addWidget(encoding_);

    digests_ = new QPushButton(tr("Digests"), bar);
    auto* digests = new QMenu(digests_);
    const std::pair<QString, model::ZtDigestChoice> digestItems[] = {
        {tr("As stored (refreshed)"), model::ZtDigestChoice::Keep},
        {tr("None"), model::ZtDigestChoice::None},
        {tr("crc32c"), model::ZtDigestChoice::Crc32c},
        {tr("sha256"), model::ZtDigestChoice::Sha256}};
    for (const auto& [text, choice] : digestItems) {
        digests->addAction(text, this, [this, choice = choice] {
            if (editor_) {
                editor_->setDigest(selectedTensors(), choice);
            }
        });
    }
    digests_->setMenu(digests);
    row->addWidget(digests_);

    row->addWidget(new QLabel(tr("zstd level"), bar));
    level_ = new QSpinBox(bar);
    level_->setRange(1, 22);
    level_->setValue(editor_ ? editor_->plan().zstdLevel : 3);
    connect(level_, &QSpinBox::valueChanged, this, [this](int level) {
        if (editor_ && editor_->plan().zstdLevel != level) {
            editor_->setZstdLevel(level);
        }
    });
    row->addWidget(level_);
}

std::vector<std::size_t> ZtTensorsTab::selectedTensors() const {
    std::vector<std::size_t> out;
    for (const QModelIndex& index : table_->selectionModel()->selectedRows()) {
        out.push_back(
            static_cast<std::size_t>(proxy_->data(index, ZtTensorTableModel::TensorRole).toInt()));
    }
    std::sort(out.begin(), out.end());
    return out;
}

void ZtTensorsTab::selectTensor(std::size_t tensor) {
    const QModelIndex source = model_->index(static_cast<int>(tensor), 0);
    const QModelIndex index = proxy_->mapFromSource(source);
    if (index.isValid()) {
        table_->selectionModel()->setCurrentIndex(
            index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    }
}

void ZtTensorsTab::onCurrentChanged() {
    updateActions();
    const QModelIndex current = table_->selectionModel()->currentIndex();
    if (!current.isValid()) {
        return;
    }
    const int tensor = proxy_->data(current, ZtTensorTableModel::TensorRole).toInt();
    // The hull of the tensor's components: they are written next to each other.
    const auto regions = model_->componentRegions(tensor);
    if (!regions.empty()) {
        Region hull = regions.front();
        std::uint64_t end = hull.end();
        for (const Region& r : regions) {
            hull.offset = std::min(hull.offset, r.offset);
            end = std::max(end, r.end());
        }
        hull.length = end - hull.offset;
        view_.selectRegion(hull);
    }
    emit tensorChosen(tensor);
}

void ZtTensorsTab::renameCurrent() {
    const auto tensors = selectedTensors();
    if (!editor_ || tensors.size() != 1) {
        return;
    }
    const QString old = QString::fromStdString(editor_->plan().tensors[tensors.front()].name);
    bool ok = false;
    const QString name = QInputDialog::getText(this, tr("Rename tensor"), tr("New name:"),
                                               QLineEdit::Normal, old, &ok);
    QString error;
    if (ok && name != old && !editor_->renameTensor(tensors.front(), name, &error)) {
        QMessageBox::warning(this, tr("Rename tensor"), error);
    }
}

void ZtTensorsTab::toggleDeleted() {
    const auto tensors = selectedTensors();
    if (!editor_ || tensors.empty()) {
        return;
    }
    // Restores when every selected tensor is deleted already.
    const bool allDeleted = std::all_of(tensors.begin(), tensors.end(), [this](std::size_t t) {
        return editor_->plan().tensors[t].deleted;
    });
    editor_->setDeleted(tensors, !allDeleted);
}

void ZtTensorsTab::updateActions() {
    const bool editable = editor_ != nullptr;
    const auto tensors = selectedTensors();
    rename_->setEnabled(editable && tensors.size() == 1);
    delete_->setEnabled(editable && !tensors.empty());
    encoding_->setEnabled(editable && !tensors.empty());
    digests_->setEnabled(editable && !tensors.empty());
    level_->setEnabled(editable);
    if (editable) {
        level_->setValue(editor_->plan().zstdLevel);
        const bool allDeleted =
            !tensors.empty() && std::all_of(tensors.begin(), tensors.end(), [this](auto t) {
                return editor_->plan().tensors[t].deleted;
            });
        delete_->setText(allDeleted ? tr("Restore") : tr("Delete"));
    }
}

model::Job* ZtTensorsTab::verifyDigests() {
    model::JobRunner* runner = view_.jobRunner();
    if (runner == nullptr) {
        return nullptr;
    }
    model::Job* job = model::startZtDigestVerification(*runner, file_);
    view_.trackJob(job);
    verify_->setEnabled(false);
    QPointer<model::ZtDigestJob> digestJob(static_cast<model::ZtDigestJob*>(job));
    connect(job, &model::Job::finished, this, [this, digestJob] {
        verify_->setEnabled(true);
        if (!digestJob || digestJob->state() != model::Job::State::Finished) {
            return;
        }
        model_->setDigestStatuses(digestJob->statuses());
        const auto& statuses = digestJob->statuses();
        const auto bad = std::count(statuses.begin(), statuses.end(), model::ZtDigestStatus::Bad);
        status_->setText(bad == 0 ? tr("Digests verified: no mismatch.")
                                  : tr("Digests verified: %1 with a bad digest.")
                                        .arg(model::counted(bad, tr("tensor"))));
    });
    return job;
}

}  // namespace strata::gui
