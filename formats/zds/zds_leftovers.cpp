#include "zds_leftovers.h"

namespace strata::zds {

LeftoverScan zdsLeftoverScan() {
    LeftoverScan scan;
    scan.kinds = static_cast<unsigned>(LeftoverKind::TempFile) |
                 static_cast<unsigned>(LeftoverKind::StageFolder);
    scan.depth = 3;  // collections/<name>/meta
    scan.descend = [](const std::filesystem::path& relative) {
        // `docs/` of a collection, not a collection named "docs".
        return relative.filename() != "docs" || relative.parent_path().filename() == "collections";
    };
    return scan;
}

void reportZdsLeftovers(const std::filesystem::path& dataset, DiagnosticSink& sink) {
    reportSaveLeftovers(dataset, "ZDS", zdsLeftoverScan(), sink);
}

}  // namespace strata::zds
