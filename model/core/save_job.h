// Saving a large file in the background: the whole edited file is copied in chunks with
// progress and can be cancelled, leaving the target as it was.
#pragma once

#include "model/core/document.h"
#include "model/core/job_runner.h"

namespace strata::model {

// Writes the primary file's edited bytes (as they are now: later edits are not included) to
// `path`. When it finishes, the document is marked clean unless it was edited meanwhile.
// Returns nullptr when the document has no file.
Job* startSaveAs(JobRunner& runner, Document& document, const QString& path);

// File > Save a Local Copy…: downloads (or copies) the primary file, as edited, to `path`
// through a temp file beside it that is fsynced and renamed (never a half file under `path`).
// The document itself is unchanged: a remote document stays open on its URL. Cancel stops a
// read waiting on the network too. Returns nullptr when the document has no file.
Job* startLocalCopy(JobRunner& runner, Document& document, const QString& path);

}  // namespace strata::model
