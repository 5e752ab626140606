// The ZS views of a DocumentView, registered with the window's FormatViews by
// app/gui/builtin_format_views.cpp.
#pragma once

namespace strata::gui {

class DocumentView;

// Adds the ZS tabs to a view whose document is ZS.
void installZsViews(DocumentView& view);

}  // namespace strata::gui
