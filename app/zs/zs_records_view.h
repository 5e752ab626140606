// The ZS records tab: a virtual table of records (read block by block as it scrolls) with a
// prefix / start–stop search that descends the index in a background job, then shows the
// selected records from the first match and selects its block in the hex view.
#pragma once

#include <QPointer>
#include <QWidget>

#include <memory>

#include "formats/zs/zs_reader.h"

class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;

namespace strata::model {
class Job;
class ZsRecordsModel;
}  // namespace strata::model

namespace strata::gui {

class DocumentView;

class ZsRecordsView : public QWidget {
    Q_OBJECT
public:
    ZsRecordsView(std::shared_ptr<const zs::ZsFile> file, DocumentView& view,
                  QWidget* parent = nullptr);

    model::ZsRecordsModel* model() const { return model_; }
    QTableView* table() const { return table_; }
    QLineEdit* prefixEdit() const { return prefix_; }
    QLineEdit* startEdit() const { return start_; }
    QLineEdit* stopEdit() const { return stop_; }
    QLabel* statusLabel() const { return status_; }

    // Searches for what the fields hold (escapes such as \x00 allowed); returns the job, or
    // nullptr when a field does not parse.
    model::Job* search();
    // Back to every record of the file.
    void showAll();
    // Selects a row and its block (what a click does).
    void activateRow(int row);

signals:
    // A search finished and its first match (if any) is selected.
    void searchDone(int rows);

private:
    void updateStatus();
    void onSearchFound(const zs::RecordQuery& query, quint64 block);

    std::shared_ptr<const zs::ZsFile> file_;
    DocumentView& view_;
    model::ZsRecordsModel* model_ = nullptr;
    QTableView* table_ = nullptr;
    QLineEdit* prefix_ = nullptr;
    QLineEdit* start_ = nullptr;
    QLineEdit* stop_ = nullptr;
    QCheckBox* hex_ = nullptr;
    QPushButton* searchButton_ = nullptr;
    QLabel* status_ = nullptr;
    QPointer<model::Job> searchJob_;
};

}  // namespace strata::gui
