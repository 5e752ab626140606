// The OZDF views of a DocumentView and the OZDF entries of File > New, registered with the
// window's FormatViews by app/gui/builtin_format_views.cpp.
#pragma once

namespace strata::gui {

class FormatViews;

// Registers the OZDF tabs of documents of the OZDF format (and its builders of new files).
void registerOzdfViews(FormatViews& views);

}  // namespace strata::gui
