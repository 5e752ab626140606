// Format-specific views. Once a document is open, its format adds its own tabs (header panel,
// record browser, tensor table, editors) to the DocumentView's centre, beside the hex view.
// Each format keeps its views in app/<format>/ and registers one install function here; this
// library names no format (the built-in list is app/gui/builtin_format_views.h).
#pragma once

#include <functional>
#include <utility>
#include <vector>

#include "formats/registry/format_handler.h"

namespace strata::gui {

class DocumentView;

class FormatViews {
public:
    using Install = std::function<void(DocumentView&)>;
    // The views of documents of `format`; a later registration for the same format replaces it.
    void add(FormatId format, Install install);
    // Installs the views registered for the view's document format (none: nothing).
    void install(DocumentView& view) const;

private:
    std::vector<std::pair<FormatId, Install>> installs_;
};

}  // namespace strata::gui
