#include "selection_navigator.h"

#include <QScopedValueRollback>

#include "document_view.h"
#include "model/core/document.h"
#include "model/core/selection_location.h"

namespace strata::gui {

SelectionNavigator::SelectionNavigator(DocumentView& view) : QObject(&view), view_(view) {
    recordCurrent(model::SelectionMove::Jump);
    connect(&view, &DocumentView::selectionMoved, this, &SelectionNavigator::recordCurrent);
}

model::SelectionHistory& SelectionNavigator::history() const {
    return *view_.document()->selectionHistory();
}

bool SelectionNavigator::goBack() {
    return show(true);
}

bool SelectionNavigator::goForward() {
    return show(false);
}

void SelectionNavigator::recordCurrent(model::SelectionMove move) {
    const model::ByteOverlay* file = view_.currentFile();
    if (replaying_ || file == nullptr) {
        return;
    }
    const HexView* hex = view_.hexView();
    const quint64 length = hex->hasSelection() ? hex->selectionLength() : 0;
    history().record(
        model::locationOf(file->source(), hex->selectionStart(), length, view_.currentNode()),
        move);
}

bool SelectionNavigator::show(bool back) {
    const std::optional<model::SelectionLocation> location =
        back ? history().goBack() : history().goForward();
    if (!location) {
        return false;
    }
    const std::optional<model::ResolvedLocation> place =
        model::resolveLocation(*view_.document(), *location);
    if (place) {
        // The view reports the selection it makes as a pick: it is the entry gone to already.
        const QScopedValueRollback replaying(replaying_, true);
        view_.selectRegion({&place->file->source(), place->offset, place->length}, place->node);
    }
    return true;
}

}  // namespace strata::gui
