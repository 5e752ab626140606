// The "New ZS file" job: builds a file that reads back, never leaves a partial file behind
// (failure, cancel), and replaces an existing output only once the new file is complete.
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <climits>

#include "formats/common/byte_source.h"
#include "formats/zs/zs_reader.h"
#include "model/core/job.h"
#include "model/core/job_runner.h"
#include "model/zs/zs_make_job.h"

using strata::model::Job;
using strata::model::ZsMakeRequest;

namespace {

Job* runToEnd(strata::model::JobRunner& runner, const ZsMakeRequest& request) {
    Job* job = strata::model::startZsMake(runner, request);
    runner.waitForDone();
    (void)QTest::qWaitFor([job] { return !job->isRunning(); }, 60000);
    return job;
}

void writeFile(const QString& path, const QByteArray& bytes) {
    QFile out(path);
    QVERIFY(out.open(QIODevice::WriteOnly));
    QCOMPARE(out.write(bytes), bytes.size());
}

QByteArray sortedLines(int n) {
    QByteArray text;
    for (int i = 0; i < n; ++i) {
        text += QByteArray::number(100000000 + i) + " some record text\n";
    }
    return text;
}

}  // namespace

class ZsMakeJobTest : public QObject {
    Q_OBJECT
private slots:
    void unescapesTerminators() {
        QCOMPARE(strata::model::unescapeText(QStringLiteral("\\n")), std::string("\n"));
        QCOMPARE(strata::model::unescapeText(QStringLiteral("\\r\\n")), std::string("\r\n"));
        QCOMPARE(strata::model::unescapeText(QStringLiteral("\\0")), std::string(1, '\0'));
        QCOMPARE(strata::model::unescapeText(QStringLiteral("a\\x1E\\\\")), std::string("a\x1e\\"));
        QString error;
        strata::model::unescapeText(QStringLiteral("\\q"), &error);
        QVERIFY(!error.isEmpty());
    }

    void buildsAFileThatReadsBack_data() {
        QTest::addColumn<int>("codec");
        QTest::newRow("lzma") << int(strata::zs::Codec::Lzma2);
        QTest::newRow("deflate") << int(strata::zs::Codec::Deflate);
        QTest::newRow("none") << int(strata::zs::Codec::None);
    }
    void buildsAFileThatReadsBack() {
        QFETCH(int, codec);
        QTemporaryDir dir;
        const QByteArray text = sortedLines(3000);
        writeFile(dir.filePath("in.txt"), text);
        ZsMakeRequest request;
        request.input = dir.filePath("in.txt");
        request.output = dir.filePath("out.zs");
        request.options.codec = strata::zs::Codec(codec);
        request.options.approxBlockSize = 4096;
        request.options.branchingFactor = 4;
        request.metadata = {{"made-by", "zs_make_job_test"}};
        strata::model::JobRunner runner;
        Job* job = runToEnd(runner, request);
        QCOMPARE(job->state(), Job::State::Finished);
        QCOMPARE(job->progress(), 1.0);
        auto file = strata::zs::ZsFile::open(strata::openMappedFile(request.output.toStdString()));
        QVERIFY(file->readable());
        QCOMPARE(file->header().metadata->dump(), std::string(R"({"made-by":"zs_make_job_test"})"));
        const auto records = file->findRecords(std::nullopt, std::nullopt);
        QCOMPARE(int(records.size()), 3000);
        QCOMPARE(QByteArray::fromStdString(records[1234]), text.split('\n')[1234]);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 2);
    }

    void lengthPrefixedInput() {
        QTemporaryDir dir;
        QByteArray input;
        for (const QByteArray& r : {QByteArray("a"), QByteArray("b\0c", 3), QByteArray("d")}) {
            input += char(r.size());
            input += r;
        }
        writeFile(dir.filePath("in.bin"), input);
        ZsMakeRequest request;
        request.input = dir.filePath("in.bin");
        request.output = dir.filePath("out.zs");
        request.framing = ZsMakeRequest::Framing::Uleb128;
        strata::model::JobRunner runner;
        QCOMPARE(runToEnd(runner, request)->state(), Job::State::Finished);
        auto file = strata::zs::ZsFile::open(strata::openMappedFile(request.output.toStdString()));
        const auto records = file->findRecords(std::nullopt, std::nullopt);
        QCOMPARE(records.size(), std::size_t(3));
        QCOMPARE(records[1], std::string("b\0c", 3));
    }

    void failureLeavesNothing_data() {
        QTest::addColumn<QByteArray>("input");
        QTest::newRow("unsorted") << QByteArray("b\na\n");
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("no final terminator") << QByteArray("a\nb");
    }
    void failureLeavesNothing() {
        QFETCH(QByteArray, input);
        QTemporaryDir dir;
        writeFile(dir.filePath("in.txt"), input);
        writeFile(dir.filePath("out.zs"), "previous content");
        ZsMakeRequest request;
        request.input = dir.filePath("in.txt");
        request.output = dir.filePath("out.zs");
        strata::model::JobRunner runner;
        Job* job = runToEnd(runner, request);
        QCOMPARE(job->state(), Job::State::Failed);
        QVERIFY(!job->errorText().isEmpty());
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 2);
        QFile previous(dir.filePath("out.zs"));
        QVERIFY(previous.open(QIODevice::ReadOnly));
        QCOMPARE(previous.readAll(), QByteArray("previous content"));
    }

    void cancelLeavesNothing() {
        QTemporaryDir dir;
        writeFile(dir.filePath("in.txt"), sortedLines(400000));  // ~10 MB
        ZsMakeRequest request;
        request.input = dir.filePath("in.txt");
        request.output = dir.filePath("out.zs");
        request.options.lzmaPreset = {9, true};  // slow enough to be cancelled mid-way
        strata::model::JobRunner runner;
        Job* job = strata::model::startZsMake(runner, request);
        job->cancel();
        runner.waitForDone();
        QTRY_VERIFY_WITH_TIMEOUT(!job->isRunning(), 60000);
        QCOMPARE(job->state(), Job::State::Cancelled);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden),
                 QStringList{QStringLiteral("in.txt")});
    }

    // Cancelled once the first progress report arrives: the writer has started writing.
    void cancelMidwayLeavesNothing() {
        QTemporaryDir dir;
        writeFile(dir.filePath("in.txt"), sortedLines(400000));
        ZsMakeRequest request;
        request.input = dir.filePath("in.txt");
        request.output = dir.filePath("out.zs");
        request.options.lzmaPreset = {9, true};
        request.options.approxBlockSize = 65536;
        strata::model::JobRunner runner;
        Job* job = strata::model::startZsMake(runner, request);
        connect(job, &Job::progressChanged, job, [job] { job->cancel(); });
        QVERIFY(QTest::qWaitFor([job] { return !job->isRunning(); }, 120000));
        QCOMPARE(job->state(), Job::State::Cancelled);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden),
                 QStringList{QStringLiteral("in.txt")});
    }

    void replacesAnExistingOutput() {
        QTemporaryDir dir;
        writeFile(dir.filePath("in.txt"), "x\ny\n");
        writeFile(dir.filePath("out.zs"), "old");
        ZsMakeRequest request;
        request.input = dir.filePath("in.txt");
        request.output = dir.filePath("out.zs");
        strata::model::JobRunner runner;
        QCOMPARE(runToEnd(runner, request)->state(), Job::State::Finished);
        auto file = strata::zs::ZsFile::open(strata::openMappedFile(request.output.toStdString()));
        QCOMPARE(file->findPrefix("y").size(), std::size_t(1));
    }
};

QTEST_GUILESS_MAIN(ZsMakeJobTest)
#include "zs_make_job_test.moc"
