// Background jobs of the zTensor views: digest verification (the validator's checks, mapped
// back to tensors) and the statistics of one tensor.
#pragma once

#include <QString>

#include <memory>
#include <optional>
#include <vector>

#include "formats/ztensor/zt_file.h"
#include "model/core/job.h"
#include "model/core/job_runner.h"
#include "model/ztensor/zt_stats.h"

namespace strata::model {

// Unknown: not verified yet; None: the tensor has no digests.
enum class ZtDigestStatus { Unknown, None, Ok, Bad };

class ZtDigestJob : public Job {
    Q_OBJECT
public:
    using Job::Job;
    // One per tensor of the file; filled just before finished() when the job completes.
    const std::vector<ZtDigestStatus>& statuses() const { return statuses_; }
    // Diagnostics of the run (digest mismatches and everything else the validator found).
    const std::vector<strata::Diagnostic>& diagnostics() const { return diagnostics_; }

private:
    friend Job* startZtDigestVerification(JobRunner&,
                                          std::shared_ptr<const strata::ztensor::ZtFile>);
    std::vector<ZtDigestStatus> statuses_;
    std::vector<strata::Diagnostic> diagnostics_;
};

// Runs the zTensor validator (digests, zstd frames, sparse structure) over every component.
// A tensor is Bad when a digest of one of its components does not match or cannot be read.
Job* startZtDigestVerification(JobRunner& runner,
                               std::shared_ptr<const strata::ztensor::ZtFile> file);

// The per-tensor digest statuses that `diagnostics` imply (exposed for tests).
std::vector<ZtDigestStatus> ztDigestStatuses(const strata::ztensor::ZtFile& file,
                                             const std::vector<strata::Diagnostic>& diagnostics);

class ZtStatsJob : public Job {
    Q_OBJECT
public:
    using Job::Job;
    std::size_t tensor() const { return tensor_; }
    // Set just before finished() when the job completes.
    const std::optional<ZtStats>& stats() const { return stats_; }

private:
    friend Job* startZtStats(JobRunner&, std::shared_ptr<const strata::ztensor::ZtFile>,
                             std::size_t, int);
    std::size_t tensor_ = 0;
    std::optional<ZtStats> stats_;
};

// Statistics and a `bins`-bin histogram of tensor `tensor`.
Job* startZtStats(JobRunner& runner, std::shared_ptr<const strata::ztensor::ZtFile> file,
                  std::size_t tensor, int bins = 64);

}  // namespace strata::model
