#include "zt_tensor_jobs.h"

#include <QPointer>

#include <mutex>

#include "formats/ztensor/zt_digest.h"
#include "formats/ztensor/zt_validator.h"

namespace strata::model {

std::vector<ZtDigestStatus> ztDigestStatuses(const ztensor::ZtFile& file,
                                             const std::vector<Diagnostic>& diagnostics) {
    std::vector<ZtDigestStatus> out(file.tensors().size(), ZtDigestStatus::None);
    for (std::size_t t = 0; t < file.tensors().size(); ++t) {
        for (std::size_t c : file.tensors()[t].components) {
            const ztensor::ZtComponent& component = file.components()[c];
            if (!component.digest) {
                continue;
            }
            const bool usable = ztensor::parseZtDigest(*component.digest).usable();
            out[t] = !usable ? ZtDigestStatus::Bad
                             : (out[t] == ZtDigestStatus::Bad ? out[t] : ZtDigestStatus::Ok);
        }
    }
    for (const Diagnostic& d : diagnostics) {
        if (d.code != "ZT-DIGEST" || d.regions.empty()) {
            continue;
        }
        for (const ztensor::ZtComponent& component : file.components()) {
            if (component.data == d.regions.front() && component.tensor < out.size()) {
                out[component.tensor] = ZtDigestStatus::Bad;
            }
        }
    }
    return out;
}

Job* startZtDigestVerification(JobRunner& runner, std::shared_ptr<const ztensor::ZtFile> file) {
    auto* job = new ZtDigestJob(QObject::tr("Verifying digests"));
    QPointer<ZtDigestJob> target(job);
    return runner.start(job, [file, target](JobContext& c) {
        std::vector<Diagnostic> found;
        std::mutex mutex;
        CallbackSink sink([&](Diagnostic d) {
            std::lock_guard lock(mutex);
            found.push_back(std::move(d));
        });
        ValidationOptions options;
        options.cancel = &c.cancelToken();
        options.progress = c.progressCallback();
        ztensor::ZtValidator validator(file);
        if (validator.run(sink, options) == JobOutcome::Cancelled) {
            return;
        }
        auto statuses = ztDigestStatuses(*file, found);
        c.post([target, statuses = std::move(statuses), found = std::move(found)]() mutable {
            if (target) {
                target->statuses_ = std::move(statuses);
                target->diagnostics_ = std::move(found);
            }
        });
    });
}

Job* startZtStats(JobRunner& runner, std::shared_ptr<const ztensor::ZtFile> file,
                  std::size_t tensor, int bins) {
    const QString name = tensor < file->tensors().size()
                             ? QString::fromStdString(file->tensors()[tensor].name)
                             : QString();
    auto* job = new ZtStatsJob(QObject::tr("Statistics of %1").arg(name));
    job->tensor_ = tensor;
    QPointer<ZtStatsJob> target(job);
    return runner.start(job, [file, tensor, bins, target](JobContext& c) {
        if (tensor >= file->tensors().size()) {
            c.fail(QObject::tr("No such tensor."));
            return;
        }
        std::string error;
        auto stats = ztComputeStats(
            *file, file->tensors()[tensor], bins, &c.cancelToken(),
            [&c](double f) { c.setProgress(f); }, &error);
        if (c.cancelled()) {
            return;
        }
        if (!stats) {
            c.fail(QString::fromStdString(error));
            return;
        }
        c.post([target, stats] {
            if (target) {
                target->stats_ = stats;
            }
        });
    });
}

}  // namespace strata::model
