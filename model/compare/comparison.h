// Two opened documents of one format and the differences between them: the comparison runs as
// a background job (progress, cancel) and streams its differences into a DiffModel as they are
// found. The compare view and `strata --compare` use it; the sides stay open as long as the
// comparison, so every difference's bytes can be shown.
#pragma once

#include <QObject>
#include <QPointer>

#include <functional>
#include <memory>

#include "diff_model.h"
#include "model/core/document.h"
#include "model/core/job_runner.h"

namespace strata::model {

class Comparison;

// A side to compare: a path or URL the comparison job opens, or a document already open (a
// tab's), whose parsed state and sources are shared (Document::share) and read nothing again.
class ComparisonSide {
public:
    ComparisonSide(QString pathOrUrl) : name_(std::move(pathOrUrl)) {}  // NOLINT: implicit
    ComparisonSide(const Document& open)                                // NOLINT: implicit
        : name_(open.isRemote() ? open.remoteUrl() : open.path()), open_(open.share()) {}

    // The path or URL as typed (a URL's password and token included).
    const QString& name() const { return name_; }
    bool isOpen() const { return open_.opened != nullptr; }
    // Opens the side (a job's thread) unless it is open already; null with *error set when it
    // cannot be opened.
    Document::Prepared prepare(const RemoteOpenSettings& settings, QString* error,
                               const strata::FormatRegistry* formats) const;

private:
    QString name_;
    Document::Prepared open_;
};

// Gets the comparison of A and B, or why either side could not be opened (null comparison).
using ComparisonReady =
    std::function<void(std::unique_ptr<Comparison> comparison, const QString& error)>;

class Comparison : public QObject {
    Q_OBJECT
public:
    enum class State { Idle, Running, Completed, Stopped, Cancelled, Failed };
    Q_ENUM(State)

    // Takes both documents (either may not be null).
    Comparison(std::unique_ptr<Document> a, std::unique_ptr<Document> b, QObject* parent = nullptr);
    ~Comparison() override;

    Document* a() const { return a_.get(); }
    Document* b() const { return b_.get(); }
    DiffModel* differences() const { return model_; }

    // Starts (or restarts) comparing on `runner`; `limit` stops after that many differences.
    Job* start(JobRunner& runner, strata::DiffOptions options = {}, quint64 limit = 1'000'000);
    void cancel();
    State state() const { return state_; }
    QString errorText() const { return error_; }
    const strata::DiffSummary& summary() const { return summary_; }
    // Keeps `scratch` (a folder one side lives in) alive as long as the comparison.
    void holdScratch(std::shared_ptr<void> scratch) { scratch_ = std::move(scratch); }

signals:
    void stateChanged(strata::model::Comparison::State state);

private:
    friend Job* startOpenComparison(JobRunner&, const ComparisonSide&, const ComparisonSide&,
                                    const RemoteOpenSettings&, ComparisonReady,
                                    const strata::FormatRegistry*);
    void finish(State state, const QString& error, const strata::DiffSummary& summary);

    std::shared_ptr<void> scratch_;  // before the documents: they close first
    std::unique_ptr<Document> a_, b_;
    const strata::FormatRegistry* formats_ =
        nullptr;  // whose differ compares them (null: built-in)
    DiffModel* model_;
    QPointer<Job> job_;
    State state_ = State::Idle;
    QString error_;
    strata::DiffSummary summary_;
};

// Opens A and B on a job's thread (URLs with `settings`, either side local or remote; a side
// already open is shared, not read again) with `formats` (null: the built-in formats; they
// outlive the comparison), then hands the comparison, not yet started, to `ready` on the
// runner's thread. A side that cannot be opened fails the job, and `ready` gets why; a
// cancelled job calls nothing.
Job* startOpenComparison(JobRunner& runner, const ComparisonSide& a, const ComparisonSide& b,
                         const RemoteOpenSettings& settings, ComparisonReady ready,
                         const strata::FormatRegistry* formats = nullptr);

}  // namespace strata::model
