// The views of the formats Strata is built with: the window's composition root, as
// formats/builtin/builtin_formats.h is for formats/.
#pragma once

#include "app/widgets/format_views.h"

namespace strata::gui {

const FormatViews& builtinFormatViews();

}  // namespace strata::gui
