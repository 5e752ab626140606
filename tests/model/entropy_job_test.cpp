#include <QRandomGenerator>
#include <QSignalSpy>
#include <QTest>

#include "model/core/entropy_job.h"

using strata::model::EntropyJob;
using strata::model::EntropyOptions;
using strata::model::EntropyProfile;
using strata::model::Job;
using strata::model::JobRunner;

namespace {

std::vector<std::uint8_t> randomBytes(std::size_t n) {
    std::vector<std::uint8_t> bytes(n);
    QRandomGenerator rng(12345);
    for (auto& b : bytes) {
        b = std::uint8_t(rng.bounded(256));
    }
    return bytes;
}

}  // namespace

class EntropyJobTest : public QObject {
    Q_OBJECT
private slots:
    void entropyOfBlocks() {
        const std::vector<std::uint8_t> zeros(65536, 0);
        QCOMPARE(strata::model::shannonEntropy(zeros.data(), zeros.size()), 0.0);
        const auto noise = randomBytes(1 << 20);
        const double h = strata::model::shannonEntropy(noise.data(), noise.size());
        QVERIFY2(h > 7.9 && h <= 8.0, qPrintable(QString::number(h)));
        const std::uint8_t two[] = {0, 1, 0, 1};
        QCOMPARE(strata::model::shannonEntropy(two, 4), 1.0);
    }

    void profileOfZerosThenRandomThenText() {
        std::vector<std::uint8_t> bytes(3 << 20, 0);
        const auto noise = randomBytes(1 << 20);
        std::copy(noise.begin(), noise.end(), bytes.begin() + (1 << 20));
        std::fill(bytes.begin() + (2 << 20), bytes.end(), std::uint8_t('a'));
        auto source = strata::makeBufferSource(std::move(bytes));

        EntropyOptions options;
        options.buckets = 96;
        options.sampleBytesPerBucket = 4096;  // sampled: buckets are 32 KiB
        EntropyProfile profile;
        QVERIFY(strata::model::computeEntropyProfile(*source, options, nullptr, profile));
        QCOMPARE(profile.bucketCount(), 96);
        QCOMPARE(profile.bucketSize, quint64(32768));
        QCOMPARE(profile.fileSize, quint64(3 << 20));
        QCOMPARE(profile.entropy[0], 0.0f);
        QCOMPARE(profile.zeroFraction[0], 1.0f);
        QVERIFY(profile.entropy[40] > 7.0f);  // 4 KiB samples of noise: a little under 8
        QVERIFY(profile.zeroFraction[40] < 0.05f);
        QCOMPARE(profile.entropy[80], 0.0f);
        QCOMPARE(profile.asciiFraction[80], 1.0f);
        QCOMPARE(profile.bucketAt(0), 0);
        QCOMPARE(profile.bucketAt((3 << 20) - 1), 95);
    }

    void smallAndEmptySources() {
        EntropyProfile profile;
        auto tiny = strata::makeBufferSource(std::string_view("abc"));
        QVERIFY(strata::model::computeEntropyProfile(*tiny, {}, nullptr, profile));
        QCOMPARE(profile.bucketCount(), 3);
        QCOMPARE(profile.bucketSize, quint64(1));
        auto empty = strata::makeBufferSource(std::string_view(""));
        QVERIFY(strata::model::computeEntropyProfile(*empty, {}, nullptr, profile));
        QCOMPARE(profile.bucketCount(), 0);
        QCOMPARE(profile.bucketAt(0), -1);
    }

    void runsAsAJob() {
        JobRunner runner;
        auto source = strata::makeBufferSource(randomBytes(2 << 20));
        EntropyJob* job = strata::model::startEntropyProfile(runner, source);
        QSignalSpy ready(job, &EntropyJob::profileReady);
        QTRY_COMPARE(job->state(), Job::State::Finished);
        QCOMPARE(ready.count(), 1);
        QCOMPARE(job->profile().bucketCount(), 1024);
        for (float h : job->profile().entropy) {
            QVERIFY(h > 7.0f && h <= 8.0f);
        }
    }

    void cancelStopsTheProfile() {
        std::vector<std::uint8_t> bytes(1 << 20, 7);
        auto source = strata::makeBufferSource(std::move(bytes));
        strata::CancelToken cancel;
        EntropyProfile profile;
        int reports = 0;
        const bool completed =
            strata::model::computeEntropyProfile(*source, {}, &cancel, profile, [&](double) {
                ++reports;
                cancel.cancel();
            });
        QVERIFY(!completed);
        QCOMPARE(reports, 1);
    }
};

QTEST_GUILESS_MAIN(EntropyJobTest)
#include "entropy_job_test.moc"
