#include "change_review.h"

#include <QFileInfo>
#include <QTemporaryDir>

#include "model/core/format_editor.h"

namespace strata::model {

namespace {

void setError(QString* error, const QString& text) {
    if (error != nullptr) {
        *error = text;
    }
}

}  // namespace

Job* startChangeReview(JobRunner& runner, Document& document, ChangeReviewReady ready,
                       QString* error) {
    FormatEditor* editor = document.editor();
    if (editor == nullptr) {
        setError(error, QObject::tr("%1 has no editor, so it has no changes to review")
                            .arg(document.displayName()));
        return nullptr;
    }
    // Save applies the text typed and not applied yet first; so does the review of what it writes.
    if (const QString failed = document.applyPendingText(); !failed.isEmpty()) {
        setError(error, QObject::tr("The typed text cannot be applied: %1").arg(failed));
        return nullptr;
    }
    auto scratch = std::make_shared<QTemporaryDir>();
    if (!scratch->isValid()) {
        setError(error,
                 QObject::tr("No scratch folder for the review: %1").arg(scratch->errorString()));
        return nullptr;
    }
    // A: what the document read from disk, shared rather than read again; B: the copy.
    const ComparisonSide onDisk(document);
    const QString copy = scratch->filePath(QFileInfo(document.path()).fileName());
    Job* job = editor->startWriteCopy(runner, copy, error);
    if (job == nullptr) {
        return nullptr;
    }
    JobRunner* jobs = &runner;
    QObject::connect(job, &Job::finished, job, [jobs, job, scratch, onDisk, copy, ready] {
        if (job->state() != Job::State::Finished) {
            ready(nullptr,
                  job->state() == Job::State::Cancelled
                      ? QObject::tr("cancelled")
                      : QObject::tr("Writing the changes failed: %1").arg(job->errorText()));
            return;
        }
        startOpenComparison(
            *jobs, onDisk, copy, {},
            [scratch, ready](std::unique_ptr<Comparison> comparison, const QString& why) {
                if (comparison) {
                    comparison->holdScratch(scratch);
                }
                ready(std::move(comparison), why);
            });
    });
    return job;
}

}  // namespace strata::model
