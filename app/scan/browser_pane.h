// The Browser pane: every entry under a folder, an http(s):// listing or an s3:// prefix, its
// format, size, modified time and a status that fills in as a background scan validates it.
// Filters by format and verdict, a summary line, and the entry's actions: double-click or Enter
// opens it; the context menu validates it again, repairs, compares, copies its location or
// saves a local copy. The pane owns no data: the rows are a ScanListModel's.
#pragma once

#include <QPointer>
#include <QWidget>

#include "model/scan/scan_job.h"

class QComboBox;
class QLabel;
class QTableView;
class QToolButton;

namespace strata::gui {

class FormatViews;

class BrowserPane : public QWidget {
    Q_OBJECT
public:
    enum class EntryAction { Open, Repair, Compare, SaveLocalCopy };

    // `views` gives each entry's format icon.
    BrowserPane(model::JobRunner& runner, const FormatRegistry& formats, const FormatViews& views,
                QWidget* parent = nullptr);

    // Lists and validates `root` (a folder, or a URL of a listing or prefix) as a job.
    model::Job* scan(const QString& root, const model::ScanJobOptions& options);
    // Checks the entry of the model's `row` again.
    model::Job* validateAgain(int row);
    QString root() const { return root_; }
    model::ScanListModel* entries() const { return model_; }
    model::ScanFilterModel* shownEntries() const { return filter_; }
    QTableView* table() const { return table_; }
    QLabel* summary() const { return summary_; }
    // Pause/Resume and Stop of the scan job, beside the summary.
    QToolButton* pauseButton() const { return pauseButton_; }
    QToolButton* stopButton() const { return stopButton_; }
    // The model row of the table's current row, or -1.
    int currentEntryRow() const;

signals:
    // The user asked for `action` on the entry at `location` (a path or URL).
    void entryAction(strata::gui::BrowserPane::EntryAction action, const QString& location);

protected:
    // Enter on a row opens it, as a double-click does.
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void showMenu(const QPoint& at);
    void updateSummary();
    void updateFormats();
    void updateScanButtons();
    void act(EntryAction action);

    model::JobRunner& runner_;
    const FormatRegistry& formats_;
    model::ScanListModel* model_;
    model::ScanFilterModel* filter_;
    QTableView* table_;
    QComboBox* formatBox_;
    QComboBox* verdictBox_;
    QLabel* summary_;
    QToolButton* pauseButton_;
    QToolButton* stopButton_;
    QString root_;
    model::ScanJobOptions options_;
    QPointer<model::Job> scanJob_;
};

}  // namespace strata::gui
