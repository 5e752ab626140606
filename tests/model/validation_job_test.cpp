#include <QAbstractItemModelTester>
#include <QDir>
#include <QSignalSpy>
#include <QTest>
#include <QThread>

#include <thread>
#include <vector>

#include "formats/zs/zs_format.h"
#include "model/core/diagnostics_model.h"
#include "model/core/document.h"
#include "model/core/structure_model.h"
#include "model/core/validation_job.h"
#include "test_corpus.h"

using strata::model::DiagnosticsModel;
using strata::model::Document;
using strata::model::Job;
using strata::model::JobRunner;

namespace {

// Reports `count` warnings from two threads, then an error; honours cancel between reports.
class ChattyValidator final : public strata::Validator {
public:
    explicit ChattyValidator(int count, bool waitForCancel = false)
        : count_(count), waitForCancel_(waitForCancel) {}

    strata::JobOutcome run(strata::DiagnosticSink& sink,
                           const strata::ValidationOptions& options) override {
        if (waitForCancel_) {
            options.reportProgress(0.1, "waiting");
            while (!options.cancelled()) {
                QThread::msleep(1);
            }
            return strata::JobOutcome::Cancelled;
        }
        auto half = [&](int first) {
            for (int i = first; i < count_; i += 2) {
                sink.report(
                    {strata::Severity::Warning, "TEST-" + std::to_string(i % 3), "w", {}, "", ""});
                options.reportProgress(double(i) / count_, "checking");
            }
        };
        std::thread other(half, 1);
        half(0);
        other.join();
        sink.report({strata::Severity::Error, "TEST-END", "last", {}, "", ""});
        return strata::JobOutcome::Completed;
    }

private:
    int count_;
    bool waitForCancel_;
};

std::unique_ptr<Document> makeDocument(std::function<std::unique_ptr<strata::Validator>()> make) {
    auto opened = std::make_unique<strata::OpenedDocument>();
    opened->path = "/data/test.bin";
    opened->sources.push_back(strata::makeBufferSource(std::string_view("bytes")));
    opened->root = std::make_unique<strata::Node>("raw.file", "test.bin",
                                                  strata::Region{opened->sources[0].get(), 0, 5});
    opened->makeValidator = std::move(make);
    return std::make_unique<Document>(std::move(opened));
}

QString corpus(const QString& relative) {
    return QDir(QString::fromStdString(strata::test::corpusRoot().string())).filePath(relative);
}

}  // namespace

class ValidationJobTest : public QObject {
    Q_OBJECT
private slots:
    void streamsEveryDiagnosticIntoTheModel() {
        JobRunner runner;
        auto doc = makeDocument([] { return std::make_unique<ChattyValidator>(5000); });
        doc->diagnostics()->appendDiagnostic({strata::Severity::Info, "OLD", "stale", {}, "", ""});
        QSignalSpy inserted(doc->diagnostics(), &QAbstractItemModel::rowsInserted);
        Job* job = strata::model::startValidation(runner, *doc);
        QVERIFY(job != nullptr);
        QCOMPARE(doc->diagnostics()->rowCount(), 0);  // cleared at the start
        QTRY_COMPARE(job->state(), Job::State::Finished);
        QTRY_COMPARE(doc->diagnostics()->rowCount(), 5001);
        QCOMPARE(doc->diagnostics()->worstSeverity(), strata::Severity::Error);
        QCOMPARE(doc->diagnostics()->countOf(strata::Severity::Warning), 5000);
        QVERIFY(inserted.count() < 5001);  // batched
    }

    void cancelStopsValidation() {
        JobRunner runner;
        auto doc = makeDocument([] { return std::make_unique<ChattyValidator>(0, true); });
        Job* job = strata::model::startValidation(runner, *doc);
        QSignalSpy progress(job, &Job::progressChanged);
        QVERIFY(progress.wait(60'000));
        job->cancel();
        QTRY_COMPARE(job->state(), Job::State::Cancelled);
    }

    void noValidatorNoJob() {
        JobRunner runner;
        auto doc = makeDocument({});
        QVERIFY(strata::model::startValidation(runner, *doc) == nullptr);
        QVERIFY(runner.jobs().isEmpty());
    }

    void closingTheDocumentMidRunIsSafe() {
        JobRunner runner;
        auto doc = makeDocument([] { return std::make_unique<ChattyValidator>(0, true); });
        Job* job = strata::model::startValidation(runner, *doc);
        QSignalSpy progress(job, &Job::progressChanged);
        QVERIFY(progress.wait(60'000));
        doc.reset();  // cancels the job; its posted batches are dropped
        QTRY_COMPARE(job->state(), Job::State::Cancelled);
    }

    void opensAndValidatesCorpusFiles() {
        STRATA_QSKIP_WITHOUT_CORPUS();
        QString error;
        QVERIFY(Document::open(corpus("zs/valid/does-not-exist.zs"), &error) == nullptr);
        QVERIFY(!error.isEmpty());

        auto doc = Document::open(corpus("zs/valid/codec-deflate.zs"), &error);
        QVERIFY2(doc != nullptr, qPrintable(error));
        QCOMPARE(doc->format(), strata::kZsFormat);
        QCOMPARE(doc->displayName(), QString("codec-deflate.zs"));
        QVERIFY(doc->root() != nullptr);
        QVERIFY(!doc->files().isEmpty());
        QCOMPARE(doc->fileNodeFor(&doc->primaryFile()->source()), doc->root());

        strata::model::StructureModel model(doc->root());
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        const strata::Node* deep = doc->root()->deepestAt(doc->primaryFile()->size() / 2);
        QVERIFY(deep != nullptr);
        QCOMPARE(model.nodeAt(model.indexForNode(deep)), deep);

        if (!doc->makeValidator()) {
            QSKIP("the ZS format has no validator yet");
        }
        JobRunner runner;
        Job* job = strata::model::startValidation(runner, *doc);
        QVERIFY(job != nullptr);
        QTRY_VERIFY_WITH_TIMEOUT(!job->isRunning(), 120'000);
        QCOMPARE(job->state(), Job::State::Finished);
        QVERIFY2(doc->diagnostics()->worstSeverity() != strata::Severity::Error,
                 doc->diagnostics()->exportText().toUtf8().constData());

        auto bad = Document::open(corpus("zs/corrupt/header-crc-wrong.zs"), &error);
        QVERIFY2(bad != nullptr, qPrintable(error));
        Job* badJob = strata::model::startValidation(runner, *bad);
        QVERIFY(badJob != nullptr);
        QTRY_VERIFY_WITH_TIMEOUT(!badJob->isRunning(), 120'000);
        QTRY_COMPARE(bad->diagnostics()->worstSeverity(), strata::Severity::Error);
    }
};

QTEST_GUILESS_MAIN(ValidationJobTest)
#include "validation_job_test.moc"
