// The main window's status bar: the current document's format, size, cursor and selection,
// the running job with its progress, and for a remote document the read-only mark and its
// requests, bytes and cache hits (refreshed while it is shown).
#pragma once

#include <QObject>
#include <QPointer>

class QLabel;
class QProgressBar;
class QStatusBar;
class QTimer;

namespace strata::model {
class JobRunner;
}

namespace strata::gui {

class DocumentView;

class WindowStatusBar : public QObject {
    Q_OBJECT
public:
    WindowStatusBar(QStatusBar* bar, model::JobRunner* runner, QObject* parent);

    // Shows `view`'s state (nullptr: no document).
    void showView(DocumentView* view);
    // The shown view's cursor or selection moved.
    void updateCursor();
    QLabel* networkIndicator() const { return networkLabel_; }
    QLabel* readOnlyIndicator() const { return readOnlyLabel_; }

private:
    void updateNetwork();
    void updateJob();

    QStatusBar* bar_;
    model::JobRunner* runner_;
    QPointer<DocumentView> view_;
    QLabel* formatLabel_;
    QLabel* sizeLabel_;
    QLabel* cursorLabel_;
    QLabel* selectionLabel_;
    QLabel* jobLabel_;
    QLabel* readOnlyLabel_;
    QLabel* networkLabel_;
    QTimer* networkTimer_;
    QProgressBar* jobProgress_;
};

}  // namespace strata::gui
