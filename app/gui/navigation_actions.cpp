#include "navigation_actions.h"

#include <QAction>

#include "app/widgets/document_view.h"
#include "app/widgets/selection_navigator.h"
#include "model/core/document.h"

namespace strata::gui {
namespace {

// The platform's keys, with Alt+Left / Alt+Right wherever the platform lists others.
QList<QKeySequence> keysFor(QKeySequence::StandardKey key, QKeySequence always) {
    QList<QKeySequence> keys = QKeySequence::keyBindings(key);
    if (!keys.contains(always)) {
        keys.prepend(always);
    }
    return keys;
}

}  // namespace

NavigationActions::NavigationActions(QObject* parent)
    : QObject(parent),
      back_(new QAction(tr("Go Bac&k"), this)),
      forward_(new QAction(tr("Go For&ward"), this)) {
    back_->setObjectName(QStringLiteral("GoBackAction"));
    back_->setShortcuts(keysFor(QKeySequence::Back, QKeySequence(Qt::ALT | Qt::Key_Left)));
    back_->setToolTip(tr("Go back to the previous selection (Alt+Left)"));
    forward_->setObjectName(QStringLiteral("GoForwardAction"));
    forward_->setShortcuts(keysFor(QKeySequence::Forward, QKeySequence(Qt::ALT | Qt::Key_Right)));
    forward_->setToolTip(tr("Go forward to the next selection (Alt+Right)"));
    connect(back_, &QAction::triggered, this, [this] {
        if (view_) {
            view_->navigator()->goBack();
        }
    });
    connect(forward_, &QAction::triggered, this, [this] {
        if (view_) {
            view_->navigator()->goForward();
        }
    });
    update();
}

void NavigationActions::showView(DocumentView* view) {
    disconnect(historyChanged_);
    view_ = view;
    if (view != nullptr) {
        historyChanged_ =
            connect(view->document()->selectionHistory(), &model::SelectionHistory::changed, this,
                    &NavigationActions::update);
    }
    update();
}

void NavigationActions::update() {
    const model::SelectionHistory* history =
        view_ ? view_->document()->selectionHistory() : nullptr;
    back_->setEnabled(history != nullptr && history->canGoBack());
    forward_->setEnabled(history != nullptr && history->canGoForward());
}

}  // namespace strata::gui
