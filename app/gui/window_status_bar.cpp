#include "window_status_bar.h"

#include <QLabel>
#include <QProgressBar>
#include <QStatusBar>
#include <QTimer>

#include "app/widgets/document_view.h"
#include "app/widgets/hex_view.h"
#include "model/core/document.h"
#include "model/core/job_runner.h"
#include "model/core/remote_access.h"
#include "model/core/structure_model.h"

namespace strata::gui {
namespace {

constexpr int kNetworkRefreshMs = 500;

}  // namespace

WindowStatusBar::WindowStatusBar(QStatusBar* bar, model::JobRunner* runner, QObject* parent)
    : QObject(parent),
      bar_(bar),
      runner_(runner),
      formatLabel_(new QLabel(bar)),
      sizeLabel_(new QLabel(bar)),
      cursorLabel_(new QLabel(bar)),
      selectionLabel_(new QLabel(bar)),
      jobLabel_(new QLabel(bar)),
      readOnlyLabel_(new QLabel(tr("read-only (remote)"), bar)),
      networkLabel_(new QLabel(bar)),
      networkTimer_(new QTimer(this)),
      jobProgress_(new QProgressBar(bar)) {
    readOnlyLabel_->setObjectName(QStringLiteral("readOnlyIndicator"));
    readOnlyLabel_->hide();
    networkLabel_->setObjectName(QStringLiteral("networkIndicator"));
    networkLabel_->setToolTip(
        tr("Requests made, bytes fetched and blocks found in the cache "
           "for this remote document"));
    networkLabel_->hide();
    networkTimer_->setInterval(kNetworkRefreshMs);
    connect(networkTimer_, &QTimer::timeout, this, &WindowStatusBar::updateNetwork);
    jobProgress_->setRange(0, 1000);
    jobProgress_->setMaximumWidth(160);
    jobProgress_->setMaximumHeight(bar->fontMetrics().height());
    jobProgress_->hide();
    jobLabel_->hide();
    for (QWidget* w :
         {static_cast<QWidget*>(jobLabel_), static_cast<QWidget*>(jobProgress_),
          static_cast<QWidget*>(networkLabel_), static_cast<QWidget*>(readOnlyLabel_),
          static_cast<QWidget*>(formatLabel_), static_cast<QWidget*>(sizeLabel_),
          static_cast<QWidget*>(cursorLabel_), static_cast<QWidget*>(selectionLabel_)}) {
        bar->addPermanentWidget(w);
    }
    connect(runner_, &model::JobRunner::jobAdded, this, [this](model::Job* job) {
        connect(job, &model::Job::progressChanged, this, &WindowStatusBar::updateJob);
        connect(job, &model::Job::finished, this, &WindowStatusBar::updateJob);
        updateJob();
    });
}

void WindowStatusBar::showView(DocumentView* view) {
    view_ = view;
    updateCursor();
    updateNetwork();
}

void WindowStatusBar::updateCursor() {
    if (view_ == nullptr || view_->currentFile() == nullptr) {
        for (QLabel* label : {formatLabel_, sizeLabel_, cursorLabel_, selectionLabel_}) {
            label->clear();
        }
        return;
    }
    const HexView* hex = view_->hexView();
    formatLabel_->setText(view_->document()->formatName());
    sizeLabel_->setText(model::formatSize(hex->size()));
    cursorLabel_->setText(tr("Offset %1").arg(model::formatOffset(hex->cursorOffset())));
    selectionLabel_->setText(hex->hasSelection()
                                 ? tr("Selected %1 at %2")
                                       .arg(model::formatSize(hex->selectionLength()),
                                            model::formatOffset(hex->selectionStart()))
                                 : QString());
}

void WindowStatusBar::updateNetwork() {
    const bool remote = view_ != nullptr && view_->document()->isRemote();
    networkLabel_->setVisible(remote);
    readOnlyLabel_->setVisible(remote && view_->document()->isReadOnly());
    if (!remote) {
        networkTimer_->stop();
        return;
    }
    if (!networkTimer_->isActive()) {
        networkTimer_->start();
    }
    networkLabel_->setText(model::networkSummary(view_->document()->networkStats()));
}

void WindowStatusBar::updateJob() {
    model::Job* job = runner_->activeJob();
    jobProgress_->setVisible(job != nullptr);
    jobLabel_->setVisible(job != nullptr);
    if (job == nullptr) {
        return;
    }
    jobLabel_->setText(job->statusText().isEmpty()
                           ? job->title()
                           : job->title() + QStringLiteral(": ") + job->statusText());
    jobProgress_->setValue(static_cast<int>(job->progress() * 1000));
}

}  // namespace strata::gui
