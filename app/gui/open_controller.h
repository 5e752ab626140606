// Opening documents into the main window's tabs: files and folders, URLs (as jobs, so a slow
// server never freezes the window), the Open dialogs, opening a tab again after its files
// changed, and the recent files and URLs.
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>

class QMenu;

namespace strata::model {
class Job;
struct RemoteOpenSettings;
}  // namespace strata::model

namespace strata::gui {

class DocumentView;
class MainWindow;

// The path a document is known by: canonical for local files, the URL as typed (trimmed) for
// remote ones. Two tabs never show the same location.
QString canonicalLocation(const QString& path);

class OpenController : public QObject {
    Q_OBJECT
public:
    static constexpr int kMaxRecentFiles = 10;

    explicit OpenController(MainWindow& window);

    // See MainWindow::openPath, openUrl, startOpenUrl, reloadView and reloadRemoteView.
    bool openPath(const QString& path);
    bool openUrl(const QString& url, const model::RemoteOpenSettings& settings);
    model::Job* startOpenUrl(const QString& url, const model::RemoteOpenSettings& settings);
    void openPaths(const QStringList& paths);
    // The tab showing `path` (a local path in any spelling, or a URL), or -1.
    int tabShowing(const QString& path) const;
    bool reloadView(DocumentView* view);
    model::Job* reloadRemoteView(DocumentView* view);
    // Opens the view's files (or `newPath`) again in its tab and restores its state;
    // `afterSave` carries text typed but not applied across without asking.
    bool reopenView(DocumentView* view, const QString& newPath, bool afterSave);

    void openFileDialog();
    void openFolderDialog();
    void openUrlDialog();

    // File > Open Recent: the menu filled with the recent files, then the recent URLs.
    void setRecentMenu(QMenu* menu);
    QStringList recentFiles() const;
    // A document was shown in a tab: it goes first in the recent list.
    void rememberOpened(const QString& location, bool remote);
    // Takes a file or URL off the recent lists.
    void forgetRecent(const QString& location);

signals:
    // The recent files or URLs changed.
    void recentChanged();

private:
    void rebuildRecentMenu();

    MainWindow& window_;
    QMenu* recentMenu_ = nullptr;
};

}  // namespace strata::gui
