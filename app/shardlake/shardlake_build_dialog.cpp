#include "shardlake_build_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>

#include "app/widgets/document_view.h"
#include "model/core/job.h"
#include "model/shardlake/shardlake_build_job.h"
#include "model/shardlake/shardlake_session.h"
#include "shardlake_root_browser.h"

namespace strata::gui {

using namespace strata::shardlake;

ShardlakeBuildDialog::ShardlakeBuildDialog(const model::ShardlakeSession& session, QWidget* parent)
    : QDialog(parent), session_(session) {
    setWindowTitle(tr("Build index"));
    dataset_ = new QComboBox(this);
    dataset_->setEditable(true);
    for (const model::ShardlakeDatasetInfo& dataset : session_.datasets()) {
        dataset_->addItem(QString::fromStdString(dataset.version));
    }
    input_ = new QLineEdit(this);
    input_->setPlaceholderText(tr("optional: ingest this JSONL as the dataset first"));
    auto* browse = new QPushButton(tr("Browse…"), this);
    index_ = new QLineEdit(this);
    index_->setPlaceholderText(tr("new index version, e.g. idx-v2"));
    metric_ = new QComboBox(this);
    for (const char* name : {"cosine", "euclidean", "inner_product"}) {
        metric_->addItem(QString::fromLatin1(name));
    }
    shards_ = new QSpinBox(this);
    shards_->setRange(1, 65536);
    shards_->setValue(4);
    iters_ = new QSpinBox(this);
    iters_->setRange(1, 10000);
    iters_->setValue(20);
    nprobe_ = new QSpinBox(this);
    nprobe_->setRange(1, 65536);
    nprobe_->setValue(2);
    seed_ = new QLineEdit(QString::number(kDefaultKmeansSeed), this);
    replace_ = new QCheckBox(tr("replace an existing index version or dataset"), this);

    auto* inputRow = new QHBoxLayout;
    inputRow->addWidget(input_, 1);
    inputRow->addWidget(browse);
    auto* form = new QFormLayout;
    form->addRow(tr("Dataset version"), dataset_);
    form->addRow(tr("Vectors JSONL"), inputRow);
    form->addRow(tr("Index version"), index_);
    form->addRow(tr("Metric"), metric_);
    form->addRow(tr("Shards"), shards_);
    form->addRow(tr("k-means iterations"), iters_);
    form->addRow(tr("nprobe (manifest)"), nprobe_);
    form->addRow(tr("k-means seed"), seed_);
    form->addRow(QString(), replace_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Build"));
    form->addRow(buttons);
    setLayout(form);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getOpenFileName(
            this, tr("Vectors to ingest"), QString(), tr("JSON lines (*.jsonl);;All files (*)"));
        if (!file.isEmpty()) {
            input_->setText(file);
        }
    });
}

model::Job* ShardlakeBuildDialog::startBuild(model::JobRunner& runner, QString* error) {
    auto fail = [error](const QString& why) -> model::Job* {
        if (error != nullptr) {
            *error = why;
        }
        return nullptr;
    };
    const std::string dataset = dataset_->currentText().trimmed().toStdString();
    const std::string index = index_->text().trimmed().toStdString();
    if (dataset.empty() || index.empty()) {
        return fail(tr("Name the dataset and the new index version."));
    }
    bool seedOk = false;
    const quint64 seed = seed_->text().trimmed().toULongLong(&seedOk, 0);
    if (!seedOk) {
        return fail(tr("The k-means seed must be a whole number."));
    }
    model::ShardlakeBuildSpec spec;
    if (!input_->text().trimmed().isEmpty()) {
        IngestRequest ingest;
        ingest.root = session_.rootPath();
        ingest.input = input_->text().trimmed().toStdString();
        ingest.datasetVersion = dataset;
        ingest.replace = replace_->isChecked();
        spec.ingest = std::move(ingest);
    }
    spec.build.root = session_.rootPath();
    spec.build.datasetVersion = dataset;
    spec.build.indexVersion = index;
    spec.build.metric =
        metricFromName(metric_->currentText().toStdString()).value_or(Metric::Cosine);
    spec.build.numShards = static_cast<std::uint32_t>(shards_->value());
    spec.build.kmeansIters = static_cast<std::uint32_t>(iters_->value());
    spec.build.nprobe = static_cast<std::uint32_t>(nprobe_->value());
    spec.build.kmeansSeed = seed;
    spec.build.replace = replace_->isChecked();
    return model::startShardlakeBuildJob(runner, std::move(spec), [](const BuildOutcome&) {});
}

void installBuildAction(DocumentView& view, const model::ShardlakeSession& session,
                        ShardlakeRootBrowser& browser) {
    browser.buildButton()->show();
    QObject::connect(
        &browser, &ShardlakeRootBrowser::buildRequested, &browser, [&view, &session, &browser] {
            ShardlakeBuildDialog dialog(session, &browser);
            if (dialog.exec() != QDialog::Accepted || view.jobRunner() == nullptr) {
                return;
            }
            QString error;
            model::Job* job = dialog.startBuild(*view.jobRunner(), &error);
            if (job == nullptr) {
                QMessageBox::warning(&browser, dialog.windowTitle(), error);
                return;
            }
            view.trackJob(job);
            QObject::connect(job, &model::Job::finished, &view, [&view, job] {
                if (job->state() == model::Job::State::Finished) {
                    // The root has a new index version: open it again to show it.
                    emit view.message(
                        QObject::tr("%1 finished; reloading the root").arg(job->title()));
                    emit view.reloadRequested();
                }
            });
        });
}

}  // namespace strata::gui
