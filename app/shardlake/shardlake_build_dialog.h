// "Build index…": builds a new index version of the open storage root (optionally from a new
// vectors JSONL ingested first) as a background job with progress and cancel.
#pragma once

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLineEdit;
class QSpinBox;

namespace strata::model {
class Job;
class JobRunner;
class ShardlakeSession;
}  // namespace strata::model

namespace strata::gui {

class DocumentView;
class ShardlakeRootBrowser;

class ShardlakeBuildDialog : public QDialog {
    Q_OBJECT
public:
    ShardlakeBuildDialog(const model::ShardlakeSession& session, QWidget* parent = nullptr);

    QComboBox* datasetBox() const { return dataset_; }
    QLineEdit* inputEdit() const { return input_; }
    QLineEdit* indexEdit() const { return index_; }
    QComboBox* metricBox() const { return metric_; }
    QSpinBox* shardsBox() const { return shards_; }
    QSpinBox* itersBox() const { return iters_; }

    // Starts the job from the dialog's fields; nullptr with *error when they are incomplete.
    model::Job* startBuild(model::JobRunner& runner, QString* error);

private:
    const model::ShardlakeSession& session_;
    QComboBox* dataset_ = nullptr;
    QLineEdit* input_ = nullptr;
    QLineEdit* index_ = nullptr;
    QComboBox* metric_ = nullptr;
    QSpinBox* shards_ = nullptr;
    QSpinBox* iters_ = nullptr;
    QSpinBox* nprobe_ = nullptr;
    QLineEdit* seed_ = nullptr;
    QCheckBox* replace_ = nullptr;
};

// Shows the root browser's "Build index…" button and runs the dialog from it.
void installBuildAction(DocumentView& view, const model::ShardlakeSession& session,
                        ShardlakeRootBrowser& browser);

}  // namespace strata::gui
