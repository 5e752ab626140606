// The zTensor views of a DocumentView and the zTensor entries of File > New, registered with the
// window's FormatViews by app/gui/builtin_format_views.cpp.
#pragma once

namespace strata::gui {

class FormatViews;

// Registers the zTensor tabs of documents of the zTensor format (and its builders of new files).
void registerZtensorViews(FormatViews& views);

}  // namespace strata::gui
