// The zTensor "Statistics" tab: min, max, mean, std, zeros, NaN and Inf of one tensor and a
// histogram of its finite values (Qt Charts), computed by a cancellable background job.
#pragma once

#include <QPointer>
#include <QWidget>

#include <memory>
#include <optional>

#include "formats/ztensor/zt_file.h"
#include "model/ztensor/zt_stats.h"

class QChartView;
class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;

namespace strata::model {
class Job;
}

namespace strata::gui {

class DocumentView;

class ZtStatsTab : public QWidget {
    Q_OBJECT
public:
    ZtStatsTab(DocumentView& view, std::shared_ptr<const strata::ztensor::ZtFile> file,
               QWidget* parent = nullptr);

    // Chooses the tensor (does not compute).
    void setTensor(int tensor);
    // Starts the statistics job for the chosen tensor (cancelling a running one).
    model::Job* compute();
    const std::optional<model::ZtStats>& stats() const { return stats_; }
    QLabel* summaryLabel() const { return summary_; }
    QChartView* chartView() const { return chart_; }

private:
    void showStats(const model::ZtStats& stats);

    DocumentView& view_;
    std::shared_ptr<const strata::ztensor::ZtFile> file_;
    QComboBox* tensorBox_ = nullptr;
    QPushButton* compute_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QLabel* summary_ = nullptr;
    QChartView* chart_ = nullptr;
    QPointer<model::Job> job_;
    std::optional<model::ZtStats> stats_;
};

}  // namespace strata::gui
