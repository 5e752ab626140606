// ZsRecordsModel over the ZS corpus: every valid file reads to the reference dump, queries give
// what recorded `zs dump --prefix/--start/--stop` runs printed, and reading stays lazy (index
// descent for queries, a bounded cache of decoded blocks).
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <climits>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "formats/common/byte_source.h"
#include "formats/zs/zs_reader.h"
#include "formats/zs/zs_writer.h"
#include "model/zs/zs_make_job.h"
#include "model/zs/zs_records_model.h"
#include "test_corpus.h"

using strata::model::ZsRecordsModel;

namespace {

const QString kCorpus = QString::fromStdString((strata::test::corpusRoot() / "zs").string()) + '/';

std::shared_ptr<const strata::zs::ZsFile> openZs(const QString& relative) {
    return strata::zs::ZsFile::open(strata::openMappedFile((kCorpus + relative).toStdString()));
}

nlohmann::json manifest() {
    std::ifstream in((kCorpus + "manifest.json").toStdString());
    return nlohmann::json::parse(in);
}

QByteArray uleb128(quint64 v) {
    QByteArray out;
    do {
        char b = char(v & 0x7f);
        v >>= 7;
        if (v) {
            b = char(b | 0x80);
        }
        out += b;
    } while (v);
    return out;
}

// What `zs dump` prints for every row of the model, with the dump options of `args`.
QByteArray dumpOf(ZsRecordsModel& model, const std::vector<std::string>& args) {
    model.fetchUntil(INT_MAX);
    QByteArray terminator("\n");
    QString framing;
    for (const std::string& a : args) {
        const QString arg = QString::fromStdString(a);
        if (arg.startsWith(QLatin1String("--terminator="))) {
            terminator = QByteArray::fromStdString(strata::model::unescapeText(arg.mid(13)));
        } else if (arg.startsWith(QLatin1String("--length-prefixed="))) {
            framing = arg.mid(18);
        }
    }
    QByteArray out;
    for (int row = 0; row < model.rowCount(); ++row) {
        const QByteArray record = model.recordAt(row);
        if (framing == QLatin1String("uleb128")) {
            out += uleb128(quint64(record.size()));
        } else if (framing == QLatin1String("u64le")) {
            quint64 n = quint64(record.size());
            for (int i = 0; i < 8; ++i, n >>= 8) {
                out += char(n & 0xff);
            }
        }
        out += record;
        if (framing.isEmpty()) {
            out += terminator;
        }
    }
    return out;
}

QString sha256(const QByteArray& bytes) {
    return QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex());
}

}  // namespace

class ZsRecordsModelTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { STRATA_QSKIP_WITHOUT_CORPUS(); }

    void everyValidFileReadsToItsDump() {
        const auto m = manifest();
        int files = 0;
        for (const auto& f : m["files"]) {
            const QString name = QString::fromStdString(f["file"].get<std::string>());
            auto file = openZs(name);
            ZsRecordsModel model(file);
            const QByteArray dump = dumpOf(model, f["dump_args"].get<std::vector<std::string>>());
            QVERIFY2(model.isComplete(), qPrintable(name));
            QVERIFY2(model.errorText().isEmpty(), qPrintable(name + ": " + model.errorText()));
            QCOMPARE(model.rowCount(), f["records"].get<int>());
            QCOMPARE(sha256(dump), QString::fromStdString(f["dump_sha256"].get<std::string>()));
            ++files;
        }
        QCOMPARE(files, 20);
    }

    void rowsShowRecordTextNumberAndBlock() {
        auto file = openZs("valid/codec-none.zs");
        ZsRecordsModel model(file);
        QVERIFY(model.canFetchMore({}));
        model.fetchMore({});
        QVERIFY(model.rowCount() > 0);
        QCOMPARE(model.data(model.index(0, ZsRecordsModel::NumberColumn)).toInt(), 0);
        QCOMPARE(model.data(model.index(0, ZsRecordsModel::RecordColumn)).toString(),
                 QStringLiteral("alpha000"));
        QCOMPARE(model.data(model.index(0, ZsRecordsModel::LengthColumn)).toInt(), 8);
        const quint64 block = model.data(model.index(0, ZsRecordsModel::BlockColumn)).toULongLong();
        QCOMPARE(block, file->blocksBegin());
        const strata::Region region = model.blockRegionForRow(0);
        QCOMPARE(region.offset, block);
        QVERIFY(region.length > 0);
        model.setHexRendering(true);
        QCOMPARE(model.data(model.index(0, ZsRecordsModel::RecordColumn)).toString(),
                 QStringLiteral("61 6c 70 68 61 30 30 30"));
    }

    void renderEscapesBinary() {
        const std::uint8_t bytes[] = {'a', '\n', 0x00, 0xff, 'b'};
        QCOMPARE(ZsRecordsModel::renderRecord(bytes, false), QStringLiteral("a\\n\\x00\\xffb"));
        QCOMPARE(ZsRecordsModel::renderRecord(bytes, true), QStringLiteral("61 0a 00 ff 62"));
        QCOMPARE(ZsRecordsModel::renderRecord(bytes, false, 2), QStringLiteral("a\\n …"));
    }

    // Every recorded `zs dump` run that only selects records (prefix/start/stop) on a valid
    // file: the model's rows give the same output.
    void queriesMatchRecordedDumps() {
        const QRegularExpression command(
            QStringLiteral("^\\$ zs dump ((?:--(?:prefix|start|stop)="
                           "\\S+ )*)(valid/\\S+\\.zs)$"));
        const QRegularExpression stdoutLine(
            QStringLiteral("^--stdout \\(\\d+ bytes, sha256 "
                           "([0-9a-f]{64})\\)--$"));
        int checked = 0;
        const QStringList runs = QDir(kCorpus + "cli").entryList({"dump-*.txt"}, QDir::Files);
        for (const QString& run : runs) {
            QFile in(kCorpus + "cli/" + run);
            QVERIFY(in.open(QIODevice::ReadOnly));
            const QStringList lines = QString::fromUtf8(in.readAll()).split('\n');
            const auto match = command.match(lines.value(0));
            if (!match.hasMatch() || lines.value(1) != QLatin1String("exit=0")) {
                continue;
            }
            strata::zs::RecordQuery query;
            for (const QString& option : match.captured(1).split(' ', Qt::SkipEmptyParts)) {
                const qsizetype eq = option.indexOf('=');
                std::string value = strata::model::unescapeText(option.mid(eq + 1));
                const QString key = option.left(eq);
                (key == QLatin1String("--prefix")  ? query.prefix
                 : key == QLatin1String("--start") ? query.start
                                                   : query.stop) = value;
            }
            auto file = openZs(match.captured(2));
            ZsRecordsModel model(file);
            model.setQuery(query, strata::model::zsFirstQueryBlock(*file, query));
            const QString expected = stdoutLine.match(lines.value(2)).captured(1);
            QCOMPARE(sha256(dumpOf(model, {})), expected);
            ++checked;
        }
        QVERIFY2(checked >= 7, qPrintable(QString::number(checked)));
    }

    // A prefix query on the 1M-record file reads O(depth) blocks, not the 69 data blocks, and
    // gives the records a full scan finds (40, as the corpus README's timing run says).
    void prefixSearchDescendsTheIndex() {
        auto file = openZs("valid/big-ngrams-1m.zs");
        QByteArrayList expected;
        strata::zs::ZsRecordIterator all(file);
        while (const auto record = all.next()) {
            const QByteArray r(reinterpret_cast<const char*>(record->data()),
                               qsizetype(record->size()));
            if (r.startsWith("kato ")) {
                expected.append(r);
            }
        }
        QCOMPARE(expected.size(), 40);
        const std::uint64_t before = file->blocksRead();
        strata::zs::RecordQuery query;
        query.prefix = "kato ";
        ZsRecordsModel model(file);
        model.setQuery(query, strata::model::zsFirstQueryBlock(*file, query));
        model.fetchUntil(INT_MAX);
        QVERIFY(file->blocksRead() - before <= 4);
        QCOMPARE(model.rowCount(), int(expected.size()));
        for (int row = 0; row < model.rowCount(); ++row) {
            QCOMPARE(model.recordAt(row), expected[row]);
        }
    }

    void openingReadsOnlyTheFirstBlock() {
        auto file = openZs("valid/big-ngrams-1m.zs");
        const std::uint64_t before = file->blocksRead();
        ZsRecordsModel model(file);
        model.fetchMore({});
        QVERIFY(model.rowCount() >= 512);
        QCOMPARE(file->blocksRead() - before, std::uint64_t(1));
        QVERIFY(!model.isComplete());
    }

    // A last data block bringing more rows than one fetch asks for: the index blocks after it
    // are read at once, so the model knows it has every record (the view says "600 records",
    // not "read so far; scroll for more").
    void lastBlockOfAFetchCompletesTheRows() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("one-block.zs").toStdString();
        strata::zs::WriterOptions options;
        options.threads = 1;
        {
            strata::zs::ZsWriter writer(path, {{"name", "t"}}, options);
            std::vector<std::string> block;
            for (int i = 0; i < 600; ++i) {
                block.push_back(
                    QStringLiteral("r%1").arg(i, 4, 10, QLatin1Char('0')).toStdString());
            }
            writer.addBlock(block);
            writer.finish();
        }
        ZsRecordsModel model(strata::zs::ZsFile::open(strata::openMappedFile(path)));
        QSignalSpy allRead(&model, &ZsRecordsModel::allRead);
        model.fetchMore({});
        QCOMPARE(model.rowCount(), 600);
        QVERIFY(model.isComplete());
        QVERIFY(!model.canFetchMore({}));
        QCOMPARE(allRead.count(), 1);
    }

    void decodedBlocksStayBounded() {
        auto file = openZs("valid/big-ngrams-1m.zs");
        ZsRecordsModel model(file);
        model.setCacheCapacity(3);
        model.fetchUntil(INT_MAX);
        QCOMPARE(model.rowCount(), 1000000);
        QVERIFY(model.cachedBlocks() <= 3);
        const std::uint64_t decodes = model.blockDecodes();
        QVERIFY(!model.recordAt(0).isEmpty());  // evicted long ago: decoded again
        QCOMPARE(model.blockDecodes(), decodes + 1);
        QVERIFY(!model.recordAt(1).isEmpty());  // same block: cached
        QCOMPARE(model.blockDecodes(), decodes + 1);
        QVERIFY(model.cachedBlocks() <= 3);
    }

    // In the GUI a block that was evicted is decoded by a worker: the rows show a placeholder,
    // then change to the records when the block arrives; a second ask does not decode twice.
    void backgroundDecodingFillsRowsWhenTheBlockArrives() {
        auto file = openZs("valid/big-ngrams-1m.zs");
        ZsRecordsModel model(file);
        model.setCacheCapacity(2);
        model.fetchUntil(200000);
        const QByteArray first = model.recordAt(0);  // decoded on the spot: reference text
        model.fetchUntil(400000);                    // evicts block 0 again
        model.setBackgroundDecoding(true);
        const QModelIndex cell = model.index(0, ZsRecordsModel::RecordColumn);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        QCOMPARE(cell.data().toString(), QStringLiteral("decoding…"));
        QVERIFY(!model.index(0, ZsRecordsModel::LengthColumn).data().isValid());
        QCOMPARE(model.pendingDecodes(), std::size_t{1});
        QCOMPARE(cell.data().toString(), QStringLiteral("decoding…"));
        QCOMPARE(model.pendingDecodes(), std::size_t{1});  // asked twice, decoded once
        QVERIFY(changed.wait(30000));
        QCOMPARE(model.pendingDecodes(), std::size_t{0});
        const QModelIndex topLeft = changed.first().at(0).value<QModelIndex>();
        QCOMPARE(topLeft.row(), 0);
        QCOMPARE(cell.data().toString(),
                 ZsRecordsModel::renderRecord(
                     std::span(reinterpret_cast<const std::uint8_t*>(first.constData()),
                               std::size_t(first.size())),
                     false));
        QCOMPARE(model.index(0, ZsRecordsModel::LengthColumn).data().toLongLong(), first.size());
    }

    // A decode that arrives after the rows were replaced (a new query) is dropped.
    void lateDecodeAfterANewQueryIsDropped() {
        auto file = openZs("valid/big-ngrams-1m.zs");
        ZsRecordsModel model(file);
        model.setCacheCapacity(1);
        model.fetchUntil(INT_MAX);
        model.setBackgroundDecoding(true);
        QCOMPARE(model.index(0, ZsRecordsModel::RecordColumn).data().toString(),
                 QStringLiteral("decoding…"));
        model.setQuery({});
        QCOMPARE(model.pendingDecodes(), std::size_t{0});
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        QVERIFY(!changed.wait(500));  // the old block's arrival changes nothing
        QCOMPARE(model.cachedBlocks(), std::size_t{0});
    }

    // A block failing its CRC is one marker row naming its bytes; the readable blocks after it
    // are listed, their records numbered on as if the marker were not there.
    void damagedBlockIsMarkedAndTheBlocksAfterItAreListed() {
        auto file = openZs("corrupt/data-block-crc-wrong.zs");
        ZsRecordsModel model(file);
        QSignalSpy failed(&model, &ZsRecordsModel::readFailed);
        model.fetchUntil(INT_MAX);
        QVERIFY(model.isComplete());
        QCOMPARE(model.rowCount(), 22);
        QCOMPARE(model.recordCount(), std::uint64_t{21});
        QCOMPARE(model.damageCount(), 1);
        QCOMPARE(failed.count(), 1);
        QCOMPARE(model.errorOffset(), std::uint64_t{134});
        QVERIFY(model.isDamageRow(3));
        const QString marker = model.index(3, ZsRecordsModel::RecordColumn).data().toString();
        QVERIFY2(marker.contains(QLatin1String("Bytes 134 to 162")), qPrintable(marker));
        QVERIFY2(marker.contains(QLatin1String("Checksum mismatch")), qPrintable(marker));
        QCOMPARE(model.blockRegionForRow(3).offset, std::uint64_t{134});
        QCOMPARE(model.blockRegionForRow(3).length, std::uint64_t{28});
        QVERIFY(model.recordAt(3).isEmpty());
        QCOMPARE(model.recordAt(2), QByteArray("ant02"));
        QCOMPARE(model.recordAt(4), QByteArray("bee00"));
        QCOMPARE(model.index(4, ZsRecordsModel::NumberColumn).data().toInt(), 3);
        QCOMPARE(model.recordAt(21), QByteArray("dog05"));
    }

    // A generated file whose index is gone and whose blocks 2 and 3 lie under a zeroed page:
    // one marker for the damaged bytes, then every later block. With background decoding the
    // next intact block is looked for on a worker, and nothing is read ahead of the view: the
    // first fetch reads a bounded number of blocks whatever the file's size.
    void unreadableLengthsAreSkippedToTheNextIntactBlock() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("damaged.zs").toStdString();
        strata::zs::WriterOptions options;
        options.codec = strata::zs::Codec::Deflate;
        options.threads = 1;
        std::vector<std::uint64_t> starts;
        {
            strata::zs::ZsWriter writer(path, {{"name", "t"}}, options);
            for (int b = 0; b < 200; ++b) {
                std::vector<std::string> block;
                for (int i = 0; i < 20; ++i) {
                    block.push_back(QStringLiteral("k%1")
                                        .arg(b * 20 + i, 6, 10, QLatin1Char('0'))
                                        .toStdString());
                }
                writer.addBlock(block);
            }
            writer.finish();
            auto file = strata::zs::ZsFile::open(strata::openMappedFile(path));
            for (std::uint64_t at = file->blocksBegin(); at < file->blocksEnd();) {
                starts.push_back(at);
                at = strata::zs::readFrame(file->source(), at, file->blocksEnd()).frame.end();
            }
        }
        {
            std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
            const std::string zeros(std::size_t(starts[4] - starts[2]), '\0');
            f.seekp(std::streamoff(starts[2]));
            f.write(zeros.data(), std::streamsize(zeros.size()));
            const std::string root(std::size_t(std::filesystem::file_size(path) - starts.back()),
                                   '\0');
            f.seekp(std::streamoff(starts.back()));
            f.write(root.data(), std::streamsize(root.size()));
        }
        for (const bool background : {false, true}) {
            auto file = strata::zs::ZsFile::open(strata::openMappedFile(path));
            ZsRecordsModel model(file);
            model.setBackgroundDecoding(background);
            model.fetchMore({});
            QVERIFY(model.rowCount() <= 512 + 20 + 1);  // a fetch stops after 512 rows
            QVERIFY(file->blocksRead() <= 64 + 2);
            for (int i = 0; i < 2000 && !model.isComplete(); ++i) {
                if (model.canFetchMore({})) {
                    model.fetchMore({});
                } else {
                    QTest::qWait(5);
                }
            }
            QVERIFY(model.isComplete());
            QCOMPARE(model.recordCount(), std::uint64_t{198 * 20});
            QCOMPARE(model.damageCount(), 2);  // blocks 2 and 3, and the root index
            QVERIFY(model.isDamageRow(40));
            QCOMPARE(model.blockRegionForRow(40).offset, starts[2]);
            QCOMPARE(model.blockRegionForRow(40).length, starts[4] - starts[2]);
            QCOMPARE(model.recordAt(41), QByteArray("k000080"));
            QCOMPARE(model.index(41, ZsRecordsModel::NumberColumn).data().toInt(), 40);
        }
    }

    void unreadableHeaderGivesNoRows() {
        auto file = openZs("corrupt/magic-bad.zs");
        ZsRecordsModel model(file);
        QVERIFY(!model.canFetchMore({}));
        QCOMPARE(model.rowCount(), 0);
        QVERIFY(!model.errorText().isEmpty());
    }
};

QTEST_GUILESS_MAIN(ZsRecordsModelTest)
#include "zs_records_model_test.moc"
