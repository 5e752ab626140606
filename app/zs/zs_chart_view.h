// The ZS chart tab: compression ratio and record count of every data block, computed by a
// background job (with progress and cancel) the first time the tab is shown. Clicking a point
// selects its block.
#pragma once

#include <QPointer>
#include <QWidget>

#include <memory>

#include "formats/zs/zs_reader.h"
#include "model/zs/zs_block_stats.h"

class QChart;
class QChartView;
class QLabel;
class QLineSeries;
class QProgressBar;
class QPushButton;
class QValueAxis;

namespace strata::model {
class Job;
}

namespace strata::gui {

class DocumentView;

class ZsChartView : public QWidget {
    Q_OBJECT
public:
    ZsChartView(std::shared_ptr<const zs::ZsFile> file, DocumentView& view,
                QWidget* parent = nullptr);

    // Starts the job (again); returns it, or nullptr without a job runner.
    model::Job* compute();
    void cancel();
    const model::ZsBlockStats& stats() const { return stats_; }
    QChartView* chartView() const { return chartView_; }
    QLineSeries* ratioSeries() const { return ratio_; }
    QLineSeries* recordSeries() const { return records_; }
    // Selects data block number `index` (what clicking its point does).
    void activateBlock(int index);

signals:
    void statsReady();

protected:
    void showEvent(QShowEvent* event) override;

private:
    void setStats(model::ZsBlockStats stats);

    std::shared_ptr<const zs::ZsFile> file_;
    DocumentView& view_;
    model::ZsBlockStats stats_;
    QChart* chart_ = nullptr;
    QChartView* chartView_ = nullptr;
    QLineSeries* ratio_ = nullptr;
    QLineSeries* records_ = nullptr;
    QValueAxis* blockAxis_ = nullptr;
    QValueAxis* ratioAxis_ = nullptr;
    QValueAxis* recordAxis_ = nullptr;
    QLabel* summary_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QPushButton* computeButton_ = nullptr;
    QPushButton* cancelButton_ = nullptr;
    QPointer<model::Job> job_;
    bool started_ = false;
};

}  // namespace strata::gui
