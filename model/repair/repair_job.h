// Runs a repair (formats/registry/format_repair.h) as a background job: first as a dry run for
// the preview of every action and loss, then for real. The result arrives on the GUI thread.
#pragma once

#include <QString>

#include <functional>
#include <memory>

#include "formats/common/repair.h"
#include "model/core/job_runner.h"

namespace strata::model {

// `report` is null when the repair gave up; `error` then says why.
using RepairDone =
    std::function<void(std::shared_ptr<const strata::RepairReport> report, const QString& error)>;

// `recomputeDigests`: zTensor only; keeps tensors whose digest fails with new digests (see
// RepairOptions::recomputeDigests).
Job* startRepair(JobRunner& runner, const QString& input, const QString& output, bool dryRun,
                 RepairDone done, bool recomputeDigests = false);

// A free name beside `input` for its repaired copy: "name-repaired.ext", then "-repaired-2"...
// (free: neither it nor a quarantine beside it exists); a folder keeps its whole name, dots
// included: "NAME-repaired".
QString suggestedRepairPath(const QString& input);

// The report for a person: a summary line, then one line per action and per loss.
QString repairReportText(const strata::RepairReport& report);

}  // namespace strata::model
