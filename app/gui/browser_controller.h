// The Browser dock of the main window: File > Open Folder or Bucket… scans a folder, an
// http(s):// listing or an s3:// prefix into the Browser pane, and the pane's entry actions
// (open, repair, compare, save a local copy) run through the window's own workflows on the
// entry once it is open in a tab.
#pragma once

#include <QObject>
#include <QString>

#include <functional>

class QDockWidget;

namespace strata::model {
class Job;
}

namespace strata::gui {

class BrowserPane;
class MainWindow;

class BrowserController : public QObject {
    Q_OBJECT
public:
    explicit BrowserController(MainWindow& window);

    BrowserPane* pane() const { return pane_; }
    QDockWidget* dock() const { return dock_; }
    // File > Open Folder or Bucket…: asks for a folder or URL, then browse().
    void openFolderOrBucketDialog();
    // Shows the Browser with the entries under `root` (a folder or a URL), validating them as
    // a background job (returned).
    model::Job* browse(const QString& root);

private:
    void onEntryAction(int action, const QString& location);
    // Opens `location` in a tab (or finds its tab), then runs `then` on it.
    void openThen(const QString& location, std::function<void()> then);

    MainWindow& window_;
    BrowserPane* pane_;
    QDockWidget* dock_;
};

}  // namespace strata::gui
