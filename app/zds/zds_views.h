// The ZDS views of a DocumentView and the ZDS entries of File > New, registered with the
// window's FormatViews by app/gui/builtin_format_views.cpp.
#pragma once

namespace strata::gui {

class FormatViews;

// Registers the ZDS tabs of documents of the ZDS format (and its builders of new files).
void registerZdsViews(FormatViews& views);

}  // namespace strata::gui
