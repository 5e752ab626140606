// The zTensor "Tensors" tab: the sortable, filterable tensor table linked to the hex view and
// file map, with the edit actions (rename, delete, re-encode, digests) and "Verify digests".
#pragma once

#include <QPointer>
#include <QWidget>

#include <memory>
#include <vector>

#include "formats/ztensor/zt_file.h"

class QLabel;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QSpinBox;
class QTableView;

namespace strata::model {
class Job;
class ZtEditor;
class ZtTensorTableModel;
}  // namespace strata::model

namespace strata::gui {

class DocumentView;

class ZtTensorsTab : public QWidget {
    Q_OBJECT
public:
    // `editor` may be null (files Strata cannot rewrite): the table is then read-only.
    ZtTensorsTab(DocumentView& view, std::shared_ptr<const strata::ztensor::ZtFile> file,
                 model::ZtEditor* editor, QWidget* parent = nullptr);

    model::ZtTensorTableModel* tableModel() const { return model_; }
    QSortFilterProxyModel* proxyModel() const { return proxy_; }
    QTableView* tableView() const { return table_; }
    QLineEdit* filterEdit() const { return filter_; }
    // Tensor indices (in the file) of the selected rows.
    std::vector<std::size_t> selectedTensors() const;
    // Selects the row of tensor `tensor` (as a click would).
    void selectTensor(std::size_t tensor);
    // Starts the digest verification job; the Digest column fills in when it finishes.
    model::Job* verifyDigests();

signals:
    // The current row changed to this tensor (index in the file).
    void tensorChosen(int tensor);

private:
    void buildActions(QWidget* bar);
    void onCurrentChanged();
    void renameCurrent();
    void toggleDeleted();
    void updateActions();

    DocumentView& view_;
    std::shared_ptr<const strata::ztensor::ZtFile> file_;
    QPointer<model::ZtEditor> editor_;
    model::ZtTensorTableModel* model_ = nullptr;
    QSortFilterProxyModel* proxy_ = nullptr;
    QTableView* table_ = nullptr;
    QLineEdit* filter_ = nullptr;
    QPushButton* verify_ = nullptr;
    QPushButton* rename_ = nullptr;
    QPushButton* delete_ = nullptr;
    QPushButton* encoding_ = nullptr;
    QPushButton* digests_ = nullptr;
    QSpinBox* level_ = nullptr;
    QLabel* status_ = nullptr;
};

}  // namespace strata::gui
