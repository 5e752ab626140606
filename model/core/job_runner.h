// Runs jobs on a private thread pool. Workers report through a JobContext; every update reaches
// the Job on its own (GUI) thread through queued calls, so no widget is touched off-thread.
// A job's cancel also interrupts remote reads its worker thread is waiting on.
#pragma once

#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QThreadPool>

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>

#include "formats/common/validator.h"
#include "model/core/job.h"

namespace strata::model {

// Runs `work` on a thread of its own at a lower scheduling priority (nice +10) and waits for
// it: a job over a whole dataset that the user did not ask to wait for (validating on open)
// then leaves the cores to what the user waits for (the rows of the view being filled).
// Threads the work starts (a validator's pool) inherit the priority, and the caller's cancel
// scope. The thread ends with the work, so no pool thread keeps a priority it cannot raise
// back. An exception of `work` is rethrown here. On systems without per-thread nice values,
// the work just runs on that thread.
void runAtBackgroundPriority(const std::function<void()>& work);

// The worker's handle on its job. Safe to use from the worker thread (and from threads the
// worker starts, such as a validator's pool).
class JobContext {
public:
    JobContext(Job* job, std::shared_ptr<strata::CancelToken> token);

    // Throttled: at most every kProgressIntervalMs, except the first report and 1.0, which
    // always get through.
    void setProgress(double fraction, const QString& text = {});
    bool cancelled() const { return token_->cancelled(); }
    strata::CancelToken& cancelToken() { return *token_; }
    // The job's pause gate, or null when the job is not pausable (Job::makePausable).
    const strata::PauseGate* pauseGate() const { return pauseGate_.get(); }
    // A progress callback for validators and other formats/ code.
    strata::ProgressCallback progressCallback();
    // Marks the job Failed with `error` once the work function returns.
    void fail(const QString& error);
    // Runs `fn` on the job's thread (queued); dropped when the job is gone.
    void post(std::function<void()> fn);
    Job* job() const { return job_; }

    static constexpr int kProgressIntervalMs = 50;

private:
    friend class JobRunner;
    QPointer<Job> job_;
    std::shared_ptr<strata::CancelToken> token_;
    std::shared_ptr<strata::PauseGate> pauseGate_;
    std::mutex mutex_;
    QElapsedTimer sinceReport_;
    bool reported_ = false;
    QString error_;
};

class JobRunner : public QObject {
    Q_OBJECT
public:
    using Work = std::function<void(JobContext&)>;

    explicit JobRunner(QObject* parent = nullptr);
    // Cancels every running job and waits for the workers.
    ~JobRunner() override;

    // Starts `work` on the pool under a new Job owned by the runner.
    Job* start(const QString& title, Work work);
    // Starts `work` under `job` (a Job subclass carrying results); the runner takes ownership.
    Job* start(Job* job, Work work);

    QList<Job*> jobs() const { return jobs_; }
    // The most recently started job still running, or nullptr.
    Job* activeJob() const;
    void cancelAll();
    // Blocks until every worker has returned (tests, shutdown). Queued updates are delivered
    // when the event loop next runs.
    void waitForDone();
    // Drops finished jobs from jobs() and deletes them.
    void removeFinished();
    QThreadPool* pool() { return &pool_; }

signals:
    void jobAdded(strata::model::Job* job);
    void jobFinished(strata::model::Job* job);

private:
    QThreadPool pool_;
    QList<Job*> jobs_;
};

}  // namespace strata::model
