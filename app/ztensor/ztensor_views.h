// The zTensor views of a DocumentView, registered with the window's FormatViews by
// app/gui/builtin_format_views.cpp.
#pragma once

namespace strata::gui {

class DocumentView;

// Adds the zTensor tabs to a view whose document is zTensor.
void installZtensorViews(DocumentView& view);

}  // namespace strata::gui
