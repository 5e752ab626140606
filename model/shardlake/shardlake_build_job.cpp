#include "shardlake_build_job.h"

#include <QObject>

#include <memory>

#include "model/core/job_runner.h"

namespace strata::model {

using namespace strata::shardlake;

namespace {

// Ingest takes the first fifth of the bar when there is one.
constexpr double kIngestShare = 0.2;

ProgressCallback scaled(JobContext& context, double from, double span, const QString& stage) {
    return [&context, from, span, stage](double fraction, const std::string& text) {
        context.setProgress(
            from + span * fraction,
            text.empty() ? stage : stage + QStringLiteral(": ") + QString::fromStdString(text));
    };
}

}  // namespace

Job* startShardlakeBuildJob(JobRunner& runner, ShardlakeBuildSpec spec,
                            std::function<void(const BuildOutcome&)> done) {
    const QString title =
        QObject::tr("Build index %1").arg(QString::fromStdString(spec.build.indexVersion));
    return runner.start(title, [spec = std::move(spec), done](JobContext& context) mutable {
        double buildFrom = 0.0;
        if (spec.ingest) {
            spec.ingest->cancel = &context.cancelToken();
            spec.ingest->progress = scaled(context, 0.0, kIngestShare, QObject::tr("ingest"));
            const BuildOutcome ingested = ingestVectors(*spec.ingest);
            if (!ingested.ok || ingested.cancelled) {
                if (ingested.cancelled || context.cancelled()) {
                    return;
                }
                context.fail(
                    QObject::tr("ingest failed: %1").arg(QString::fromStdString(ingested.error)));
                auto outcome = std::make_shared<BuildOutcome>(ingested);
                context.post([done, outcome] { done(*outcome); });
                return;
            }
            buildFrom = kIngestShare;
        }
        spec.build.cancel = &context.cancelToken();
        spec.build.progress = scaled(context, buildFrom, 1.0 - buildFrom, QObject::tr("build"));
        auto outcome = std::make_shared<BuildOutcome>(buildIndex(spec.build));
        if (outcome->cancelled || context.cancelled()) {
            return;
        }
        if (!outcome->ok) {
            context.fail(QString::fromStdString(outcome->error));
        }
        context.setProgress(1.0);
        context.post([done, outcome] { done(*outcome); });
    });
}

}  // namespace strata::model
