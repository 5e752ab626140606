#include "job_runner.h"

#include <QMetaObject>
#include <QThread>

#include <algorithm>
#include <exception>
#include <thread>

#ifdef __linux__
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#endif

#include "formats/common/thread_cancel.h"
#include "formats/remote/remote_session.h"

namespace strata::model {

JobContext::JobContext(Job* job, std::shared_ptr<strata::CancelToken> token)
    : job_(job),
      token_(std::move(token)),
      pauseGate_(job != nullptr ? job->pauseGate() : nullptr) {}

void JobContext::setProgress(double fraction, const QString& text) {
    {
        std::lock_guard lock(mutex_);
        const bool due =
            !reported_ || fraction >= 1.0 || sinceReport_.elapsed() >= kProgressIntervalMs;
        if (!due) {
            return;
        }
        reported_ = true;
        sinceReport_.start();
    }
    post([this_job = job_, fraction, text] {
        if (this_job) {
            this_job->applyProgress(fraction, text);
        }
    });
}

strata::ProgressCallback JobContext::progressCallback() {
    return [this](double fraction, const std::string& text) {
        setProgress(fraction, QString::fromStdString(text));
    };
}

void runAtBackgroundPriority(const std::function<void()>& work) {
    std::exception_ptr failed;
    std::thread worker = strata::startThreadInheritingCancel([&work, &failed] {
#ifdef __linux__
        // On Linux the nice value is a thread's own: PRIO_PROCESS with a thread id sets it alone.
        const auto self = static_cast<id_t>(::gettid());
        errno = 0;
        const int current = ::getpriority(PRIO_PROCESS, self);
        if (errno == 0) {
            ::setpriority(PRIO_PROCESS, self, std::min(current + 10, 19));
        }
#endif
        try {
            work();
        } catch (...) {
            failed = std::current_exception();
        }
    });
    worker.join();
    if (failed) {
        std::rethrow_exception(failed);
    }
}

void JobContext::fail(const QString& error) {
    std::lock_guard lock(mutex_);
    error_ = error.isEmpty() ? QStringLiteral("failed") : error;
}

void JobContext::post(std::function<void()> fn) {
    // QPointer is read on this thread only to get the context object; Qt drops the call when
    // the object is deleted before the event is delivered.
    Job* job = job_.data();
    if (job == nullptr) {
        return;
    }
    QMetaObject::invokeMethod(job, std::move(fn), Qt::QueuedConnection);
}

JobRunner::JobRunner(QObject* parent) : QObject(parent) {
    // Jobs mostly wait on I/O or run validators with their own threads; a few slots more than
    // cores keep a quick search from queueing behind a long validation.
    pool_.setMaxThreadCount(std::max(4, QThread::idealThreadCount()));
}

JobRunner::~JobRunner() {
    cancelAll();
    pool_.waitForDone();
}

Job* JobRunner::start(const QString& title, Work work) {
    return start(new Job(title), std::move(work));
}

Job* JobRunner::start(Job* job, Work work) {
    job->setParent(this);
    jobs_.append(job);
    connect(job, &Job::finished, this, [this, job] { emit jobFinished(job); });
    emit jobAdded(job);

    auto context = std::make_shared<JobContext>(job, job->token());
    pool_.start([context, work = std::move(work)] {
        QString error;
        try {
            // Cancelling the job also ends a read of a remote file waiting on its server.
            const strata::RemoteCancelScope remoteCancel(context->token_.get());
            work(*context);
        } catch (const std::exception& e) {
            error = QString::fromLocal8Bit(e.what());
        } catch (...) {
            error = QStringLiteral("unknown error");
        }
        {
            std::lock_guard lock(context->mutex_);
            if (error.isEmpty()) {
                error = context->error_;
            }
        }
        Job::State state = Job::State::Finished;
        if (!error.isEmpty()) {
            state = Job::State::Failed;
        } else if (context->cancelled()) {
            state = Job::State::Cancelled;
        }
        context->post([job = context->job_, state, error] {
            if (job) {
                job->finish(state, error);
            }
        });
    });
    return job;
}

Job* JobRunner::activeJob() const {
    for (auto it = jobs_.crbegin(); it != jobs_.crend(); ++it) {
        if ((*it)->isRunning()) {
            return *it;
        }
    }
    return nullptr;
}

void JobRunner::cancelAll() {
    for (Job* job : jobs_) {
        job->cancel();
    }
}

void JobRunner::waitForDone() {
    pool_.waitForDone();
}

void JobRunner::removeFinished() {
    for (auto it = jobs_.begin(); it != jobs_.end();) {
        if (!(*it)->isRunning()) {
            (*it)->deleteLater();
            it = jobs_.erase(it);
        } else {
            ++it;
        }
    }
}

}  // namespace strata::model
