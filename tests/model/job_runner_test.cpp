#include <QSignalSpy>
#include <QTest>
#include <QThread>

#include <sys/resource.h>
#include <unistd.h>

#include <atomic>
#include <stdexcept>
#include <thread>

#include "model/core/job_runner.h"

using strata::model::Job;
using strata::model::JobContext;
using strata::model::JobRunner;

namespace {

// Waits (without a deadline of its own) until the job is cancelled; the test's QTRY timeouts
// are the only limit.
void spinUntilCancelled(JobContext& context) {
    while (!context.cancelled()) {
        QThread::msleep(1);
    }
}

}  // namespace

class JobRunnerTest : public QObject {
    Q_OBJECT
private slots:
    // Background work runs on a thread of its own, 10 nice levels lower (as do the threads it
    // starts); the caller's priority is untouched, and the work's exception reaches the caller.
    void backgroundWorkRunsLowerAndAlone() {
        const auto niceOfThisThread = [] {
            return ::getpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()));
        };
        const int before = niceOfThisThread();
        int inside = before, child = before;
        std::thread::id ranOn;
        strata::model::runAtBackgroundPriority([&] {
            ranOn = std::this_thread::get_id();
            inside = niceOfThisThread();
            std::thread([&] { child = niceOfThisThread(); }).join();
        });
        QVERIFY(ranOn != std::this_thread::get_id());
        QCOMPARE(inside, std::min(before + 10, 19));
        QCOMPARE(child, inside);
        QCOMPARE(niceOfThisThread(), before);
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, strata::model::runAtBackgroundPriority([] {
                                     throw std::runtime_error("failed");
                                 }));
    }

    void runsWorkAndReportsProgress() {
        JobRunner runner;
        QSignalSpy added(&runner, &JobRunner::jobAdded);
        QSignalSpy finishedAll(&runner, &JobRunner::jobFinished);
        std::atomic<bool> ranOnWorker{false};
        QThread* guiThread = QThread::currentThread();
        Job* job = runner.start("count", [&](JobContext& context) {
            ranOnWorker = QThread::currentThread() != guiThread;
            context.setProgress(0.25, "a quarter");
            context.setProgress(0.5, "half");  // may be throttled away
            context.setProgress(1.0, "done");  // always delivered
        });
        QSignalSpy progress(job, &Job::progressChanged);
        QSignalSpy stateChanged(job, &Job::stateChanged);
        QCOMPARE(added.count(), 1);
        QCOMPARE(runner.jobs(), QList<Job*>{job});
        QCOMPARE(job->title(), QString("count"));
        QVERIFY(job->startedAt().isValid());

        QTRY_COMPARE(job->state(), Job::State::Finished);
        QVERIFY(ranOnWorker);
        QVERIFY(progress.count() >= 2);
        QCOMPARE(progress.first().at(0).toDouble(), 0.25);
        QCOMPARE(progress.first().at(1).toString(), QString("a quarter"));
        QCOMPARE(progress.last().at(0).toDouble(), 1.0);
        QCOMPARE(job->statusText(), QString("done"));
        QCOMPARE(job->progress(), 1.0);
        QCOMPARE(stateChanged.count(), 1);
        QCOMPARE(finishedAll.count(), 1);
        QVERIFY(job->finishedAt().isValid());
        QVERIFY(runner.activeJob() == nullptr);
    }

    void cancelStopsTheWorker() {
        JobRunner runner;
        Job* job = runner.start("wait", [](JobContext& context) {
            context.setProgress(0.1, "waiting");
            spinUntilCancelled(context);
        });
        QSignalSpy progress(job, &Job::progressChanged);
        QTRY_VERIFY(progress.count() >= 1);
        QCOMPARE(runner.activeJob(), job);
        QVERIFY(job->isRunning());
        job->cancel();
        QVERIFY(job->cancelRequested());
        QTRY_COMPARE(job->state(), Job::State::Cancelled);
        QVERIFY(job->errorText().isEmpty());
        // Cancelling a finished job changes nothing.
        job->cancel();
        QCOMPARE(job->state(), Job::State::Cancelled);
    }

    void failuresAreReported() {
        JobRunner runner;
        Job* thrown =
            runner.start("throws", [](JobContext&) { throw std::runtime_error("bad bytes"); });
        Job* failed = runner.start("fails", [](JobContext& context) { context.fail("no space"); });
        QTRY_COMPARE(thrown->state(), Job::State::Failed);
        QCOMPARE(thrown->errorText(), QString("bad bytes"));
        QTRY_COMPARE(failed->state(), Job::State::Failed);
        QCOMPARE(failed->errorText(), QString("no space"));
        runner.removeFinished();
        QVERIFY(runner.jobs().isEmpty());
    }

    void postRunsOnTheJobThread() {
        JobRunner runner;
        QThread* guiThread = QThread::currentThread();
        std::atomic<bool> onGui{false};
        Job* job = runner.start("post", [&](JobContext& context) {
            context.post([&] { onGui = QThread::currentThread() == guiThread; });
        });
        QTRY_COMPARE(job->state(), Job::State::Finished);
        QTRY_VERIFY(onGui.load());
    }

    void validatorProgressCallback() {
        JobRunner runner;
        Job* job = runner.start("callback", [](JobContext& context) {
            strata::ValidationOptions options;
            options.cancel = &context.cancelToken();
            options.progress = context.progressCallback();
            options.reportProgress(0.5, "block 1 of 2");
        });
        QSignalSpy progress(job, &Job::progressChanged);
        QTRY_COMPARE(job->state(), Job::State::Finished);
        QVERIFY(progress.count() >= 1);
        QCOMPARE(progress.first().at(1).toString(), QString("block 1 of 2"));
    }

    void destructionCancelsRunningJobs() {
        std::atomic<bool> sawCancel{false};
        {
            JobRunner runner;
            runner.start("forever", [&](JobContext& context) {
                spinUntilCancelled(context);
                sawCancel = true;
            });
        }
        QVERIFY(sawCancel.load());
    }
};

QTEST_GUILESS_MAIN(JobRunnerTest)
#include "job_runner_test.moc"
