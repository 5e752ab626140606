// The zTensor "Values" tab: a 2-D grid of one tensor's values (N-d tensors sliced by two axes
// and an index for each other axis, paged when huge) and, for sparse tensors, their non-zeros.
// Raw dense tensors are shown straight from the mapped file; anything that needs decoding is
// loaded by a background job.
#pragma once

#include <QList>
#include <QPointer>
#include <QWidget>

#include <memory>

#include "formats/ztensor/zt_file.h"

class QComboBox;
class QHBoxLayout;
class QLabel;
class QSpinBox;
class QTableView;
class QTabWidget;

namespace strata::model {
struct ZtTensorData;
class ZtSparseEntriesModel;
class ZtValuesModel;
}  // namespace strata::model

namespace strata::gui {

class DocumentView;

class ZtValuesTab : public QWidget {
    Q_OBJECT
public:
    ZtValuesTab(DocumentView& view, std::shared_ptr<const strata::ztensor::ZtFile> file,
                QWidget* parent = nullptr);

    // Shows tensor `tensor` (index in the file), loading it in the background if needed.
    void showTensor(int tensor);
    int currentTensor() const { return tensor_; }
    model::ZtValuesModel* valuesModel() const { return values_; }
    model::ZtSparseEntriesModel* entriesModel() const { return entries_; }
    QLabel* messageLabel() const { return message_; }
    // Chooses the axes shown as rows and columns and the index of the others.
    QComboBox* rowAxisBox() const { return rowAxis_; }
    QComboBox* columnAxisBox() const { return columnAxis_; }

signals:
    // The values of the current tensor are shown (or could not be loaded).
    void loaded();

private:
    void setData(std::shared_ptr<const model::ZtTensorData> tensor);
    void rebuildSliceControls();
    void applyAxes();
    void updatePages();

    DocumentView& view_;
    std::shared_ptr<const strata::ztensor::ZtFile> file_;
    int tensor_ = -1;
    // Results of loads started for older choices are dropped.
    int generation_ = 0;
    QComboBox* tensorBox_ = nullptr;
    QLabel* message_ = nullptr;
    QComboBox* rowAxis_ = nullptr;
    QComboBox* columnAxis_ = nullptr;
    QWidget* indexBar_ = nullptr;
    QHBoxLayout* indexLayout_ = nullptr;
    QList<QSpinBox*> indexBoxes_;
    QSpinBox* rowPage_ = nullptr;
    QSpinBox* columnPage_ = nullptr;
    QSpinBox* entryPage_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    QTableView* grid_ = nullptr;
    QTableView* entriesView_ = nullptr;
    model::ZtValuesModel* values_ = nullptr;
    model::ZtSparseEntriesModel* entries_ = nullptr;
};

}  // namespace strata::gui
