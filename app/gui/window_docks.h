// The main window's docks: diagnostics, jobs, bookmarks and the entropy profile, tabbed at the
// bottom, each following the current document and leading back to its bytes.
#pragma once

#include <QObject>

class QDockWidget;
class QMenu;

namespace strata::gui {

class BookmarksPanel;
class DiagnosticsPanel;
class DocumentView;
class EntropyView;
class JobsPanel;
class MainWindow;

class WindowDocks : public QObject {
    Q_OBJECT
public:
    explicit WindowDocks(MainWindow& window);

    DiagnosticsPanel* diagnostics() const { return diagnostics_; }
    JobsPanel* jobs() const { return jobs_; }
    BookmarksPanel* bookmarks() const { return bookmarks_; }
    // View > the docks' show/hide toggles.
    void addToggles(QMenu* menu) const;

    // The current tab changed to `view` (nullptr: none).
    void showView(DocumentView* view);
    void raiseDiagnostics();
    void raiseJobs();
    void raiseBookmarks();
    // Shows the entropy dock with the current document's profile (computing it when asked).
    void raiseEntropy();
    // The current view's profile, or why there is none yet.
    void showEntropy();
    // First run: the bottom docks stay low so the hex view gets the height.
    void keepLow();

private:
    MainWindow& window_;
    DiagnosticsPanel* diagnostics_;
    JobsPanel* jobs_;
    BookmarksPanel* bookmarks_;
    EntropyView* entropy_;
    QDockWidget* diagnosticsDock_;
    QDockWidget* jobsDock_;
    QDockWidget* bookmarksDock_;
    QDockWidget* entropyDock_;
};

}  // namespace strata::gui
