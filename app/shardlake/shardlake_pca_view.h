// The PCA tab: a 2-D scatter (Qt Charts) of a bounded sample of an index's vectors projected on
// their top two principal components, one colour per shard, computed by a background job with
// progress and cancel.
#pragma once

#include <QPointer>
#include <QWidget>

class QChart;
class QChartView;
class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace strata::model {
class Job;
class ShardlakeSession;
struct ShardlakePcaResult;
}  // namespace strata::model

namespace strata::gui {

class DocumentView;

class ShardlakePcaView : public QWidget {
    Q_OBJECT
public:
    ShardlakePcaView(DocumentView& view, const model::ShardlakeSession& session,
                     QWidget* parent = nullptr);

    // Starts the projection of the chosen index (cancelling one that runs); nullptr when the
    // index cannot be loaded (the status line says why).
    model::Job* run();
    void cancel();
    QComboBox* indexBox() const { return indexBox_; }
    QSpinBox* sampleBox() const { return sampleBox_; }
    QChart* chart() const { return chart_; }
    model::Job* job() const { return job_; }
    // Points plotted by the last finished run.
    int pointCount() const { return pointCount_; }

signals:
    void resultShown();

private:
    void show(const model::ShardlakePcaResult& result, const QString& version);
    void setRunning(bool running);

    DocumentView& view_;
    const model::ShardlakeSession& session_;
    QComboBox* indexBox_ = nullptr;
    QSpinBox* sampleBox_ = nullptr;
    QPushButton* runButton_ = nullptr;
    QPushButton* cancelButton_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QLabel* status_ = nullptr;
    QChart* chart_ = nullptr;
    QChartView* chartView_ = nullptr;
    QPointer<model::Job> job_;
    int pointCount_ = 0;
};

}  // namespace strata::gui
