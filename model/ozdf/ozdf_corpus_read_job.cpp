#include "ozdf_corpus_read_job.h"

#include <QDir>
#include <QPointer>

namespace strata::model {

OzdfCorpusReadJob::OzdfCorpusReadJob(QString title, QObject* parent)
    : Job(std::move(title), parent) {}

OzdfCorpusReadJob* startOzdfCorpusRead(JobRunner& runner,
                                       std::shared_ptr<const ozdf::ListedCorpus> corpus) {
    const QString folder = QString::fromStdString(corpus->path().string());
    auto* job = new OzdfCorpusReadJob(QObject::tr("Read %1").arg(QDir::toNativeSeparators(folder)));
    QPointer<OzdfCorpusReadJob> guard(job);
    runner.start(job, [guard, corpus](JobContext& context) {
        const std::size_t total = corpus->size();
        const std::shared_ptr<const ozdf::Corpus> read =
            corpus->corpus(&context.cancelToken(), [&context, total](std::size_t n) {
                context.setProgress(
                    static_cast<double>(n) / static_cast<double>(std::max<std::size_t>(total, 1)),
                    QObject::tr("document %1 of %2").arg(n).arg(total));
            });
        if (!read) {
            return;  // cancelled
        }
        // The editor's own copy, so edits never touch what the tree and validator share.
        struct Material {
            ozdf::Corpus corpus;
            std::vector<ozdf::DocumentFootprint> onDisk;
        };
        auto material = std::make_shared<Material>();
        material->corpus = *read;
        material->onDisk = ozdf::footprintsOf(material->corpus);
        if (context.cancelled()) {
            return;
        }
        // The session is a QObject of the job's (GUI) thread.
        context.post([guard, material] {
            if (guard) {
                guard->session_ = std::make_unique<OzdfSession>(std::move(material->corpus),
                                                                std::move(material->onDisk));
            }
        });
    });
    return job;
}

}  // namespace strata::model
