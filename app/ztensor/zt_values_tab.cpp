#include "zt_values_tab.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <climits>

#include "app/widgets/document_view.h"
#include "formats/ztensor/zt_nodes.h"
#include "model/core/counted_text.h"
#include "model/core/job_runner.h"
#include "model/ztensor/zt_tensor_data.h"
#include "model/ztensor/zt_values_model.h"
#include "zt_tensor_chooser.h"

namespace strata::gui {

namespace {

int clampToInt(std::uint64_t value) {
    return static_cast<int>(std::min<std::uint64_t>(value, INT_MAX));
}

QSpinBox* pageBox(QWidget* parent) {
    auto* box = new QSpinBox(parent);
    box->setRange(1, 1);
    box->setPrefix(QObject::tr("page "));
    return box;
}

QTableView* makeGrid(QWidget* parent) {
    auto* grid = new QTableView(parent);
    grid->setEditTriggers(QAbstractItemView::NoEditTriggers);
    grid->verticalHeader()->setDefaultSectionSize(grid->fontMetrics().height() + 6);
    grid->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    grid->horizontalHeader()->setDefaultSectionSize(96);
    return grid;
}

}  // namespace

ZtValuesTab::ZtValuesTab(DocumentView& view, std::shared_ptr<const ztensor::ZtFile> file,
                         QWidget* parent)
    : QWidget(parent), view_(view), file_(std::move(file)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);

    auto* top = new QHBoxLayout;
    tensorBox_ = addZtTensorChooser(*top, *file_, this);
    top->addWidget(new QLabel(tr("Rows"), this));
    rowAxis_ = new QComboBox(this);
    top->addWidget(rowAxis_);
    top->addWidget(new QLabel(tr("Columns"), this));
    columnAxis_ = new QComboBox(this);
    top->addWidget(columnAxis_);
    rowPage_ = pageBox(this);
    rowPage_->setToolTip(tr("Row page (%1 rows each)").arg(model::ZtValuesModel::kPageRows));
    columnPage_ = pageBox(this);
    columnPage_->setToolTip(
        tr("Column page (%1 columns each)").arg(model::ZtValuesModel::kPageColumns));
    top->addWidget(rowPage_);
    top->addWidget(columnPage_);
    top->addStretch(1);
    layout->addLayout(top);

    indexBar_ = new QWidget(this);
    indexLayout_ = new QHBoxLayout(indexBar_);
    indexLayout_->setContentsMargins(0, 0, 0, 0);
    indexLayout_->addStretch(1);
    layout->addWidget(indexBar_);

    message_ = new QLabel(this);
    message_->setWordWrap(true);
    layout->addWidget(message_);

    tabs_ = new QTabWidget(this);
    values_ = new model::ZtValuesModel(this);
    entries_ = new model::ZtSparseEntriesModel(this);
    grid_ = makeGrid(tabs_);
    grid_->setModel(values_);
    auto* entriesPage = new QWidget(tabs_);
    auto* entriesLayout = new QVBoxLayout(entriesPage);
    entriesLayout->setContentsMargins(0, 0, 0, 0);
    entryPage_ = pageBox(entriesPage);
    entriesLayout->addWidget(entryPage_, 0, Qt::AlignLeft);
    entriesView_ = makeGrid(entriesPage);
    entriesView_->setModel(entries_);
    entriesLayout->addWidget(entriesView_, 1);
    tabs_->addTab(grid_, tr("Grid"));
    tabs_->addTab(entriesPage, tr("Non-zeros"));
    layout->addWidget(tabs_, 1);

    connect(tensorBox_, &QComboBox::currentIndexChanged, this, &ZtValuesTab::showTensor);
    connect(rowAxis_, &QComboBox::currentIndexChanged, this, &ZtValuesTab::applyAxes);
    connect(columnAxis_, &QComboBox::currentIndexChanged, this, &ZtValuesTab::applyAxes);
    auto changePage = [this] {
        values_->setPage(static_cast<std::uint64_t>(rowPage_->value() - 1),
                         static_cast<std::uint64_t>(columnPage_->value() - 1));
    };
    connect(rowPage_, &QSpinBox::valueChanged, this, changePage);
    connect(columnPage_, &QSpinBox::valueChanged, this, changePage);
    connect(entryPage_, &QSpinBox::valueChanged, this,
            [this](int page) { entries_->setPage(static_cast<std::uint64_t>(page - 1)); });
    // A cell of a raw dense tensor selects its bytes in the hex view.
    connect(grid_->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& current) {
                const qint64 element = values_->elementIndex(current);
                if (element < 0 || tensor_ < 0) {
                    return;
                }
                const ztensor::ZtTensor& t = file_->tensors()[static_cast<std::size_t>(tensor_)];
                const ztensor::ZtComponent* stored = file_->component(t, "data");
                if (!model::ztLoadIsCheap(*file_, t) || stored == nullptr || !t.dtype) {
                    return;
                }
                const std::uint64_t size = ztensor::ztDTypeSize(*t.dtype);
                view_.selectRegion({stored->data.source,
                                    *stored->offset + static_cast<std::uint64_t>(element) * size,
                                    size});
            });
    if (!file_->tensors().empty()) {
        showTensor(0);
    } else {
        message_->setText(tr("The file holds no tensors."));
    }
}

void ZtValuesTab::showTensor(int tensor) {
    if (tensor < 0 || static_cast<std::size_t>(tensor) >= file_->tensors().size() ||
        tensor == tensor_) {
        return;
    }
    tensor_ = tensor;
    {
        const QSignalBlocker blocker(tensorBox_);
        tensorBox_->setCurrentIndex(tensor);
    }
    const int generation = ++generation_;
    const ztensor::ZtTensor& t = file_->tensors()[static_cast<std::size_t>(tensor)];
    if (model::ztLoadIsCheap(*file_, t)) {
        setData(std::make_shared<model::ZtTensorData>(model::ztLoadTensorData(*file_, t)));
        return;
    }
    setData(nullptr);
    message_->setText(tr("Loading %1…").arg(QString::fromStdString(t.name)));
    model::JobRunner* runner = view_.jobRunner();
    if (runner == nullptr) {
        return;
    }
    QPointer<ZtValuesTab> self(this);
    auto* job = runner->start(
        tr("Loading values of %1").arg(QString::fromStdString(t.name)),
        [file = file_, tensor, generation, self](model::JobContext& c) {
            auto loaded = std::make_shared<model::ZtTensorData>(
                model::ztLoadTensorData(*file, file->tensors()[static_cast<std::size_t>(tensor)]));
            if (c.cancelled()) {
                return;
            }
            c.post([self, loaded, generation] {
                if (self && self->generation_ == generation) {
                    self->setData(loaded);
                }
            });
        });
    view_.trackJob(job);
}

void ZtValuesTab::setData(std::shared_ptr<const model::ZtTensorData> tensor) {
    values_->setTensor(tensor && tensor->hasDense ? tensor : nullptr);
    entries_->setTensor(tensor);
    rebuildSliceControls();
    if (!tensor) {
        return;
    }
    QString text =
        tr("%1 %2 %3")
            .arg(QString::fromStdString(std::string(ztensor::ztDTypeName(tensor->dtype))),
                 QString::fromStdString(ztensor::ztShapeText(tensor->shape)),
                 tensor->sparse ? tr("sparse") : tr("dense"));
    if (!tensor->ok()) {
        text += QStringLiteral(" — ") + QString::fromStdString(tensor->error);
    } else if (tensor->sparse) {
        text +=
            QStringLiteral(", ") + model::counted(tensor->sparseData->nnz, tr("non-zero value"));
        if (!tensor->hasDense) {
            text += tr("; too large to densify (more than %1 elements): see Non-zeros")
                        .arg(model::kZtDensifyLimit);
        }
    }
    message_->setText(text);
    tabs_->setTabEnabled(1, tensor->sparseData != nullptr);
    tabs_->setCurrentIndex(tensor->sparse && !tensor->hasDense ? 1 : 0);
    emit loaded();
}

void ZtValuesTab::rebuildSliceControls() {
    const QSignalBlocker rowBlocker(rowAxis_);
    const QSignalBlocker columnBlocker(columnAxis_);
    rowAxis_->clear();
    columnAxis_->clear();
    qDeleteAll(indexBoxes_);
    indexBoxes_.clear();
    const auto& shown = values_->tensor();
    const int rank = values_->rank();
    if (rank >= 2) {
        for (int axis = 0; axis < rank; ++axis) {
            const QString label =
                tr("axis %1 (%2)").arg(axis).arg(shown->shape[static_cast<std::size_t>(axis)]);
            rowAxis_->addItem(label);
            columnAxis_->addItem(label);
        }
        rowAxis_->setCurrentIndex(values_->rowAxis());
        columnAxis_->setCurrentIndex(values_->columnAxis());
    }
    rowAxis_->setEnabled(rank >= 2);
    columnAxis_->setEnabled(rank >= 2);
    for (int axis = 0; axis < rank; ++axis) {
        auto* box = new QSpinBox(indexBar_);
        box->setPrefix(tr("axis %1 = ").arg(axis));
        box->setRange(0, clampToInt(shown->shape[static_cast<std::size_t>(axis)]) - 1);
        connect(box, &QSpinBox::valueChanged, this, [this, axis](int value) {
            values_->setIndex(axis, static_cast<std::uint64_t>(value));
        });
        indexLayout_->insertWidget(indexLayout_->count() - 1, box);
        indexBoxes_.append(box);
    }
    indexBar_->setVisible(rank > 2);
    updatePages();
}

void ZtValuesTab::applyAxes() {
    if (!values_->setAxes(rowAxis_->currentIndex(), columnAxis_->currentIndex())) {
        return;  // the same axis twice: wait for the other box to change
    }
    updatePages();
}

void ZtValuesTab::updatePages() {
    // Only the axes not shown as rows or columns need an index.
    for (int axis = 0; axis < indexBoxes_.size(); ++axis) {
        indexBoxes_[axis]->setVisible(axis != values_->rowAxis() && axis != values_->columnAxis());
    }
    const QSignalBlocker rowBlocker(rowPage_);
    const QSignalBlocker columnBlocker(columnPage_);
    const QSignalBlocker entryBlocker(entryPage_);
    rowPage_->setRange(1, clampToInt(values_->rowPageCount()));
    rowPage_->setValue(static_cast<int>(values_->rowPage()) + 1);
    rowPage_->setVisible(values_->rowPageCount() > 1);
    columnPage_->setRange(1, clampToInt(values_->columnPageCount()));
    columnPage_->setValue(static_cast<int>(values_->columnPage()) + 1);
    columnPage_->setVisible(values_->columnPageCount() > 1);
    entryPage_->setRange(1, clampToInt(entries_->pageCount()));
    entryPage_->setValue(static_cast<int>(entries_->page()) + 1);
    entryPage_->setVisible(entries_->pageCount() > 1);
}

}  // namespace strata::gui
