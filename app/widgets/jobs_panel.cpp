#include "jobs_panel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QProgressBar>
#include <QPushButton>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "model/core/job_runner.h"

namespace strata::gui {
namespace {
enum Column { TitleColumn, StateColumn, ProgressColumn, PauseColumn, CancelColumn, StatusColumn };
}

JobsPanel::JobsPanel(model::JobRunner* runner, QWidget* parent)
    : QWidget(parent), runner_(runner), list_(new QTreeWidget(this)) {
    list_->setRootIsDecorated(false);
    list_->setHeaderLabels(
        {tr("Job"), tr("State"), tr("Progress"), QString(), QString(), tr("Status")});
    list_->header()->setStretchLastSection(true);
    list_->setColumnWidth(TitleColumn, 260);
    list_->setColumnWidth(StateColumn, 80);
    list_->setColumnWidth(ProgressColumn, 140);
    list_->setColumnWidth(PauseColumn, 70);
    list_->setColumnWidth(CancelColumn, 70);
    auto* clear = new QPushButton(tr("Clear &Finished"), this);
    auto* bar = new QHBoxLayout;
    bar->addStretch(1);
    bar->addWidget(clear);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(list_, 1);
    layout->addLayout(bar);
    connect(clear, &QPushButton::clicked, this, &JobsPanel::clearFinished);
    if (runner_) {
        for (model::Job* job : runner_->jobs()) {
            addJob(job);
        }
        connect(runner_, &model::JobRunner::jobAdded, this, &JobsPanel::addJob);
    }
}

int JobsPanel::rowCount() const {
    return list_->topLevelItemCount();
}

void JobsPanel::addJob(model::Job* job) {
    auto* item = new QTreeWidgetItem(list_);
    item->setText(TitleColumn, job->title());
    item->setToolTip(TitleColumn, job->title());
    rows_.insert(job, item);
    auto* bar = new QProgressBar(list_);
    bar->setRange(0, 1000);
    bar->setTextVisible(true);
    list_->setItemWidget(item, ProgressColumn, bar);
    auto* cancel = new QToolButton(list_);
    cancel->setText(tr("Cancel"));
    list_->setItemWidget(item, CancelColumn, cancel);
    connect(cancel, &QToolButton::clicked, job, &model::Job::cancel);
    if (job->canPause()) {
        auto* pause = new QToolButton(list_);
        pause->setObjectName(QStringLiteral("pauseButton"));
        list_->setItemWidget(item, PauseColumn, pause);
        connect(pause, &QToolButton::clicked, job, [job] { job->setPaused(!job->isPaused()); });
        connect(job, &model::Job::pausedChanged, this, [this, job] { updateRow(job); });
    }
    connect(job, &model::Job::progressChanged, this, [this, job] { updateRow(job); });
    connect(job, &model::Job::stateChanged, this, [this, job] { updateRow(job); });
    connect(job, &QObject::destroyed, this, [this, job] { delete rows_.take(job); });
    updateRow(job);
}

void JobsPanel::updateRow(model::Job* job) {
    QTreeWidgetItem* item = rows_.value(job);
    if (item == nullptr) {
        return;
    }
    item->setText(StateColumn, job->stateText());
    const QString status =
        job->state() == model::Job::State::Failed ? job->errorText() : job->statusText();
    item->setText(StatusColumn, status);
    item->setToolTip(StatusColumn, status);
    if (auto* bar = qobject_cast<QProgressBar*>(list_->itemWidget(item, ProgressColumn))) {
        bar->setValue(static_cast<int>(job->progress() * 1000));
    }
    if (QWidget* cancel = list_->itemWidget(item, CancelColumn)) {
        cancel->setEnabled(job->isRunning());
    }
    if (auto* pause = qobject_cast<QToolButton*>(list_->itemWidget(item, PauseColumn))) {
        pause->setText(job->isPaused() ? tr("Resume") : tr("Pause"));
        pause->setEnabled(job->isRunning());
    }
}

void JobsPanel::clearFinished() {
    if (runner_) {
        runner_->removeFinished();  // deleting a job removes its row (destroyed above)
    }
}

}  // namespace strata::gui
