#include "format_views.h"

#include <algorithm>

#include "document_view.h"
#include "model/core/document.h"

namespace strata::gui {

void FormatViews::add(FormatId format, Install install) {
    const auto same = [format](const auto& entry) { return entry.first == format; };
    installs_.erase(std::remove_if(installs_.begin(), installs_.end(), same), installs_.end());
    installs_.emplace_back(format, std::move(install));
}

void FormatViews::install(DocumentView& view) const {
    const FormatId format = view.document()->format();
    for (const auto& [registered, install] : installs_) {
        if (registered == format) {
            install(view);
            return;
        }
    }
}

void FormatViews::addNewFile(FormatId format, QString label, NewFile run) {
    newFiles_.push_back({format, std::move(label), std::move(run)});
}

}  // namespace strata::gui
