// "Remove Leftovers…" of the Diagnostics panel: the temporary files and stage folders that
// validators reported as `*-LEFTOVER-*` (interrupted saves), checked again on disk, and their
// removal. Only the paths those diagnostics name are ever touched.
#pragma once

#include <QString>

#include <vector>

#include "formats/common/save_leftovers.h"

namespace strata::model {

class DiagnosticsModel;

struct LeftoverPlan {
    // No running process uses them: offered for removal.
    std::vector<strata::Leftover> removable;
    // A process still holds them (a save in progress), that cannot be told, or they hold data
    // an interrupted write moved out of its place: never removed.
    std::vector<strata::Leftover> kept;

    bool empty() const { return removable.empty() && kept.empty(); }
};

// The leftovers that the leftover diagnostics of `diagnostics` name, each classified again by
// its name and type and its use checked now; a path that is gone or no longer a leftover is
// dropped.
LeftoverPlan planLeftoverRemoval(const DiagnosticsModel& diagnostics);

// Whether `diagnostics` holds any leftover diagnostic (enables the panel's button).
bool hasLeftoverDiagnostics(const DiagnosticsModel& diagnostics);

// The confirmation text: each file or folder to remove with its size, then those kept and why.
QString leftoverRemovalQuestion(const LeftoverPlan& plan);

// Removes plan.removable (each checked once more just before) and says what happened, for the
// status bar.
QString removePlannedLeftovers(const LeftoverPlan& plan);

}  // namespace strata::model
