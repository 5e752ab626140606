#include "format_views.h"

#include "document_view.h"
#include "model/core/document.h"

namespace strata::gui {

void installFormatViews(DocumentView& view) {
    switch (view.document()->format()) {
        case strata::FormatId::Zs:
            installZsViews(view);
            break;
        case strata::FormatId::Zds:
            installZdsViews(view);
            break;
        case strata::FormatId::Shardlake:
            installShardlakeViews(view);
            break;
        case strata::FormatId::Ozdf:
            installOzdfViews(view);
            break;
        case strata::FormatId::ZTensor:
            installZtensorViews(view);
            break;
        case strata::FormatId::RawBinary:
            break;
    }
}

}  // namespace strata::gui
