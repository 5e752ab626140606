// The Shardlake views of a DocumentView, registered with the window's FormatViews by
// app/gui/builtin_format_views.cpp.
#pragma once

namespace strata::gui {

class DocumentView;

// Adds the Shardlake tabs to a view whose document is Shardlake.
void installShardlakeViews(DocumentView& view);

}  // namespace strata::gui
