// JSONL export and import of OZDF corpora as background jobs (the app's Export JSONL… and
// Import JSONL…, the same conversion as `strata-cli ozdf export|import`).
#pragma once

#include <QString>

#include "model/core/job.h"
#include "model/core/job_runner.h"
#include "model/ozdf/ozdf_session.h"

namespace strata::model {

// Writes a snapshot of the session's documents to `jsonlPath` (atomically), one per line.
Job* startOzdfExport(JobRunner& runner, const OzdfSession& session, const QString& jsonlPath);

// Reads `jsonlPath` and writes its documents as a new corpus in `folder`, which must not exist
// or be empty. A line the import refuses fails the job and nothing is written.
Job* startOzdfImport(JobRunner& runner, const QString& jsonlPath, const QString& folder);

}  // namespace strata::model
