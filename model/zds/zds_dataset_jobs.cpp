#include "zds_dataset_jobs.h"

#include <QObject>

#include "formats/zds/zds_jobs.h"
#include "model/core/job.h"
#include "model/core/job_runner.h"

namespace strata::model {

QString zdsDatasetJobName(ZdsDatasetJob kind) {
    switch (kind) {
        case ZdsDatasetJob::Pack:
            return QObject::tr("Pack into .zds…");
        case ZdsDatasetJob::Unpack:
            return QObject::tr("Unpack to folder…");
        case ZdsDatasetJob::Reindex:
            return QObject::tr("Rebuild index");
        case ZdsDatasetJob::Compact:
            return QObject::tr("Compact");
        case ZdsDatasetJob::ToDocs:
            return QObject::tr("Convert to docs/ files");
        case ZdsDatasetJob::ToJsonl:
            return QObject::tr("Convert to JSONL");
    }
    return {};
}

bool zdsDatasetJobApplies(ZdsDatasetJob kind, bool isArchive) {
    switch (kind) {
        case ZdsDatasetJob::Pack:
            return !isArchive;
        case ZdsDatasetJob::Unpack:
            return isArchive;
        default:
            return true;
    }
}

Job* startZdsDatasetJob(JobRunner& runner, ZdsDatasetJob kind, const QString& dataset,
                        const QString& target, const QString& collection, bool deflate) {
    const std::filesystem::path source = dataset.toStdString();
    const std::filesystem::path dest = target.toStdString();
    const std::string name = collection.toStdString();
    const QString title = zdsDatasetJobName(kind).remove(QStringLiteral("…"));
    return runner.start(title, [kind, source, dest, name, deflate](JobContext& context) {
        zds::ZdsJobOptions options;
        options.deflate = deflate;
        options.cancel = &context.cancelToken();
        options.progress = context.progressCallback();
        options.collection = name;
        zds::ZdsJobResult result;
        try {
            switch (kind) {
                case ZdsDatasetJob::Pack:
                    result = zds::packZds(source, dest, options);
                    break;
                case ZdsDatasetJob::Unpack:
                    result = zds::unpackZds(source, dest, options);
                    break;
                case ZdsDatasetJob::Reindex:
                    result = zds::reindexZds(source, options);
                    break;
                case ZdsDatasetJob::Compact:
                    result = zds::compactZds(source, options);
                    break;
                case ZdsDatasetJob::ToDocs:
                    result = zds::convertZds(source, zds::ZdsLayout::Docs, options);
                    break;
                case ZdsDatasetJob::ToJsonl:
                    result = zds::convertZds(source, zds::ZdsLayout::Jsonl, options);
                    break;
            }
        } catch (const std::exception& e) {
            context.fail(QString::fromStdString(e.what()));
            return;
        }
        if (result.cancelled) {
            return;
        }
        QString summary = kind == ZdsDatasetJob::Unpack
                              ? QObject::tr("%1 files written").arg(result.files)
                              : QObject::tr("%1 documents").arg(result.documents);
        for (const std::string& note : result.notes) {
            summary += QStringLiteral("; ") + QString::fromStdString(note);
        }
        context.setProgress(1.0, summary);
    });
}

}  // namespace strata::model
