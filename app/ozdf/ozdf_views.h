// The OZDF views of a DocumentView, registered with the window's FormatViews by
// app/gui/builtin_format_views.cpp.
#pragma once

namespace strata::gui {

class DocumentView;

// Adds the OZDF tabs to a view whose document is OZDF.
void installOzdfViews(DocumentView& view);

}  // namespace strata::gui
