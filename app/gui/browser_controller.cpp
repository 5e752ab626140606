#include "browser_controller.h"

#include <algorithm>

#include <QDialog>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QThread>
#include <QVBoxLayout>

#include "app/scan/browser_pane.h"
#include "compare_controller.h"
#include "main_window.h"
#include "model/core/job.h"
#include "model/core/remote_access.h"
#include "open_controller.h"
#include "save_controller.h"

namespace strata::gui {

namespace {

// A folder, listing URL or bucket prefix typed or picked; empty when cancelled.
QString askForRoot(QWidget* parent, const QString& last) {
    QDialog dialog(parent);
    dialog.setWindowTitle(BrowserController::tr("Open Folder or Bucket"));
    auto* edit = new QLineEdit(last, &dialog);
    edit->setPlaceholderText(
        QStringLiteral("/data/checkpoints, https://host/data/, s3://bucket/prefix"));
    edit->setMinimumWidth(420);
    auto* browse = new QPushButton(BrowserController::tr("&Browse…"), &dialog);
    QObject::connect(browse, &QPushButton::clicked, &dialog, [&dialog, edit] {
        const QString folder = QFileDialog::getExistingDirectory(&dialog, edit->placeholderText());
        if (!folder.isEmpty()) {
            edit->setText(folder);
        }
    });
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto* row = new QHBoxLayout;
    row->addWidget(edit);
    row->addWidget(browse);
    auto* layout = new QVBoxLayout(&dialog);
    layout->addWidget(new QLabel(
        BrowserController::tr("Every file and dataset under a local folder, an http(s):// folder "
                              "listing or an s3:// prefix is listed and validated:"),
        &dialog));
    layout->addLayout(row);
    layout->addWidget(buttons);
    return dialog.exec() == QDialog::Accepted ? edit->text().trimmed() : QString();
}

}  // namespace

BrowserController::BrowserController(MainWindow& window)
    : QObject(&window),
      window_(window),
      pane_(new BrowserPane(*window.jobRunner(), window.formats(), window.views())),
      dock_(new QDockWidget(tr("Browser"), &window)) {
    dock_->setObjectName(QStringLiteral("BrowserDock"));
    dock_->setWidget(pane_);
    window.addDockWidget(Qt::LeftDockWidgetArea, dock_);
    dock_->hide();  // until something is browsed
    connect(pane_, &BrowserPane::entryAction, this,
            [this](BrowserPane::EntryAction action, const QString& location) {
                onEntryAction(int(action), location);
            });
}

void BrowserController::openFolderOrBucketDialog() {
    const QString root = askForRoot(&window_, pane_->root());
    if (!root.isEmpty()) {
        browse(root);
    }
}

model::Job* BrowserController::browse(const QString& root) {
    const bool wasHidden = !dock_->isVisible();
    dock_->show();
    dock_->raise();
    if (wasHidden && !dock_->isFloating()) {
        // Wide enough for the name, status, format and size of an entry.
        window_.resizeDocks({dock_}, {std::max(460, window_.width() * 45 / 100)}, Qt::Horizontal);
    }
    model::ScanJobOptions options;
    options.jobs = std::max(2u, unsigned(QThread::idealThreadCount()));
    options.remote = model::RemoteOpenSettings::load();
    return pane_->scan(root, options);
}

void BrowserController::onEntryAction(int action, const QString& location) {
    switch (BrowserPane::EntryAction(action)) {
        case BrowserPane::EntryAction::Open:
            window_.openPaths({location});
            break;
        case BrowserPane::EntryAction::Repair:
            openThen(location, [this] { window_.repairCurrent(); });
            break;
        case BrowserPane::EntryAction::Compare:
            openThen(location, [this] { window_.comparisons().compareWithDialog(); });
            break;
        case BrowserPane::EntryAction::SaveLocalCopy:
            openThen(location, [this] { window_.saves().saveLocalCopyDialog(); });
            break;
    }
}

void BrowserController::openThen(const QString& location, std::function<void()> then) {
    if (!model::isRemoteUrl(location)) {
        if (window_.openPath(location)) {
            then();
        }
        return;
    }
    model::Job* job = window_.startOpenUrl(location, model::RemoteOpenSettings::load());
    if (job == nullptr) {  // already open: its tab is current
        then();
        return;
    }
    QPointer<model::Job> opening(job);
    connect(job, &model::Job::finished, this, [opening, then] {
        if (opening && opening->state() == model::Job::State::Finished) {
            then();
        }
    });
}

}  // namespace strata::gui
