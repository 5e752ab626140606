// The ZS tabs of a DocumentView.
#include "app/gui/document_view.h"
#include "app/gui/format_views.h"

namespace strata::gui {

void installZsViews(DocumentView& view) {
    (void)view;
}

}  // namespace strata::gui
