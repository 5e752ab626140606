// The ZS views of a DocumentView and the ZS entries of File > New, registered with the
// window's FormatViews by app/gui/builtin_format_views.cpp.
#pragma once

namespace strata::gui {

class FormatViews;

// Registers the ZS tabs of documents of the ZS format (and its builders of new files).
void registerZsViews(FormatViews& views);

}  // namespace strata::gui
