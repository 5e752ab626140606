// The Shardlake views of a DocumentView and the Shardlake entries of File > New, registered with
// the window's FormatViews by app/gui/builtin_format_views.cpp.
#pragma once

namespace strata::gui {

class FormatViews;

// Registers the Shardlake tabs of documents of the Shardlake format (and its builders of new
// files).
void registerShardlakeViews(FormatViews& views);

}  // namespace strata::gui
