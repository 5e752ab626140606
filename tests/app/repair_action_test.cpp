// Tools > Repair… on a damaged ZS file, ZDS dataset, OZDF documents and Shardlake root: the
// repair is planned and run as jobs, the repaired copy is written beside the file under a free
// "-repaired" name (the damaged file untouched) and opens in a new tab with a compare view
// against the damaged input; a format without a repair says so.
#include <QDir>
#include <QFile>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <fstream>

#include "app/compare/compare_view.h"
#include "app/gui/main_window.h"
#include "app/widgets/document_view.h"
#include "formats/builtin/format_repair.h"
#include "formats/zs/zs_reader.h"
#include "formats/zs/zs_writer.h"
#include "model/compare/comparison.h"
#include "model/core/document.h"
#include "model/repair/repair_job.h"
#include "test_corpus.h"

using namespace strata;
using namespace strata::gui;

namespace {

// Tools > Repair… plans as a job, starts the repair as another, then opens the copy: waits
// for all three.
bool waitForPlanAndRepair(MainWindow& window) {
    if (!window.waitUntilIdle(30000) || !window.waitUntilIdle(30000)) {
        return false;
    }
    QCoreApplication::processEvents();
    return window.waitUntilIdle(30000);
}

}  // namespace

class RepairActionTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("StrataTest"));
        QCoreApplication::setApplicationName(QStringLiteral("repair_action_test"));
        QVERIFY(dir_.isValid());
    }

    void repairsADamagedZsFileIntoANewTab() {
        const QString path = dir_.filePath("damaged.zs");
        zs::WriterOptions options;
        options.codec = zs::Codec::Deflate;
        {
            zs::ZsWriter writer(path.toStdString(), {{"name", "t"}}, options);
            for (int b = 0; b < 4; ++b) {
                std::vector<std::string> block;
                for (int i = 0; i < 50; ++i) {
                    block.push_back("k" + std::to_string(1000 + b * 50 + i));
                }
                writer.addBlock(block);
            }
            writer.finish();
        }
        // Cut inside the last blocks: the first ones survive.
        const qint64 size = QFileInfo(path).size();
        QVERIFY(QFile::resize(path, size * 2 / 3));
        const QByteArray before = [&] {
            QFile f(path);
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        }();

        MainWindow window;
        window.setInteractive(false);
        QVERIFY(window.openPath(path));
        QVERIFY(window.waitUntilIdle(30000));
        const int tabs = window.documentCount();
        QVERIFY(window.repairCurrent() != nullptr);
        QVERIFY(waitForPlanAndRepair(window));

        const QString repaired = dir_.filePath("damaged-repaired.zs");
        QVERIFY(QFileInfo::exists(repaired));
        QCOMPARE(window.documentCount(), tabs + 1);
        QCOMPARE(window.currentView()->document()->path(), repaired);
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), before);
        // The compare view between the damaged file and its repair shows only the damage.
        const auto views = window.findChildren<CompareView*>();
        QCOMPARE(views.size(), 1);
        QVERIFY(views.front()->windowTitle().contains(QStringLiteral("repaired copy")));
        QVERIFY(window.waitUntilIdle(30000));
        model::Comparison* comparison = views.front()->comparison();
        QCOMPARE(comparison->state(), model::Comparison::State::Completed);
        QCOMPARE(comparison->summary().total(), quint64(1));  // the cut, nothing else
        QCOMPARE(comparison->summary().changed, quint64(1));
        // Both sides are the tabs' documents, shared: the repair opened nothing twice.
        QCOMPARE(comparison->a()->opened(), window.viewAt(0)->document()->opened());
        QCOMPARE(comparison->b()->opened(), window.currentView()->document()->opened());
        // A second repair picks the next free name.
        QCOMPARE(model::suggestedRepairPath(path), dir_.filePath("damaged-repaired-2.zs"));
    }

    // A ZS block failing its CRC is left out, its records quarantined beside the copy as
    // NAME-repaired.zs.quarantine.txt; a quarantine left there alone makes the name taken.
    void quarantinesTheRecordsOfAZsBlockFailingItsCrc() {
        const QString path = dir_.filePath("crc.zs");
        zs::WriterOptions options;
        options.codec = zs::Codec::None;
        {
            zs::ZsWriter writer(path.toStdString(), {{"name", "t"}}, options);
            for (int b = 0; b < 4; ++b) {
                std::vector<std::string> block;
                for (int i = 0; i < 50; ++i) {
                    block.push_back("k" + std::to_string(1000 + b * 50 + i));
                }
                writer.addBlock(block);
            }
            writer.finish();
        }
        {
            auto file = zs::ZsFile::open(openMappedFile(path.toStdString()));
            std::uint64_t at = file->blocksBegin();
            at = zs::readFrame(file->source(), at, file->blocksEnd()).frame.end();  // block 2
            file.reset();
            QFile f(path);
            QVERIFY(f.open(QIODevice::ReadWrite));
            QVERIFY(f.seek(qint64(at) + 10));
            QVERIFY(f.write("x", 1) == 1);
        }
        MainWindow window;
        window.setInteractive(false);
        QVERIFY(window.openPath(path));
        QVERIFY(window.waitUntilIdle(30000));
        QVERIFY(window.repairCurrent() != nullptr);
        QVERIFY(waitForPlanAndRepair(window));
        const QString repaired = dir_.filePath("crc-repaired.zs");
        QVERIFY(QFileInfo::exists(repaired));
        QFile quarantine(repaired + QStringLiteral(".quarantine.txt"));
        QVERIFY(quarantine.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = quarantine.readAll().split('\n');
        QCOMPARE(
            std::count_if(lines.begin(), lines.end(),
                          [](const QByteArray& l) { return !l.isEmpty() && !l.startsWith('#'); }),
            50);  // the damaged block's records, as they read now
        QCOMPARE(window.currentView()->document()->path(), repaired);
        QVERIFY(QFile::remove(repaired));
        QCOMPARE(model::suggestedRepairPath(path), dir_.filePath("crc-repaired-2.zs"));
    }

    void repairsADamagedZdsDatasetIntoANewTab() {
        const QDir root(dir_.filePath("dataset"));
        QVERIFY(root.mkpath(QStringLiteral("collections/c/meta")));
        const QString data = root.filePath("collections/c/meta/data.jsonl");
        QFile f(data);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"_id\":\"a\",\"v\":1}\nnot json\n{\"_id\":\"b\",\"v\":2}\n");
        f.close();

        MainWindow window;
        window.setInteractive(false);
        QVERIFY(window.openPath(root.path()));
        QVERIFY(window.waitUntilIdle(30000));
        const int tabs = window.documentCount();
        QVERIFY(window.repairCurrent() != nullptr);
        QVERIFY(waitForPlanAndRepair(window));

        const QString repaired = dir_.filePath("dataset-repaired");
        QVERIFY(QFileInfo(repaired).isDir());
        QVERIFY(QFileInfo::exists(repaired + QStringLiteral(".quarantine.jsonl")));
        QVERIFY(QFileInfo::exists(repaired + QStringLiteral("/collections/c/meta/index.bin")));
        QCOMPARE(window.documentCount(), tabs + 1);
        QCOMPARE(window.currentView()->document()->path(), repaired);
        QVERIFY(!QFileInfo::exists(root.filePath("collections/c/meta/index.bin")));
    }

    // A ZDS dataset with an older version of a document: the plan drops it and offers to plan
    // again keeping it; the repair with that choice keeps the line (unindexed, first) and the
    // same documents. Other plans offer nothing of the kind.
    void keepsSupersededZdsLinesWhenAsked() {
        const QDir root(dir_.filePath("history"));
        QVERIFY(root.mkpath(QStringLiteral("collections/c/meta")));
        QFile f(root.filePath("collections/c/meta/data.jsonl"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"_id\":\"a\",\"v\":1}\n{\"_id\":\"b\",\"v\":2}\n{\"_id\":\"a\",\"v\":3}\n");
        f.close();
        const std::string input = root.path().toStdString();
        RepairOptions dry;
        dry.dryRun = true;
        const RepairReport plan = repairPath(input, input + "-plan", dry);
        using model::RepairReplan;
        QCOMPARE(model::repairReplans(plan, {}),
                 std::vector<RepairReplan>{RepairReplan::KeepSuperseded});
        QVERIFY(model::repairReplans(plan, {.keepSuperseded = true}).empty());
        // A loss that recomputing digests would not save offers nothing; one it would, does.
        RepairReport lossy;
        lossy.losses.push_back({"a tensor is lost", {}});
        QVERIFY(model::repairReplans(lossy, {}).empty());
        lossy.recomputingDigestsKeepsMore = true;
        QCOMPARE(model::repairReplans(lossy, {}),
                 std::vector<RepairReplan>{RepairReplan::RecomputeDigests});
        QVERIFY(model::repairReplans(lossy, {.recomputeDigests = true}).empty());

        MainWindow window;
        window.setInteractive(false);
        QVERIFY(window.openPath(root.path()));
        QVERIFY(window.waitUntilIdle(30000));
        QVERIFY(window.repairCurrent({}, {.keepSuperseded = true}) != nullptr);
        QVERIFY(waitForPlanAndRepair(window));
        const QString repaired = dir_.filePath("history-repaired");
        QFile data(repaired + QStringLiteral("/collections/c/meta/data.jsonl"));
        QVERIFY(data.open(QIODevice::ReadOnly));
        QVERIFY(data.readAll().startsWith("{\"_id\":\"a\",\"v\":1}\n"));
        QCOMPARE(window.currentView()->document()->path(), repaired);
    }

    // A long plan is shortened for the preview, losses first; the whole text lists everything.
    void previewTextIsShortenedLossesFirst() {
        RepairReport report;
        report.itemName = "documents";
        report.recovered = 7;
        for (int i = 0; i < 30; ++i) {
            report.actions.push_back({"dropped line " + std::to_string(i), {}});
        }
        report.losses.push_back({"document 'x' is lost", {}});
        const QStringList shortText = model::repairReportText(report, 5).split(QLatin1Char('\n'));
        QCOMPARE(shortText.size(), 7);
        QCOMPARE(shortText[0], QStringLiteral("7 documents can be saved; 1 loss."));
        QCOMPARE(shortText[1], QStringLiteral("✗ document 'x' is lost"));
        QCOMPARE(shortText[2], QStringLiteral("• dropped line 0"));
        QVERIFY(shortText[6].contains(QStringLiteral("26 more")));
        QCOMPARE(model::repairReportText(report).split(QLatin1Char('\n')).size(), 32);
    }

    // An OZDF directory document whose parts have a gap and one unreadable part: the copy is a
    // folder `NAME-repaired/` with the part quarantined beside it; a standalone document whose
    // header lost its blank line comes back as `NAME-repaired.ozdf`, complete.
    void repairsDamagedOzdfDocumentsIntoNewTabs() {
        const QDir book(dir_.filePath("book"));
        QVERIFY(book.mkpath(QStringLiteral(".")));
        const auto write = [](const QString& path, const QByteArray& bytes) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(bytes);
        };
        write(book.filePath("_metadata.ozdf"), "#### TITLE\nA book\n\n#### [[CHAPTERS]]\n\n");
        write(book.filePath("CHAPTERS-01.ozdp"), "#### DATA\none\n\n");
        write(book.filePath("CHAPTERS-02.ozdp"), "#### DATA\nbad \xff\n\n");
        write(book.filePath("CHAPTERS-05.ozdp"), "#### DATA\nfive\n\n");
        write(dir_.filePath("note.ozdf"), "#### TITLE\nwords\n#### BODY\nmore\n");

        MainWindow window;
        window.setInteractive(false);
        for (const QString& input : {book.path(), dir_.filePath("note.ozdf")}) {
            QVERIFY(window.openPath(input));
            QVERIFY(window.waitUntilIdle(30000));
            const int tabs = window.documentCount();
            QVERIFY(window.repairCurrent() != nullptr);
            QVERIFY(waitForPlanAndRepair(window));
            QCOMPARE(window.documentCount(), tabs + 1);
        }
        const QString repairedBook = dir_.filePath("book-repaired");
        QVERIFY(QFileInfo(repairedBook).isDir());
        QVERIFY(QFileInfo::exists(repairedBook + QStringLiteral("/CHAPTERS-02.ozdp")));
        QVERIFY(!QFileInfo::exists(repairedBook + QStringLiteral("/CHAPTERS-03.ozdp")));
        QVERIFY(QFileInfo::exists(repairedBook + QStringLiteral(".quarantine/CHAPTERS-02.ozdp")));
        QVERIFY(QFileInfo::exists(book.filePath("CHAPTERS-05.ozdp")));  // the input untouched
        const QString repairedNote = dir_.filePath("note-repaired.ozdf");
        QVERIFY(QFileInfo(repairedNote).isFile());
        QCOMPARE(window.currentView()->document()->path(), repairedNote);
        QFile note(repairedNote);
        QVERIFY(note.open(QIODevice::ReadOnly));
        QCOMPARE(note.readAll(), QByteArray("#### TITLE\nwords\n\n#### BODY\nmore\n\n"));
        // A quarantine left beside a name makes it taken too.
        QVERIFY(QFile::rename(repairedBook, dir_.filePath("elsewhere")));
        QCOMPARE(model::suggestedRepairPath(book.path()), dir_.filePath("book-repaired-2"));
    }

    // A zTensor whose only tensor fails its digest: nothing is saved as it is; asked to
    // recompute digests, the tensor is kept with a new digest and the copy opens.
    void recomputesZTensorDigestsWhenAsked() {
        const std::filesystem::path corpus =
            strata::test::corpusRoot() / "ztensor/corrupt/digest_mismatch.zt";
        if (!std::filesystem::exists(corpus)) {
            QSKIP(strata::test::missingCorpusMessage().c_str());
        }
        const QString path = dir_.filePath("digest_mismatch.zt");
        QVERIFY(QFile::copy(QString::fromStdString(corpus.string()), path));
        MainWindow window;
        window.setInteractive(false);
        QVERIFY(window.openPath(path));
        QVERIFY(window.waitUntilIdle(30000));
        const QString repaired = dir_.filePath("digest_mismatch-repaired.zt");

        QVERIFY(window.repairCurrent() != nullptr);
        QVERIFY(window.waitUntilIdle(30000));
        QCoreApplication::processEvents();
        QVERIFY(window.waitUntilIdle(30000));
        QVERIFY(window.lastError().contains(QStringLiteral("Cannot repair")));
        QVERIFY(!QFileInfo::exists(repaired));

        const int tabs = window.documentCount();
        QVERIFY(window.repairCurrent({}, {.recomputeDigests = true}) != nullptr);
        QVERIFY(waitForPlanAndRepair(window));
        QVERIFY(QFileInfo::exists(repaired));
        QCOMPARE(window.documentCount(), tabs + 1);
        QCOMPARE(window.currentView()->document()->path(), repaired);
    }

    // A Shardlake storage root (a folder whose name has a dot) with a cut shard: the copy is
    // the folder "NAME-repaired" beside it, it validates and opens in a new tab.
    void repairsADamagedShardlakeRootIntoANewTab() {
        const std::filesystem::path corpus =
            strata::test::corpusRoot() / "shardlake/corrupt/shard_truncated";
        if (!std::filesystem::exists(corpus)) {
            QSKIP(strata::test::missingCorpusMessage().c_str());
        }
        const QString root = dir_.filePath("store.v1");
        std::filesystem::copy(corpus, root.toStdString(), std::filesystem::copy_options::recursive);
        QCOMPARE(model::suggestedRepairPath(root + QStringLiteral("/")),
                 dir_.filePath("store.v1-repaired"));

        MainWindow window;
        window.setInteractive(false);
        QVERIFY(window.openPath(root));
        QVERIFY(window.waitUntilIdle(30000));
        const int tabs = window.documentCount();
        QVERIFY(window.repairCurrent() != nullptr);
        QVERIFY(waitForPlanAndRepair(window));

        const QString repaired = dir_.filePath("store.v1-repaired");
        QVERIFY(QFileInfo(repaired).isDir());
        QVERIFY(QFileInfo::exists(repaired + QStringLiteral("/indexes/idx-raw/manifest.json")));
        QCOMPARE(window.documentCount(), tabs + 1);
        QCOMPARE(window.currentView()->document()->path(), repaired);
        QCOMPARE(window.currentView()->document()->formatName(), QStringLiteral("Shardlake"));
    }

    void aFormatWithoutARepairSaysSo() {
        const QString path = dir_.filePath("raw.bin");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("just bytes");
        f.close();
        MainWindow window;
        window.setInteractive(false);
        QVERIFY(window.openPath(path));
        QVERIFY(window.repairCurrent() == nullptr);
        QVERIFY(window.lastError().contains(QStringLiteral("not supported yet")));
    }

private:
    QTemporaryDir dir_;
};

QTEST_MAIN(RepairActionTest)
#include "repair_action_test.moc"
