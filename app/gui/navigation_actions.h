// Go Back and Go Forward (Alt+Left / Alt+Right): through the current tab's selection history,
// as a browser's Back and Forward go through pages. Each document has its own history; the
// actions follow the tab shown and are enabled only when there is somewhere to go.
#pragma once

#include <QObject>
#include <QPointer>

class QAction;

namespace strata::gui {

class DocumentView;

class NavigationActions : public QObject {
    Q_OBJECT
public:
    explicit NavigationActions(QObject* parent);

    QAction* back() const { return back_; }
    QAction* forward() const { return forward_; }
    // Follows `view`'s history from now on (nullptr: no document, both disabled).
    void showView(DocumentView* view);

private:
    void update();

    QAction* back_;
    QAction* forward_;
    QPointer<DocumentView> view_;
    QMetaObject::Connection historyChanged_;
};

}  // namespace strata::gui
