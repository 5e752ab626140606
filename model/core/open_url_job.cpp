#include "open_url_job.h"

#include <QPointer>

namespace strata::model {

OpenUrlJob::OpenUrlJob(QString url, QObject* parent)
    : Job(QObject::tr("Open %1").arg(shownUrl(url)), parent), url_(std::move(url)) {}

OpenUrlJob* startOpenUrl(JobRunner& runner, const QString& url, const RemoteOpenSettings& settings,
                         const strata::FormatRegistry* formats) {
    auto* job = new OpenUrlJob(url.trimmed());
    QPointer<OpenUrlJob> guard(job);
    runner.start(job, [guard, url = job->url(), settings, formats](JobContext& context) {
        context.setProgress(0.0, QObject::tr("fetching the first block"));
        QString error;
        auto remote = std::make_shared<Document::Prepared>(
            Document::fetchUrl(url, settings, &error, formats));
        if (context.cancelled()) {
            return;
        }
        if (remote->plainFolder) {
            context.post([guard] {
                if (guard) {
                    guard->plainFolder_ = true;
                }
            });
            return;
        }
        if (!remote->opened) {
            context.fail(error);
            return;
        }
        // The document and its QObjects belong to the job's (GUI) thread.
        context.post([guard, remote] {
            if (guard) {
                guard->document_ = Document::fromPrepared(std::move(*remote));
            }
        });
    });
    return job;
}

}  // namespace strata::model
