// The ZS index tree model, header rows and block statistics over the ZS corpus.
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "formats/common/byte_source.h"
#include "formats/zs/zs_reader.h"
#include "formats/zs/zs_writer.h"
#include "model/zs/zs_block_stats.h"
#include "model/zs/zs_header_rows.h"
#include "model/zs/zs_index_model.h"
#include "test_corpus.h"

using strata::model::ZsIndexModel;

namespace {

const QString kCorpus = QString::fromStdString((strata::test::corpusRoot() / "zs").string()) + '/';

std::shared_ptr<const strata::zs::ZsFile> openZs(const QString& relative) {
    return strata::zs::ZsFile::open(strata::openMappedFile((kCorpus + relative).toStdString()));
}

nlohmann::json manifestEntry(const std::string& file) {
    std::ifstream in((kCorpus + "manifest.json").toStdString());
    const nlohmann::json manifest = nlohmann::json::parse(in);
    for (const auto& f : manifest["files"]) {
        if (f["file"] == file) {
            return f;
        }
    }
    return {};
}

// Expands every row (as a user clicking every expander would), counting rows per level.
void expandAll(ZsIndexModel& model, const QModelIndex& parent, std::map<int, int>& perLevel,
               std::set<quint64>& dataOffsets, int& visited) {
    while (model.canFetchMore(parent)) {
        model.fetchMore(parent);
    }
    for (int row = 0; row < model.rowCount(parent); ++row) {
        const QModelIndex index = model.index(row, 0, parent);
        ++visited;
        QVERIFY(visited < 100000);
        expandAll(model, index, perLevel, dataOffsets, visited);
        const QString level =
            model.data(model.index(row, ZsIndexModel::LevelColumn, parent)).toString();
        const int n = level.section(' ', 0, 0).toInt();
        ++perLevel[n];
        if (n == 0) {
            dataOffsets.insert(model.data(index, ZsIndexModel::BlockOffsetRole).toULongLong());
        }
    }
}

}  // namespace

class ZsIndexModelTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { STRATA_QSKIP_WITHOUT_CORPUS(); }

    void multiLevelIndexHasEveryBlock_data() {
        QTest::addColumn<QString>("file");
        QTest::newRow("bf2") << "valid/multilevel-bf2.zs";
        QTest::newRow("bf3-lzma") << "valid/multilevel-bf3-lzma.zs";
        QTest::newRow("duplicates") << "valid/duplicates.zs";
        QTest::newRow("codec-none") << "valid/codec-none.zs";
    }
    void multiLevelIndexHasEveryBlock() {
        QFETCH(QString, file);
        const auto entry = manifestEntry(file.toStdString());
        auto zs = openZs(file);
        ZsIndexModel model(zs);
        QCOMPARE(model.rowCount(), 1);
        const QModelIndex root = model.index(0, 0);
        QCOMPARE(model.data(root).toString(), QStringLiteral("root index"));
        QVERIFY(model.hasChildren(root));
        QCOMPARE(model.rowCount(root), 0);  // nothing read until expanded
        std::map<int, int> perLevel;
        std::set<quint64> dataOffsets;
        int visited = 0;
        expandAll(model, {}, perLevel, dataOffsets, visited);
        for (const auto& [level, count] : entry["structure"]["blocks_per_level"].items()) {
            QCOMPARE(perLevel[std::stoi(level)], count.get<int>());
        }
        // The manifest lists blocks for small files; otherwise walk the file in block order.
        std::set<quint64> expected;
        if (entry["structure"].contains("blocks")) {
            for (const auto& b : entry["structure"]["blocks"]) {
                if (b["level"] == 0) {
                    expected.insert(b["offset"].get<quint64>());
                }
            }
        } else {
            strata::CancelToken cancel;
            for (const auto& b : strata::model::collectZsBlockStats(*zs, cancel).dataBlocks) {
                expected.insert(b.offset);
            }
        }
        QCOMPARE(expected.size(), dataOffsets.size());
        QVERIFY(dataOffsets == expected);
        const strata::Region region = model.blockRegion(root);
        QCOMPARE(region.offset, zs->header().rootIndexOffset);
        QCOMPARE(region.length, zs->header().rootIndexLength);
    }

    void keysAsTextAndHex() {
        auto zs = openZs("valid/codec-none.zs");
        ZsIndexModel model(zs);
        const QModelIndex root = model.index(0, 0);
        model.fetchMore(root);
        QCOMPARE(model.rowCount(root), 2);
        const QModelIndex first = model.index(0, ZsIndexModel::KeyColumn, root);
        QCOMPARE(model.data(first).toString(), QStringLiteral("alpha000"));
        QVERIFY(!model.hasChildren(first));  // a data block
        model.setHexRendering(true);
        QCOMPARE(model.data(first).toString(), QStringLiteral("61 6c 70 68 61 30 30 30"));
    }

    void batchesBoundTheRowsAdded() {
        auto zs = openZs("valid/multilevel-bf3-lzma.zs");
        ZsIndexModel model(zs);
        model.setBatchSize(1);
        const QModelIndex root = model.index(0, 0);
        model.fetchMore(root);
        QCOMPARE(model.rowCount(root), 1);
        QVERIFY(model.canFetchMore(root));
        model.fetchMore(root);
        QCOMPARE(model.rowCount(root), 2);
    }

    // A cycle or a level that does not go down is shown as an error, never followed.
    void damagedIndexesTerminate_data() {
        QTest::addColumn<QString>("file");
        for (const char* name :
             {"index-offset-self-cycle.zs", "index-offset-mid-block.zs", "index-offset-past-eof.zs",
              "root-level-plus1.zs", "empty-index-block.zs", "root-is-data-block.zs"}) {
            QTest::newRow(name) << QStringLiteral("corrupt/") + name;
        }
    }
    void damagedIndexesTerminate() {
        QFETCH(QString, file);
        auto zs = openZs(file);
        ZsIndexModel model(zs);
        std::map<int, int> perLevel;
        std::set<quint64> offsets;
        int visited = 0;
        expandAll(model, {}, perLevel, offsets, visited);
        QVERIFY(visited < 1000);
    }

    void headerRowsCarryTheirBytes() {
        auto zs = openZs("valid/codec-none.zs");
        const auto& h = zs->header();
        const auto rows = strata::model::zsHeaderRows(h);
        QStringList fields;
        for (const auto& row : rows) {
            fields << row.field;
            QVERIFY2(row.region.length > 0 || row.field == QLatin1String("metadata"),
                     qPrintable(row.field));
            QCOMPARE(row.status, strata::Status::Ok);
        }
        QCOMPARE(fields, QStringList({"magic", "header length", "root index offset",
                                      "root index length", "total file length", "data sha256",
                                      "codec", "metadata length", "metadata", "header crc"}));
        QCOMPARE(rows[2].value, QString::number(h.rootIndexOffset));
        QCOMPARE(rows[2].region.offset, h.rootOffsetRegion.offset);
        QCOMPARE(rows[6].value, QStringLiteral("none"));
        QCOMPARE(rows[0].region.offset, quint64(0));
        QCOMPARE(rows[0].region.length, quint64(8));
        QVERIFY(rows[9].value.contains(QLatin1String("matches")));
    }

    void headerRowsOfDamagedFiles() {
        auto incomplete = openZs("refsuite/incomplete-magic.zs");
        const auto rows = strata::model::zsHeaderRows(incomplete->header());
        QVERIFY(
            rows[0].value.contains(QLatin1String("incomplete file: the writer never finished")));
        QCOMPARE(rows[0].status, strata::Status::Error);

        auto crc = openZs("corrupt/header-crc-wrong.zs");
        const auto crcRows = strata::model::zsHeaderRows(crc->header());
        QCOMPARE(crcRows.back().field, QStringLiteral("header crc"));
        QCOMPARE(crcRows.back().status, strata::Status::Error);
        QVERIFY(crcRows.back().value.contains(QLatin1String("computed")));

        auto extension = openZs("corrupt/header-extension-bytes.zs");
        bool found = false;
        for (const auto& row : strata::model::zsHeaderRows(extension->header())) {
            if (row.field == QLatin1String("extension bytes")) {
                found = true;
                QVERIFY(row.region.length > 0);
                QCOMPARE(row.region.offset, extension->header().extensionRegion.offset);
            }
        }
        QVERIFY(found);

        auto nested = openZs("valid/metadata-nested.zs");
        const QString pretty = strata::model::zsMetadataText(nested->header());
        QVERIFY(pretty.contains('\n'));
        QCOMPARE(QString::fromStdString(nlohmann::json::parse(pretty.toStdString()).dump()),
                 QString::fromStdString(nested->header().metadata->dump()));
    }

    void blockStatsMatchTheManifest_data() {
        QTest::addColumn<QString>("file");
        for (const char* name : {"valid/codec-none.zs", "valid/codec-deflate.zs",
                                 "valid/multilevel-bf2.zs", "valid/big-ngrams-1m.zs"}) {
            QTest::newRow(name) << QString::fromLatin1(name);
        }
    }
    void blockStatsMatchTheManifest() {
        QFETCH(QString, file);
        const auto entry = manifestEntry(file.toStdString());
        auto zs = openZs(file);
        strata::CancelToken cancel;
        double last = 0;
        const auto stats =
            strata::model::collectZsBlockStats(*zs, cancel, [&last](double f) { last = f; });
        QVERIFY(stats.error.empty());
        QCOMPARE(last, 1.0);
        QCOMPARE(int(stats.dataBlocks.size()),
                 entry["structure"]["blocks_per_level"]["0"].get<int>());
        std::uint64_t records = 0;
        for (const auto& b : stats.dataBlocks) {
            records += b.records;
            QVERIFY(!b.damaged);
            QVERIFY(b.ratio() > 0);
        }
        QCOMPARE(records, entry["records"].get<std::uint64_t>());
        if (file.contains(QLatin1String("codec-none"))) {
            QVERIFY(stats.dataBlocks.front().ratio() <= 1.0);
        }
    }

    void blockStatsCancelAndDamage() {
        auto zs = openZs("valid/big-ngrams-1m.zs");
        strata::CancelToken cancel;
        cancel.cancel();
        QVERIFY(strata::model::collectZsBlockStats(*zs, cancel).cancelled);

        auto damaged = openZs("corrupt/data-payload-bitflip.zs");
        strata::CancelToken keep;
        const auto stats = strata::model::collectZsBlockStats(*damaged, keep);
        int bad = 0;
        for (const auto& b : stats.dataBlocks) {
            bad += b.damaged ? 1 : 0;
        }
        QVERIFY(bad >= 1);
    }

    // A length that cannot be read (zeroed) does not end the walk: it goes on at the next intact
    // block, through the index or, with the index gone, by scanning.
    void blockStatsGoOnPastAnUnreadableLength() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("damaged.zs").toStdString();
        strata::zs::WriterOptions options;
        options.codec = strata::zs::Codec::Deflate;
        options.threads = 1;
        {
            strata::zs::ZsWriter writer(path, {{"name", "t"}}, options);
            for (int b = 0; b < 30; ++b) {
                std::vector<std::string> block;
                for (int i = 0; i < 10; ++i) {
                    block.push_back(std::to_string(100000 + b * 10 + i));
                }
                writer.addBlock(block);
            }
            writer.finish();
        }
        std::vector<std::uint64_t> starts;
        {
            auto file = strata::zs::ZsFile::open(strata::openMappedFile(path));
            for (std::uint64_t at = file->blocksBegin(); at < file->blocksEnd();) {
                starts.push_back(at);
                at = strata::zs::readFrame(file->source(), at, file->blocksEnd()).frame.end();
            }
        }
        const auto zero = [&](std::uint64_t at, std::uint64_t length) {
            std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
            f.seekp(std::streamoff(at));
            const std::string zeros(std::size_t(length), '\0');
            f.write(zeros.data(), std::streamsize(zeros.size()));
        };
        zero(starts[10], 6);  // the length field and the start of the payload
        for (const bool indexGone : {false, true}) {
            if (indexGone) {
                zero(starts.back(), 4);
            }
            strata::CancelToken keep;
            const auto stats = strata::model::collectZsBlockStats(
                *strata::zs::ZsFile::open(strata::openMappedFile(path)), keep);
            QCOMPARE(stats.unreadableStretches, std::uint64_t{indexGone ? 2u : 1u});
            QCOMPARE(stats.errorOffset, starts[10]);
            QCOMPARE(int(stats.dataBlocks.size()), 29);
            std::uint64_t records = 0;
            for (const auto& b : stats.dataBlocks) {
                records += b.records;
            }
            QCOMPARE(records, std::uint64_t{290});
        }
    }
};

QTEST_GUILESS_MAIN(ZsIndexModelTest)
#include "zs_index_model_test.moc"
