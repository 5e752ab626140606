// Format-specific views. Once a document is open, its format adds its own tabs (header panel,
// record browser, tensor table, editors) to the DocumentView's centre, beside the hex view.
// Each format keeps its views in app/<format>/ and exposes one install function here.
#pragma once

namespace strata::gui {

class DocumentView;

// Calls the install function of the view's document format (none for raw binaries).
void installFormatViews(DocumentView& view);

void installZsViews(DocumentView& view);
void installZdsViews(DocumentView& view);
void installShardlakeViews(DocumentView& view);
void installOzdfViews(DocumentView& view);
void installZtensorViews(DocumentView& view);

}  // namespace strata::gui
