// The ZDS views of a DocumentView, registered with the window's FormatViews by
// app/gui/builtin_format_views.cpp.
#pragma once

namespace strata::gui {

class DocumentView;

// Adds the ZDS tabs to a view whose document is ZDS.
void installZdsViews(DocumentView& view);

}  // namespace strata::gui
