// The Query tab: nearest neighbours of a pasted vector (JSON array), of a picked record, or of
// the record with a typed id, in one index version, with metric, k and nprobe (or every shard).
// The search runs as a job; each result links to its shard and record.
#pragma once

#include <QPointer>
#include <QWidget>

#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QRadioButton;
class QSpinBox;
class QTableView;

namespace strata::model {
class Job;
class ShardlakeQueryResultsModel;
class ShardlakeSession;
struct ShardlakeQueryOutcome;
}  // namespace strata::model

namespace strata::gui {

class DocumentView;

class ShardlakeQueryPanel : public QWidget {
    Q_OBJECT
public:
    ShardlakeQueryPanel(DocumentView& view, const model::ShardlakeSession& session,
                        QWidget* parent = nullptr);

    void setIndex(const QString& version);
    // Fills the vector field and selects "vector" as the query.
    void setQueryVector(const std::vector<float>& vector);
    void setQueryText(const QString& json);
    // Selects "record id" as the query.
    void setQueryId(quint64 id);
    // metric: "" for the index's own, else cosine / euclidean / inner_product.
    void setMetric(const QString& metric);
    void setK(int k);
    // 0 = every shard.
    void setNprobe(int nprobe);

    // Starts the search (cancelling one that runs); nullptr when the input is wrong (the status
    // line says why).
    model::Job* run();
    void cancel();
    // Selects the record of result `row` in the tree and hex view.
    void openResult(int row);

    model::ShardlakeQueryResultsModel* results() const { return results_; }
    QTableView* resultsTable() const { return table_; }
    QString statusText() const;
    model::Job* job() const { return job_; }

signals:
    void resultsShown();

private:
    void show(const model::ShardlakeQueryOutcome& outcome, const QString& version);

    DocumentView& view_;
    const model::ShardlakeSession& session_;
    QComboBox* indexBox_ = nullptr;
    QRadioButton* byVector_ = nullptr;
    QRadioButton* byId_ = nullptr;
    QPlainTextEdit* vectorEdit_ = nullptr;
    QLineEdit* idEdit_ = nullptr;
    QComboBox* metricBox_ = nullptr;
    QSpinBox* kBox_ = nullptr;
    QCheckBox* allShards_ = nullptr;
    QSpinBox* nprobeBox_ = nullptr;
    QPushButton* runButton_ = nullptr;
    QPushButton* cancelButton_ = nullptr;
    QLabel* status_ = nullptr;
    QTableView* table_ = nullptr;
    model::ShardlakeQueryResultsModel* results_ = nullptr;
    QString resultsVersion_;
    QPointer<model::Job> job_;
};

}  // namespace strata::gui
