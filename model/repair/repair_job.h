// Runs a repair (FormatRegistry::repair) as a background job: first as a dry run for
// the preview of every action and loss, then for real. The result arrives on the GUI thread.
#pragma once

#include <QString>

#include <cstddef>
#include <functional>
#include <limits>
#include <memory>
#include <vector>

#include "formats/common/repair.h"
#include "formats/registry/format_registry.h"
#include "model/core/job_runner.h"

namespace strata::model {

// `report` is null when the repair gave up; `error` then says why.
using RepairDone =
    std::function<void(std::shared_ptr<const strata::RepairReport> report, const QString& error)>;

// What the user chose beyond the defaults (see RepairOptions): zTensor digests and Shardlake
// fingerprints recomputed, ZDS superseded lines kept.
struct RepairChoices {
    bool recomputeDigests = false;
    bool keepSuperseded = false;
};

// Repairs `input`, open as `format`, with that format's planner in `formats` (which outlives
// the job): no second detection. The plan (dryRun) and the repair each read the input once;
// the repair reads it again rather than trusting the plan, as the files may have changed while
// the user read the preview.
Job* startRepair(JobRunner& runner, const strata::FormatRegistry& formats, strata::FormatId format,
                 const QString& input, const QString& output, bool dryRun, RepairDone done,
                 RepairChoices choices = {});

// Planning again with another choice, as offered beside a plan's preview.
enum class RepairReplan { RecomputeDigests, KeepSuperseded };

// The replans that could change `plan` (made with `choices`), as the plan itself says:
// recomputing digests when that keeps more (RepairReport::recomputingDigestsKeepsMore: a
// zTensor plan that loses anything, a Shardlake plan that loses a shard for want of a matching
// fingerprint); keeping superseded lines when a plan leaves some out (supersededLeftOut, ZDS).
std::vector<RepairReplan> repairReplans(const strata::RepairReport& plan,
                                        const RepairChoices& choices);

// A free name beside `input` for its repaired copy: "name-repaired.ext", then "-repaired-2"...
// (free: neither it nor a quarantine beside it exists); a folder keeps its whole name, dots
// included: "NAME-repaired".
// `formats` (null: the built-in formats) say where each puts a quarantine.
QString suggestedRepairPath(const QString& input, const strata::FormatRegistry* formats = nullptr);

// The report for a person: a summary line, then one line per loss and per action, at most
// `maxSteps` of them (then a line saying how many more there are).
QString repairReportText(const strata::RepairReport& report,
                         std::size_t maxSteps = std::numeric_limits<std::size_t>::max());

}  // namespace strata::model
