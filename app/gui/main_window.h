// The main window: a tab per open document, docks for diagnostics, jobs, bookmarks and the
// entropy graph, menus and shortcuts, recent files, drag and drop, saved layout.
#pragma once

#include <QMainWindow>
#include <QPointer>
#include <QStringList>

#include <memory>

#include "model/repair/repair_job.h"

class QAction;
class QActionGroup;
class QDockWidget;
class QLabel;
class QMenu;
class QProgressBar;
class QTabWidget;
class QTimer;
class QUndoGroup;

namespace strata::model {
class Document;
struct RemoteOpenSettings;
class Job;
class Comparison;
class JobRunner;
}  // namespace strata::model

namespace strata::gui {

class CompareView;

class BookmarksPanel;
class DiagnosticsPanel;
class DocumentView;
class EntropyView;
class JobsPanel;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    static constexpr int kMaxRecentFiles = 10;

    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Opens a file or folder in a new tab (or switches to its tab when already open). Returns
    // false when it cannot be opened; the reason goes to a message box when interactive, to
    // the status bar and lastError() otherwise.
    // http://, https:// and s3:// URLs open read-only through openUrl with the S3 settings
    // last used in File > Open URL….
    bool openPath(const QString& path);
    // Opens a remote file read-only in a new tab (or switches to its tab), remembering the URL
    // among the recent ones. Errors name the URL, shown as for openPath.
    bool openUrl(const QString& url, const model::RemoteOpenSettings& settings);
    // The same as a background job (progress and cancel in the Jobs dock; the window stays
    // responsive while the server answers): File > Open URL…, URLs on the command line, in the
    // hand-over and dropped. The tab opens when the job finishes. Returns nullptr when the URL
    // is open already (its tab is shown).
    model::Job* startOpenUrl(const QString& url, const model::RemoteOpenSettings& settings);
    // Closes the document (asking about unsaved edits and text typed but not applied) and opens
    // its path again in the same tab position, showing the same tab, selection and scroll
    // positions: after a job wrote new files, or the files changed on disk. A remote document
    // is opened again as a job: true once it started; the tab is replaced when it finishes.
    bool reloadView(DocumentView* view);
    model::Job* reloadRemoteView(DocumentView* view);
    void openPaths(const QStringList& paths);
    QString lastError() const { return lastError_; }
    // Opens A and B and starts comparing them in a compare view, a window of its own; nullptr
    // (with the reason shown as for openPath) when either side cannot be opened.
    CompareView* compareFiles(const QString& a, const QString& b);
    // "Review Changes…": writes what Save would write for the current document to a scratch
    // folder and compares the files on disk with it in a compare view. Returns the writing job,
    // or nullptr (with the reason shown) when the document has nothing to review.
    model::Job* reviewChanges();
    // Tools > Repair…: plans a repair of the current document (a dry run, as a job), shows every
    // action and loss and asks (interactive windows only), then writes the repaired copy beside
    // it (`output`, or a free "-repaired" name) as a job and opens it in a new tab. Returns the
    // planning job, or nullptr (with the reason shown) when the format has no repair.
    // `recomputeDigests` (zTensor): plan and repair keeping tensors whose digest fails, with
    // new digests; the preview of a zTensor repair offers it too.
    model::Job* repairCurrent(const QString& output = {}, model::RepairChoices choices = {});

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
    DiagnosticsPanel* diagnosticsPanel() const { return diagnostics_; }
    JobsPanel* jobsPanel() const { return jobs_; }
    BookmarksPanel* bookmarksPanel() const { return bookmarks_; }
    QStringList recentFiles() const;

    // Saves the current document to `path` (the current file of the hex view). Returns an
    // error text or empty.
    QString saveCurrentAs(const QString& path);
    // File > Save a Local Copy…: writes the current document's file to `path` as a background
    // job (atomically: temp file beside it, fsync, rename); the tab stays on its document.
    model::Job* saveLocalCopy(const QString& path);
    // The status-bar indicator of the current remote document's requests, bytes and cache
    // hits (hidden for local documents), and the read-only mark.
    QLabel* networkIndicator() const { return networkLabel_; }
    QLabel* readOnlyIndicator() const { return readOnlyLabel_; }
    void updateNetworkStatus();
    // Saves through the document's format editor as a background job, after applying the text
    // typed into its editors (asking when that text cannot be applied); the tab then shows the
    // saved files, `path` after a Save As, as they looked. Returns the job, or nullptr when
    // nothing was started.
    model::Job* startEditorSave(DocumentView* view, const QString& path);
    // Processes events until no job runs (or the time is up); true when idle.
    bool waitUntilIdle(int timeoutMs);

public slots:
    void openFileDialog();
    void openFolderDialog();
    void openUrlDialog();
    void saveLocalCopyDialog();
    // "Compare With…": the current document against a file or folder the user picks.
    void compareWithDialog();
    void save();
    void saveAsDialog();
    bool closeTab(int index);
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
    // Opens the compare view between a damaged file and its repaired copy, where the format
    // can be compared.
    void compareRepair(const QString& damaged, const QString& repaired);
    // The repair itself, after its plan was accepted; the copy then opens beside the input.
    void runRepair(const QString& input, const QString& target, model::RepairChoices choices);
    // After a plan that saves nothing: whether to plan again recomputing digests.
    // `whatItKeeps`: the format's own words for it (FormatHandler::recomputeDigestsText).
    bool askToRecomputeDigests(const QString& why, const QString& whatItKeeps);
    CompareView* showComparison(std::unique_ptr<model::Comparison> comparison,
                                const QString& title);
    void createActions();
    void createMenus();
    void createDocks();
    void createStatusBar();
    void restoreSettings();
    void saveSettings() const;
    void addRecentFile(const QString& path);
    void rebuildRecentMenu();
    void onCurrentTabChanged();
    void updateStatus();
    void updateJobStatus();
    void updateActions();
    void updateTabTitle(DocumentView* view);
    // Asks about unsaved edits and (unless `askAboutText` is false) text typed but not applied,
    // before the view closes or reloads; false when the user keeps them.
    bool confirmDiscard(DocumentView* view, bool askAboutText = true);
    // A table or tree cell being edited (a zTensor attribute, ...) holds typed text its model has
    // not seen: takes the focus from its editor, so the delegate commits it as an edit.
    void commitOpenCellEditor();
    // Applies the text typed into the view's editors; when some cannot be applied, asks whether
    // to fix it (false), save without it (true) or cancel (false). Saved without it, the text
    // stays in its editor: the reopened view shows it again, and a tab that was `closing` stays
    // open with it (saveBeforeClosing).
    bool applyPendingText(DocumentView* view, bool closing);
    // Saves the view's edits before it closes; true once they are on disk and no typed text
    // is left (text saved without is kept, so the tab stays open).
    bool saveBeforeClosing(DocumentView* view);
    // After a save before closing left text that could not be applied: the tab stays open and
    // shows the saved files, with the text back in its editor.
    void keepOpenWithText(DocumentView* view);
    // Saves with the format's writer; `reopen` shows the saved files in the tab afterwards
    // (false: the tab is closing).
    model::Job* startFormatSave(DocumentView* view, const QString& path, bool reopen);
    // Opens the view's files again in its tab and restores its state; `afterSave` carries
    // text typed but not applied across without asking.
    bool reopenView(DocumentView* view, const QString& path, bool afterSave);
    void removeView(int index);
    void showError(const QString& text);
    bool showDocument(std::unique_ptr<model::Document> document);
    void showEntropy();

    model::JobRunner* runner_;
    QTabWidget* tabs_;
    QUndoGroup* undoGroup_;
    bool interactive_ = true;
    bool autoValidate_ = true;
    bool layoutRestored_ = false;
    bool firstShow_ = true;
    QString lastError_;

    DiagnosticsPanel* diagnostics_ = nullptr;
    JobsPanel* jobs_ = nullptr;
    BookmarksPanel* bookmarks_ = nullptr;
    EntropyView* entropy_ = nullptr;
    QDockWidget* diagnosticsDock_ = nullptr;
    QDockWidget* jobsDock_ = nullptr;
    QDockWidget* bookmarksDock_ = nullptr;
    QDockWidget* entropyDock_ = nullptr;

    QMenu* recentMenu_ = nullptr;
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

    QLabel* formatLabel_ = nullptr;
    QLabel* sizeLabel_ = nullptr;
    QLabel* cursorLabel_ = nullptr;
    QLabel* selectionLabel_ = nullptr;
    QLabel* jobLabel_ = nullptr;
    QLabel* readOnlyLabel_ = nullptr;
    QLabel* networkLabel_ = nullptr;
    QTimer* networkTimer_ = nullptr;
    QProgressBar* jobProgress_ = nullptr;
    QPointer<DocumentView> statusView_;
};

}  // namespace strata::gui
