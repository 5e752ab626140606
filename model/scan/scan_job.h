// Scanning a folder, an http(s):// listing or an s3:// prefix as a background job: the scanner
// (formats/scan) runs on a worker and its entries reach a ScanListModel in batches on the GUI
// thread, so a listing of 100,000 entries fills the table without a stall. The job can be
// paused (nothing further is listed or read until it resumes); cancel stops the walk and the
// checks in flight; what was checked stays in the model.
#pragma once

#include <QPointer>
#include <QString>

#include "model/core/job_runner.h"
#include "model/core/remote_access.h"
#include "scan_list_model.h"

namespace strata {
class FormatRegistry;
}

namespace strata::model {

struct ScanJobOptions {
    unsigned jobs = 4;          // entries checked at once
    RemoteOpenSettings remote;  // for a URL root
};

// Scans `root` (a local folder or file, or a URL) with `formats` (null: the built-in ones) into
// `model`, which it clears first. A root that cannot be listed fails the job with why.
Job* startScan(JobRunner& runner, const QString& root, ScanListModel* model,
               const ScanJobOptions& options = {}, const strata::FormatRegistry* formats = nullptr);
// Checks the entry of `row` again (Validate Again) and puts its new result in the model.
Job* startRecheck(JobRunner& runner, ScanListModel* model, int row,
                  const ScanJobOptions& options = {},
                  const strata::FormatRegistry* formats = nullptr);

}  // namespace strata::model
