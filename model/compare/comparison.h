// Two opened documents of one format and the differences between them: the comparison runs as
// a background job (progress, cancel) and streams its differences into a DiffModel as they are
// found. The compare view and `strata --compare` use it; the sides stay open as long as the
// comparison, so every difference's bytes can be shown.
#pragma once

#include <QObject>
#include <QPointer>

#include <memory>

#include "diff_model.h"
#include "model/core/document.h"
#include "model/core/job_runner.h"

namespace strata::model {

class Comparison : public QObject {
    Q_OBJECT
public:
    enum class State { Idle, Running, Completed, Stopped, Cancelled, Failed };
    Q_ENUM(State)

    // Takes both documents (either may not be null).
    Comparison(std::unique_ptr<Document> a, std::unique_ptr<Document> b, QObject* parent = nullptr);
    ~Comparison() override;

    // Opens both paths with `formats` (null: the built-in formats); on failure returns nullptr
    // and sets *error to which side failed and why.
    static std::unique_ptr<Comparison> open(const QString& a, const QString& b,
                                            QString* error = nullptr,
                                            const strata::FormatRegistry* formats = nullptr);

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

}  // namespace strata::model
