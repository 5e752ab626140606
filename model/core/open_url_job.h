// Opening a URL as a background job: the first ranged GET and what the format's open reads
// happen on a worker thread, with cancel (a stalled server never freezes the window).
#pragma once

#include <memory>

#include "model/core/document.h"
#include "model/core/job_runner.h"
#include "model/core/remote_access.h"

namespace strata::model {

class OpenUrlJob : public Job {
    Q_OBJECT
public:
    explicit OpenUrlJob(QString url, QObject* parent = nullptr);

    // As typed, password and token included: show it through shownUrl.
    QString url() const { return url_; }
    // The opened document once the job finished (null after a failure, a cancel, or a second
    // call): the caller takes it.
    std::unique_ptr<Document> takeDocument() { return std::move(document_); }
    // The URL is a folder no format claims (a plain listing or bucket prefix): the job
    // finished without a document, and the app browses the URL instead.
    bool isPlainFolder() const { return plainFolder_; }

private:
    friend OpenUrlJob* startOpenUrl(JobRunner&, const QString&, const RemoteOpenSettings&,
                                    const strata::FormatRegistry*);
    QString url_;
    std::unique_ptr<Document> document_;
    bool plainFolder_ = false;
};

// Errors (a 404, a refused scheme, no format) fail the job with a text naming the URL.
// `formats`: what it is opened with (null: the built-in formats).
OpenUrlJob* startOpenUrl(JobRunner& runner, const QString& url, const RemoteOpenSettings& settings,
                         const strata::FormatRegistry* formats = nullptr);

}  // namespace strata::model
