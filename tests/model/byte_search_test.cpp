#include <fcntl.h>
#include <unistd.h>

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "model/core/byte_search.h"

using strata::model::ByteOverlay;
using strata::model::ByteSearchJob;
using strata::model::ByteSearchOptions;
using strata::model::Job;
using strata::model::JobRunner;
using strata::model::SearchPattern;
using Mode = strata::model::SearchPattern::Mode;

namespace {

SearchPattern parse(const QString& text, Mode mode = Mode::Hex, bool fold = false) {
    QString error;
    auto p = SearchPattern::parse(text, mode, fold, &error);
    if (!p) {
        qWarning("parse failed: %s", qPrintable(error));
        return {};
    }
    return *p;
}

QList<quint64> scanAll(const strata::ByteSource& source, const SearchPattern& pattern,
                       const ByteOverlay::EditMap& edits = {}) {
    QList<quint64> found;
    strata::model::scanForPattern(source, edits, pattern, 0, source.size(), nullptr,
                                  [&](std::uint64_t at) {
                                      found.append(at);
                                      return true;
                                  });
    return found;
}

}  // namespace

class ByteSearchTest : public QObject {
    Q_OBJECT
private slots:
    void parsesHexWithWildcards() {
        const SearchPattern p = parse("ab 5a ?? 01");
        QCOMPARE(p.size(), 4);
        QCOMPARE(p.values, (QVector<std::uint8_t>{0xAB, 0x5A, 0x00, 0x01}));
        QCOMPARE(p.masks, (QVector<std::uint8_t>{0xFF, 0xFF, 0x00, 0xFF}));
        QVERIFY(!p.isExact());
        QCOMPARE(p.text, QString("ab 5a ?? 01"));

        const SearchPattern packed = parse("0x4D5A,0X90 a?");
        QCOMPARE(packed.values, (QVector<std::uint8_t>{0x4D, 0x5A, 0x90, 0xA0}));
        QCOMPARE(packed.masks, (QVector<std::uint8_t>{0xFF, 0xFF, 0xFF, 0xF0}));
        QVERIFY(parse("DEADBEEF").isExact());

        QString error;
        QVERIFY(!SearchPattern::parse("abc", Mode::Hex, false, &error));
        QVERIFY(!error.isEmpty());
        QVERIFY(!SearchPattern::parse("zz", Mode::Hex, false, &error));
        QVERIFY(!SearchPattern::parse("  ", Mode::Hex, false, &error));
        QVERIFY(!SearchPattern::parse("?? ??", Mode::Hex, false, &error));
        QVERIFY(!SearchPattern::parse("", Mode::Utf8, false, &error));
    }

    void parsesText() {
        const SearchPattern utf8 = parse(QString::fromUtf8("Zé"), Mode::Utf8);
        QCOMPARE(utf8.values, (QVector<std::uint8_t>{'Z', 0xC3, 0xA9}));
        QVERIFY(utf8.isExact());

        const SearchPattern folded = parse("Ab1", Mode::Utf8, true);
        QCOMPARE(folded.masks, (QVector<std::uint8_t>{0xDF, 0xDF, 0xFF}));
        const std::uint8_t lower[] = {'a', 'B', '1'};
        const std::uint8_t other[] = {'a', 'B', '2'};
        QVERIFY(folded.matches(lower));
        QVERIFY(!folded.matches(other));

        const SearchPattern utf16 = parse(QString::fromUtf8("Hi€"), Mode::Utf16Le);
        QCOMPARE(utf16.values, (QVector<std::uint8_t>{'H', 0, 'i', 0, 0xAC, 0x20}));
        const SearchPattern utf16Fold = parse("h", Mode::Utf16Le, true);
        QCOMPARE(utf16Fold.masks, (QVector<std::uint8_t>{0xDF, 0xFF}));
    }

    void findsExactWildcardAndFoldedMatches() {
        auto source = strata::makeBufferSource(std::string_view("xxABCxABDxabcxAB"));
        QCOMPARE(scanAll(*source, parse("ABC", Mode::Utf8)), (QList<quint64>{2}));
        QCOMPARE(scanAll(*source, parse("41 42 ??")), (QList<quint64>{2, 6}));
        QCOMPARE(scanAll(*source, parse("abc", Mode::Utf8, true)), (QList<quint64>{2, 10}));
        QCOMPARE(scanAll(*source, parse("?? 42")), (QList<quint64>{2, 6, 14}));
        QCOMPARE(scanAll(*source, parse("ZZ", Mode::Utf8)), QList<quint64>{});
        // Overlapping matches are all reported.
        auto runs = strata::makeBufferSource(std::string_view("aaaa"));
        QCOMPARE(scanAll(*runs, parse("aa", Mode::Utf8)), (QList<quint64>{0, 1, 2}));
    }

    void seesEditsAndChunkBoundaries() {
        std::vector<std::uint8_t> bytes(9 << 20, 0);
        const std::uint64_t boundary = ByteSearchOptions::kChunkSize;
        const char needle[] = "NEEDLE";
        std::copy(needle, needle + 6, bytes.begin() + std::ptrdiff_t(boundary - 3));
        auto source = strata::makeBufferSource(std::move(bytes));
        QCOMPARE(scanAll(*source, parse("NEEDLE", Mode::Utf8)), QList<quint64>{boundary - 3});
        QCOMPARE(scanAll(*source, parse("4E 45 ?? 44")), QList<quint64>{boundary - 3});

        ByteOverlay::EditMap edits{{100, 'N'}, {101, 'E'}, {102, 'E'},
                                   {103, 'D'}, {104, 'L'}, {105, 'E'}};
        QCOMPARE(scanAll(*source, parse("NEEDLE", Mode::Utf8), edits),
                 (QList<quint64>{100, boundary - 3}));
        edits = {{boundary - 1, 'X'}};  // breaks the match across the boundary
        QCOMPARE(scanAll(*source, parse("NEEDLE", Mode::Utf8), edits), QList<quint64>{});
    }

    void findNextWrapsAndFindAllCaps() {
        JobRunner runner;
        ByteOverlay file(strata::makeBufferSource(std::string_view("..ab....ab....ab..")));
        ByteSearchJob* next =
            strata::model::startByteSearch(runner, &file, parse("ab", Mode::Utf8), 3, true);
        QTRY_COMPARE(next->state(), Job::State::Finished);
        QCOMPARE(next->results(), QList<quint64>{8});
        QCOMPARE(next->patternLength(), 2);

        ByteSearchJob* wrapped =
            strata::model::startByteSearch(runner, &file, parse("ab", Mode::Utf8), 15, true);
        QTRY_COMPARE(wrapped->state(), Job::State::Finished);
        QCOMPARE(wrapped->results(), QList<quint64>{2});

        ByteSearchJob* noWrap =
            strata::model::startByteSearch(runner, &file, parse("ab", Mode::Utf8), 15, false);
        QTRY_COMPARE(noWrap->state(), Job::State::Finished);
        QVERIFY(noWrap->results().isEmpty());

        ByteSearchOptions previous;
        previous.backward = true;
        previous.from = 8;
        ByteSearchJob* back =
            strata::model::startByteSearch(runner, &file, parse("ab", Mode::Utf8), previous);
        QTRY_COMPARE(back->state(), Job::State::Finished);
        QCOMPARE(back->results(), QList<quint64>{2});
        previous.from = 2;
        ByteSearchJob* backWrapped =
            strata::model::startByteSearch(runner, &file, parse("ab", Mode::Utf8), previous);
        QTRY_COMPARE(backWrapped->state(), Job::State::Finished);
        QCOMPARE(backWrapped->results(), QList<quint64>{14});
        previous.wrap = false;
        ByteSearchJob* backNoWrap =
            strata::model::startByteSearch(runner, &file, parse("ab", Mode::Utf8), previous);
        QTRY_COMPARE(backNoWrap->state(), Job::State::Finished);
        QVERIFY(backNoWrap->results().isEmpty());

        // Edits made before the search starts are searched.
        file.write(5, "ab");
        ByteSearchOptions all;
        all.findAll = true;
        ByteSearchJob* every =
            strata::model::startByteSearch(runner, &file, parse("ab", Mode::Utf8), all);
        QSignalSpy found(every, &ByteSearchJob::found);
        QTRY_COMPARE(every->state(), Job::State::Finished);
        QCOMPARE(every->results(), (QList<quint64>{2, 5, 8, 14}));
        QCOMPARE(found.count(), 4);
        QVERIFY(!every->truncated());

        all.maxResults = 2;
        ByteSearchJob* capped =
            strata::model::startByteSearch(runner, &file, parse("ab", Mode::Utf8), all);
        QTRY_COMPARE(capped->state(), Job::State::Finished);
        QCOMPARE(capped->results(), (QList<quint64>{2, 5}));
        QVERIFY(capped->truncated());
        all.maxResults = 4;  // exactly as many as there are: not truncated
        ByteSearchJob* exact =
            strata::model::startByteSearch(runner, &file, parse("ab", Mode::Utf8), all);
        QTRY_COMPARE(exact->state(), Job::State::Finished);
        QCOMPARE(exact->results().size(), 4);
        QVERIFY(!exact->truncated());
    }

    void findPreviousAcrossChunks() {
        std::vector<std::uint8_t> bytes(10 << 20, 0);
        const std::uint64_t early = 100;
        const std::uint64_t late = (9 << 20) + 5;
        bytes[early] = 0xEE;
        bytes[late] = 0xEE;
        ByteOverlay file(strata::makeBufferSource(std::move(bytes)));
        JobRunner runner;
        ByteSearchOptions previous;
        previous.backward = true;
        previous.from = 8 << 20;
        ByteSearchJob* job = strata::model::startByteSearch(runner, &file, parse("EE"), previous);
        QTRY_COMPARE(job->state(), Job::State::Finished);
        QCOMPARE(job->results(), QList<quint64>{early});
        previous.from = early;
        ByteSearchJob* wrapped =
            strata::model::startByteSearch(runner, &file, parse("EE"), previous);
        QTRY_COMPARE(wrapped->state(), Job::State::Finished);
        QCOMPARE(wrapped->results(), QList<quint64>{late});
    }

    void scanStopsWhenCancelled() {
        std::vector<std::uint8_t> bytes(20 << 20, 0);
        bytes.back() = 0x7F;
        auto source = strata::makeBufferSource(std::move(bytes));
        strata::CancelToken cancel;
        int progressReports = 0;
        bool matched = false;
        const bool completed = strata::model::scanForPattern(
            *source, {}, parse("7F"), 0, source->size(), &cancel,
            [&](std::uint64_t) {
                matched = true;
                return true;
            },
            [&](std::uint64_t) {
                ++progressReports;
                cancel.cancel();
            });
        QVERIFY(!completed);
        QCOMPARE(progressReports, 1);
        QVERIFY(!matched);
    }

    // A 3 GiB sparse file: found near the end, and a second search cancelled part-way.
    void searchesAThreeGigabyteSparseFile() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath("sparse.bin");
        const std::uint64_t size = 3ull << 30;
        const std::uint64_t at = size - 1000;
        {
            const int fd =
                ::open(QFile::encodeName(path).constData(), O_CREAT | O_RDWR | O_TRUNC, 0644);
            QVERIFY(fd >= 0);
            QCOMPARE(::ftruncate(fd, off_t(size)), 0);
            const char needle[] = "STRATA-NEEDLE";
            QCOMPARE(::pwrite(fd, needle, sizeof needle - 1, off_t(at)),
                     ssize_t(sizeof needle - 1));
            ::close(fd);
        }
        {
            JobRunner runner;
            ByteOverlay file(strata::openMappedFile(path.toStdString()));
            QCOMPARE(file.size(), size);

            ByteSearchJob* job = strata::model::startByteSearch(
                runner, &file, parse("STRATA-NEEDLE", Mode::Utf8), 0, false);
            QTRY_VERIFY_WITH_TIMEOUT(!job->isRunning(), 300'000);
            QCOMPARE(job->state(), Job::State::Finished);
            QCOMPARE(job->results(), QList<quint64>{at});

            ByteSearchJob* cancelled = strata::model::startByteSearch(
                runner, &file, parse("strata-needle", Mode::Utf8, true), 0, false);
            QSignalSpy progress(cancelled, &Job::progressChanged);
            QVERIFY(progress.wait(300'000));
            cancelled->cancel();
            QTRY_VERIFY_WITH_TIMEOUT(!cancelled->isRunning(), 300'000);
            QCOMPARE(cancelled->state(), Job::State::Cancelled);
            QVERIFY(cancelled->results().isEmpty());
        }
        QVERIFY(QFile::remove(path));
    }
};

QTEST_GUILESS_MAIN(ByteSearchTest)
#include "byte_search_test.moc"
