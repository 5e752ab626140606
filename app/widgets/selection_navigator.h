// Go Back and Go Forward in a document view: records each place the user goes in the view
// (DocumentView::selectionMoved) into its document's selection history, and shows the place an
// entry recorded when going back or forward to it, without recording that as a new place.
#pragma once

#include <QObject>

#include "model/core/selection_history.h"

namespace strata::gui {

class DocumentView;

class SelectionNavigator : public QObject {
    Q_OBJECT
public:
    // Records where `view` is now as the first place; `view` owns the navigator.
    explicit SelectionNavigator(DocumentView& view);

    model::SelectionHistory& history() const;
    // Show the place before (after) the current one; false when there is none.
    bool goBack();
    bool goForward();

private:
    void recordCurrent(model::SelectionMove move);
    bool show(bool back);

    DocumentView& view_;
    bool replaying_ = false;
};

}  // namespace strata::gui
