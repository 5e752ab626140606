#include "open_controller.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QPointer>
#include <QSettings>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>

#include <algorithm>

#include "app/widgets/document_view.h"
#include "browser_controller.h"
#include "formats/registry/format_registry.h"
#include "main_window.h"
#include "model/core/document.h"
#include "model/core/open_url_job.h"
#include "model/core/remote_access.h"
#include "open_url_dialog.h"
#include "save_controller.h"

namespace strata::gui {
namespace {

const char* const kRecentKey = "recentFiles";

// "Strata files (*.zs *.zds ...);;All files (*)": every registered format's patterns.
QString openDialogFilter(const FormatRegistry& formats) {
    QStringList patterns;
    for (const FormatHandler* handler : formats.handlers()) {
        for (const std::string& pattern : handler->fileDialogPatterns()) {
            patterns << QString::fromStdString(pattern);
        }
    }
    return OpenController::tr("Strata files (%1);;All files (*)").arg(patterns.join(u' '));
}

// "Could not open URL: why", naming the URL once (remote errors start with it already), never
// with its password or token.
QString urlOpenError(const QString& typed, const QString& error) {
    const QString url = model::shownUrl(typed);
    const QString prefix = url + QStringLiteral(": ");
    return OpenController::tr("Could not open %1: %2")
        .arg(url, error.startsWith(prefix) ? error.mid(prefix.size()) : error);
}

// The tab already showing the remote location `typed` names, or -1.
int tabShowingUrl(const QTabWidget& tabs, const QString& typed) {
    const QString location = model::remoteLocationText(typed);
    for (int i = 0; i < tabs.count(); ++i) {
        const auto* view = qobject_cast<const DocumentView*>(tabs.widget(i));
        if (view != nullptr && view->document()->isRemote() &&
            view->document()->path() == location) {
            return i;
        }
    }
    return -1;
}

}  // namespace

QString canonicalLocation(const QString& path) {
    if (model::isRemoteUrl(path)) {
        return path.trimmed();  // a URL names itself; the local file system knows nothing of it
    }
    const QFileInfo info(path);
    const QString c = info.canonicalFilePath();
    return c.isEmpty() ? info.absoluteFilePath() : c;
}

OpenController::OpenController(MainWindow& window) : QObject(&window), window_(window) {}

bool OpenController::openPath(const QString& path) {
    if (model::isRemoteUrl(path)) {
        return openUrl(path, model::RemoteOpenSettings::load());
    }
    if (const int open = tabShowing(path); open >= 0) {
        window_.tabs()->setCurrentIndex(open);
        return true;
    }
    if (model::Document::isPlainFolder(path, &window_.formats())) {
        window_.browser().browse(path);  // what is in it, validated as a background job
        return true;
    }
    QString error;
    std::unique_ptr<model::Document> document =
        model::Document::open(path, &error, &window_.formats());
    if (!document) {
        window_.showError(tr("Could not open %1: %2").arg(QDir::toNativeSeparators(path), error));
        return false;
    }
    return window_.showDocument(std::move(document));
}

int OpenController::tabShowing(const QString& path) const {
    if (model::isRemoteUrl(path)) {
        return tabShowingUrl(*window_.tabs(), path.trimmed());
    }
    const QString wanted = canonicalLocation(path);
    for (int i = 0; i < window_.documentCount(); ++i) {
        const model::Document* document = window_.viewAt(i)->document();
        if (!document->isRemote() && canonicalLocation(document->path()) == wanted) {
            return i;
        }
    }
    return -1;
}

bool OpenController::openUrl(const QString& url, const model::RemoteOpenSettings& settings) {
    // Over the network: the open runs as a job, and its outcome shows when it finishes.
    startOpenUrl(url, settings);
    return true;
}

model::Job* OpenController::startOpenUrl(const QString& url,
                                         const model::RemoteOpenSettings& settings) {
    const QString wanted = url.trimmed();
    if (const int open = tabShowingUrl(*window_.tabs(), wanted); open >= 0) {
        window_.tabs()->setCurrentIndex(open);
        return nullptr;
    }
    model::OpenUrlJob* job =
        model::startOpenUrl(*window_.jobRunner(), wanted, settings, &window_.formats());
    window_.statusBar()->showMessage(tr("Opening %1…").arg(model::shownUrl(wanted)), 5000);
    connect(job, &model::Job::finished, this, [this, job] {
        switch (job->state()) {
            case model::Job::State::Finished:
                if (job->isPlainFolder()) {
                    window_.browser().browse(job->url());
                } else if (std::unique_ptr<model::Document> document = job->takeDocument()) {
                    window_.showDocument(std::move(document));
                }
                break;
            case model::Job::State::Failed:
                window_.showError(urlOpenError(job->url(), job->errorText()));
                break;
            default:
                window_.statusBar()->showMessage(
                    tr("Opening %1 was cancelled.").arg(model::shownUrl(job->url())), 5000);
                break;
        }
    });
    return job;
}

void OpenController::openPaths(const QStringList& paths) {
    for (const QString& path : paths) {
        if (model::isRemoteUrl(path)) {
            startOpenUrl(path, model::RemoteOpenSettings::load());
        } else {
            openPath(path);
        }
    }
}

bool OpenController::reloadView(DocumentView* view) {
    if (view != nullptr && view->document()->isRemote()) {
        return reloadRemoteView(view) != nullptr;
    }
    return reopenView(view, {}, false);
}

// A remote document is opened again as a job; its tab is replaced when the new copy is open,
// and stays as it was when that fails.
model::Job* OpenController::reloadRemoteView(DocumentView* view) {
    QTabWidget* tabs = window_.tabs();
    if (tabs->indexOf(view) < 0) {
        return nullptr;
    }
    // The URL as it was typed: its password and token open it again.
    const QString url = view->document()->remoteUrl();
    const QPointer<DocumentView> old(view);
    const QVariantMap state = view->saveState();
    model::OpenUrlJob* job = model::startOpenUrl(
        *window_.jobRunner(), url, view->document()->remoteSettings(), &window_.formats());
    window_.statusBar()->showMessage(tr("Reloading %1…").arg(view->document()->path()), 5000);
    connect(job, &model::Job::finished, this, [this, tabs, job, old, state] {
        if (job->state() != model::Job::State::Finished) {
            if (job->state() == model::Job::State::Failed) {
                window_.showError(
                    tr("Cannot reload: %1").arg(urlOpenError(job->url(), job->errorText())));
            }
            return;
        }
        std::unique_ptr<model::Document> document = job->takeDocument();
        const int index = old ? tabs->indexOf(old) : -1;
        if (!document || index < 0) {
            return;  // the tab was closed meanwhile
        }
        window_.removeView(index);
        window_.showDocument(std::move(document));
        tabs->tabBar()->moveTab(tabs->currentIndex(), std::min(index, tabs->count() - 1));
        window_.currentView()->restoreState(state);
        window_.statusBar()->showMessage(tr("Reloaded %1").arg(model::shownUrl(job->url())), 5000);
    });
    return job;
}

bool OpenController::reopenView(DocumentView* view, const QString& newPath, bool afterSave) {
    QTabWidget* tabs = window_.tabs();
    const int index = tabs->indexOf(view);
    if (index < 0) {
        return false;
    }
    const QString path = newPath.isEmpty() ? view->document()->path() : newPath;
    const auto ending =
        newPath.isEmpty() ? SaveController::Ending::Reloading : SaveController::Ending::Closing;
    if (!window_.saves().confirmDiscard(view, !afterSave, ending)) {
        return false;  // the user kept their unsaved edits
    }
    const QVariantMap state = view->saveState();
    window_.removeView(index);
    if (!openPath(path)) {
        return false;
    }
    tabs->tabBar()->moveTab(tabs->currentIndex(), std::min(index, tabs->count() - 1));
    window_.currentView()->restoreState(state);
    if (afterSave) {
        window_.statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)), 5000);
    }
    return true;
}

void OpenController::openFileDialog() {
    openPaths(QFileDialog::getOpenFileNames(&window_, tr("Open File"), {},
                                            openDialogFilter(window_.formats())));
}

void OpenController::openUrlDialog() {
    OpenUrlDialog dialog(model::recentUrls(), model::RemoteOpenSettings::load(), &window_);
    if (dialog.exec() != QDialog::Accepted) {
        return;
    }
    const model::RemoteOpenSettings settings = dialog.settings();
    settings.save();
    startOpenUrl(dialog.url(), settings);
}

void OpenController::openFolderDialog() {
    const QString path = QFileDialog::getExistingDirectory(&window_, tr("Open Folder"));
    if (!path.isEmpty()) {
        openPath(path);
    }
}

// ---- recent files and URLs ----------------------------------------------------------------

void OpenController::setRecentMenu(QMenu* menu) {
    recentMenu_ = menu;
    rebuildRecentMenu();
}

QStringList OpenController::recentFiles() const {
    return QSettings().value(kRecentKey).toStringList();
}

void OpenController::rememberOpened(const QString& location, bool remote) {
    if (remote) {
        model::addRecentUrl(location);
    } else {
        QStringList recent = recentFiles();
        const QString absolute = QFileInfo(location).absoluteFilePath();
        recent.removeAll(absolute);
        recent.prepend(absolute);
        while (recent.size() > kMaxRecentFiles) {
            recent.removeLast();
        }
        QSettings().setValue(kRecentKey, recent);
    }
    rebuildRecentMenu();
}

void OpenController::forgetRecent(const QString& location) {
    if (model::isRemoteUrl(location)) {
        model::removeRecentUrl(location);
    } else {
        QStringList recent = recentFiles();
        recent.removeAll(location);
        QSettings().setValue(kRecentKey, recent);
    }
    rebuildRecentMenu();
}

void OpenController::rebuildRecentMenu() {
    emit recentChanged();
    if (recentMenu_ == nullptr) {
        return;
    }
    recentMenu_->clear();
    const QStringList recent = recentFiles();
    for (const QString& path : recent) {
        recentMenu_->addAction(QDir::toNativeSeparators(path), this,
                               [this, path] { openPath(path); });
    }
    // URLs after the files, opened in the background like File > Open URL….
    const QStringList urls = model::recentUrls();
    if (!recent.isEmpty() && !urls.isEmpty()) {
        recentMenu_->addSeparator();
    }
    for (const QString& url : urls) {
        recentMenu_->addAction(model::shownUrl(url), this, [this, url] { openPaths({url}); });
    }
    const bool any = !recent.isEmpty() || !urls.isEmpty();
    recentMenu_->setEnabled(any);
    if (any) {
        recentMenu_->addSeparator();
        recentMenu_->addAction(tr("&Clear List"), this, [this] {
            QSettings().remove(kRecentKey);
            model::clearRecentUrls();
            rebuildRecentMenu();
        });
    }
}

}  // namespace strata::gui
