// What killed ZDS writes leave behind: stage folders (`.strata-stage-PID` inside a dataset,
// `.NAME.strata-stage-PID` beside a single collection, a `.zds` archive or an unpack target)
// and AtomicFile temporaries (`zds.json`, `meta/index.bin`). Codes `ZDS-LEFTOVER-STAGE` and
// `ZDS-LEFTOVER-TEMP`, listed in docs/formats-zds.md.
#pragma once

#include <filesystem>

#include "formats/common/diagnostic.h"
#include "formats/common/save_leftovers.h"

namespace strata::zds {

// Beside the dataset and inside it down to `collections/<name>/meta/`, never into `docs/`
// (writers only write documents inside a stage folder).
LeftoverScan zdsLeftoverScan();

void reportZdsLeftovers(const std::filesystem::path& dataset, DiagnosticSink& sink);

}  // namespace strata::zds
