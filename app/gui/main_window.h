// The main window: a tab per open document, docks for diagnostics, jobs, bookmarks and the
// entropy graph, menus and shortcuts, drag and drop, saved layout. It arranges; the workflows
// behind its menus live in controllers: opening (OpenController), saving and the questions
// before closing (SaveController), repair (RepairController) and comparisons
// (CompareController).
#pragma once

#include <QMainWindow>
#include <QStringList>

#include <memory>

#include "app/widgets/format_views.h"
#include "browser_controller.h"
#include "compare_controller.h"
#include "model/repair/repair_job.h"
#include "open_controller.h"
#include "repair_controller.h"
#include "save_controller.h"
#include "window_docks.h"
#include "window_status_bar.h"

class QAction;
class QActionGroup;
class QLabel;
class QStackedWidget;
class QTabWidget;
class QToolBar;
class QUndoGroup;

namespace strata {
class FormatRegistry;
}

namespace strata::model {
class Document;
struct RemoteOpenSettings;
class Job;
class JobRunner;
}  // namespace strata::model

namespace strata::gui {

class DocumentView;
class NavigationActions;
class StartPage;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    // A window over the built-in formats and their views.
    explicit MainWindow(QWidget* parent = nullptr);
    // A window over `formats` and `views` (both outlive it): a format registered from outside
    // gets opening, validation, its views, File > New and compare through them alone.
    MainWindow(const FormatRegistry& formats, const FormatViews& views, QWidget* parent = nullptr);
    ~MainWindow() override;

    const FormatRegistry& formats() const { return formats_; }
    const FormatViews& views() const { return views_; }

    OpenController& opener() { return *opener_; }
    SaveController& saves() { return *saves_; }
    RepairController& repairs() { return *repairs_; }
    CompareController& comparisons() { return *comparisons_; }
    BrowserController& browser() { return *browser_; }

    // Opens a file or folder in a new tab (or switches to its tab when already open). Returns
    // false when it cannot be opened; the reason goes to a message box when interactive, to
    // the status bar and lastError() otherwise.
    // http://, https:// and s3:// URLs open read-only through openUrl with the S3 settings
    // last used in File > Open URL….
    bool openPath(const QString& path) { return opener_->openPath(path); }
    // Starts opening a remote file or folder read-only as a job (startOpenUrl), or switches to
    // its tab; returns true: the tab, or the error naming the URL (shown as for openPath),
    // comes when the job finishes (waitUntilIdle waits for it).
    bool openUrl(const QString& url, const model::RemoteOpenSettings& settings) {
        return opener_->openUrl(url, settings);
    }
    // The same as a background job (progress and cancel in the Jobs dock; the window stays
    // responsive while the server answers): File > Open URL…, URLs on the command line, in the
    // hand-over and dropped. The tab opens when the job finishes. Returns nullptr when the URL
    // is open already (its tab is shown).
    model::Job* startOpenUrl(const QString& url, const model::RemoteOpenSettings& settings) {
        return opener_->startOpenUrl(url, settings);
    }
    // Closes the document (asking about unsaved edits and text typed but not applied) and opens
    // its path again in the same tab position, showing the same tab, selection and scroll
    // positions: after a job wrote new files, or the files changed on disk. A remote document
    // is opened again as a job: true once it started; the tab is replaced when it finishes.
    bool reloadView(DocumentView* view) { return opener_->reloadView(view); }
    model::Job* reloadRemoteView(DocumentView* view) { return opener_->reloadRemoteView(view); }
    void openPaths(const QStringList& paths) { opener_->openPaths(paths); }
    QStringList recentFiles() const { return opener_->recentFiles(); }
    QString lastError() const { return lastError_; }
    // Opens A and B (files, folders or URLs, with the S3 settings last used) as a job, then
    // compares them in a compare view, a window of its own (comparisons().shown tells which);
    // when either side cannot be opened, the reason is shown as for openPath.
    model::Job* compareFiles(const QString& a, const QString& b);
    // "Review Changes…": writes what Save would write for the current document to a scratch
    // folder and compares the files on disk with it in a compare view. Returns the writing job,
    // or nullptr (with the reason shown) when the document has nothing to review.
    model::Job* reviewChanges() { return comparisons_->reviewChanges(); }
    // Tools > Repair…: plans a repair of the current document (a dry run, as a job), shows every
    // action and loss and asks (interactive windows only), then writes the repaired copy beside
    // it (`output`, or a free "-repaired" name) as a job and opens it in a new tab. Returns the
    // planning job, or nullptr (with the reason shown) when the format has no repair.
    // `choices.recomputeDigests`: plan and repair keeping what fails its digest, with new
    // digests; the preview of such a repair offers it too.
    model::Job* repairCurrent(const QString& output = {}, model::RepairChoices choices = {}) {
        return repairs_->repairCurrent(output, choices);
    }
    // Saves the current document to `path` (the current file of the hex view). Returns an
    // error text or empty.
    QString saveCurrentAs(const QString& path) { return saves_->saveCurrentAs(path); }
    // File > Save a Local Copy…: writes the current document's file to `path` as a background
    // job (atomically: temp file beside it, fsync, rename); the tab stays on its document.
    model::Job* saveLocalCopy(const QString& path) { return saves_->saveLocalCopy(path); }
    // Saves through the document's format editor as a background job, after applying the text
    // typed into its editors (asking when that text cannot be applied); the tab then shows the
    // saved files, `path` after a Save As, as they looked. Returns the job, or nullptr when
    // nothing was started.
    model::Job* startEditorSave(DocumentView* view, const QString& path) {
        return saves_->startEditorSave(view, path);
    }

    // Non-interactive windows (tests, --screenshot) never open modal dialogs.
    void setInteractive(bool interactive) { interactive_ = interactive; }
    bool isInteractive() const { return interactive_; }
    // Validate each document as soon as it is opened (default on, saved in QSettings).
    void setAutoValidate(bool on);
    bool autoValidate() const { return autoValidate_; }

    model::JobRunner* jobRunner() const { return runner_; }
    QTabWidget* tabs() const { return tabs_; }
    int documentCount() const;
    DocumentView* currentView() const;
    DocumentView* viewAt(int index) const;
    QUndoGroup* undoGroup() const { return undoGroup_; }
    DiagnosticsPanel* diagnosticsPanel() const { return docks_->diagnostics(); }
    JobsPanel* jobsPanel() const { return docks_->jobs(); }
    BookmarksPanel* bookmarksPanel() const { return docks_->bookmarks(); }

    // The status-bar indicator of the current remote document's requests, bytes and cache
    // hits (hidden for local documents), and the read-only mark.
    QLabel* networkIndicator() const { return status_->networkIndicator(); }
    QLabel* readOnlyIndicator() const { return status_->readOnlyIndicator(); }
    // Processes events until no job runs (or the time is up); true when idle.
    bool waitUntilIdle(int timeoutMs);

    // What the controllers arrange their results with.
    // A new tab for `document` (a remote one already open in a tab: that tab is shown).
    bool showDocument(std::unique_ptr<model::Document> document);
    void removeView(int index);
    void updateTabTitle(DocumentView* view);
    // The reason in a message box (interactive windows), the status bar and lastError().
    void showError(const QString& text);
    void showJobs();

public slots:
    bool closeTab(int index);
    void save() { saves_->save(); }
    void goToOffsetDialog();
    void addBookmark();
    void validateCurrent();
    void find();
    void findNext();
    void findPrevious();
    // Brings the window to the front (a second `strata FILE` handed its paths over).
    void raiseWindow();

protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void createActions();
    void createMenus();
    void restoreSettings();
    void saveSettings() const;
    void onCurrentTabChanged();
    void updateActions();

    const FormatRegistry& formats_;
    const FormatViews& views_;
    model::JobRunner* runner_;
    QTabWidget* tabs_;
    QStackedWidget* centre_ = nullptr;
    StartPage* startPage_ = nullptr;
    QToolBar* toolBar_ = nullptr;
    QUndoGroup* undoGroup_;
    OpenController* opener_;
    SaveController* saves_;
    RepairController* repairs_;
    CompareController* comparisons_;
    BrowserController* browser_ = nullptr;
    WindowStatusBar* status_ = nullptr;
    WindowDocks* docks_ = nullptr;
    NavigationActions* navigation_ = nullptr;
    bool interactive_ = true;
    bool autoValidate_ = true;
    bool firstShow_ = true;
    QString lastError_;

    QAction* saveAction_ = nullptr;
    QAction* saveAsAction_ = nullptr;
    QAction* localCopyAction_ = nullptr;
    QAction* computeEntropyAction_ = nullptr;
    QAction* repairAction_ = nullptr;
    QAction* reviewAction_ = nullptr;
    QAction* closeAction_ = nullptr;
    QAction* undoAction_ = nullptr;
    QAction* redoAction_ = nullptr;
    QAction* copyAction_ = nullptr;
    QAction* copyHexAction_ = nullptr;
    QAction* copyTextAction_ = nullptr;
    QAction* copyCArrayAction_ = nullptr;
    QAction* findAction_ = nullptr;
    QAction* findNextAction_ = nullptr;
    QAction* findPreviousAction_ = nullptr;
    QAction* goToAction_ = nullptr;
    QAction* bookmarkAction_ = nullptr;
    QAction* validateAction_ = nullptr;
    QAction* overwriteAction_ = nullptr;
    QActionGroup* widthGroup_ = nullptr;
};

}  // namespace strata::gui
