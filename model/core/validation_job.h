// Runs a document's validator in the background, streaming diagnostics into its
// DiagnosticsModel in batches.
#pragma once

#include "model/core/document.h"
#include "model/core/job_runner.h"

namespace strata::model {

// Clears document.diagnostics() and starts validating. Returns nullptr (and adds nothing) when
// the format has no validator. The job keeps the document's sources alive while it runs.
Job* startValidation(JobRunner& runner, Document& document);

}  // namespace strata::model
