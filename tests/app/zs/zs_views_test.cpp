// The ZS views in a DocumentView: the tabs install for a .zs document, header rows, index rows,
// records and chart points select their bytes, the records search jumps to the first match, and
// the New ZS file dialog builds a file that reads back. With STRATA_ZS_SCREENSHOT_DIR set, the
// tabs are also saved as PNG images (for docs/images).
#include <QApplication>
#include <QBrush>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

#include <climits>

#include "app/gui/builtin_format_views.h"
#include "app/gui/main_window.h"
#include "app/widgets/document_view.h"
#include "app/widgets/hex_view.h"
#include "app/zs/new_zs_file_dialog.h"
#include "app/zs/zs_chart_view.h"
#include "app/zs/zs_header_panel.h"
#include "app/zs/zs_index_view.h"
#include "app/zs/zs_records_view.h"
#include "formats/common/byte_source.h"
#include "formats/zs/zs_reader.h"
#include "model/core/document.h"
#include "model/core/job.h"
#include "model/core/job_runner.h"
#include "model/zs/zs_index_model.h"
#include "model/zs/zs_records_model.h"
#include "test_corpus.h"

using namespace strata::gui;

namespace {

const QString kCorpus = QString::fromStdString((strata::test::corpusRoot() / "zs").string()) + '/';

struct Opened {
    std::unique_ptr<strata::model::JobRunner> runner;
    std::unique_ptr<DocumentView> view;
};

Opened openView(const QString& relative) {
    Opened o;
    o.runner = std::make_unique<strata::model::JobRunner>();
    QString error;
    auto document = strata::model::Document::open(kCorpus + relative, &error);
    if (!document) {
        qWarning() << error;
        return o;
    }
    o.view =
        std::make_unique<DocumentView>(std::move(document), o.runner.get(), builtinFormatViews());
    o.view->resize(1200, 800);
    o.view->show();
    return o;
}

QStringList tabNames(const DocumentView& view) {
    QStringList names;
    for (int i = 0; i < view.centreTabs()->count(); ++i) {
        names << view.centreTabs()->tabText(i);
    }
    return names;
}

bool waitFor(strata::model::Job* job) {
    return QTest::qWaitFor([job] { return !job || !job->isRunning(); }, 60000);
}

void showTab(DocumentView& view, QWidget* page) {
    view.centreTabs()->setCurrentWidget(page);
    QApplication::processEvents();
}

}  // namespace

class ZsViewsTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { STRATA_QSKIP_WITHOUT_CORPUS(); }

    void tabsInstallForZsDocuments() {
        Opened o = openView("valid/codec-none.zs");
        QVERIFY(o.view);
        const QStringList names = tabNames(*o.view);
        for (const char* name : {"ZS Header", "Index", "Records", "Blocks Chart"}) {
            QVERIFY2(names.contains(QString::fromLatin1(name)), qPrintable(names.join(", ")));
        }
        QVERIFY(o.view->findChild<ZsHeaderPanel*>());
        QVERIFY(o.view->findChild<ZsRecordsView*>());
    }

    void unreadableHeaderShowsOnlyTheHeaderTab() {
        Opened o = openView("corrupt/magic-bad.zs");
        QVERIFY(o.view);
        QVERIFY(o.view->findChild<ZsHeaderPanel*>());
        QVERIFY(!o.view->findChild<ZsRecordsView*>());
    }

    void clickingAHeaderRowSelectsItsBytes() {
        Opened o = openView("valid/codec-none.zs");
        auto* panel = o.view->findChild<ZsHeaderPanel*>();
        showTab(*o.view, panel);
        QTableWidget* table = panel->table();
        int row = -1;
        for (int r = 0; r < table->rowCount(); ++r) {
            if (table->item(r, 0)->text() == QLatin1String("root index offset")) {
                row = r;
            }
        }
        QVERIFY(row >= 0);
        const QRect rect = table->visualItemRect(table->item(row, 1));
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, rect.center());
        const strata::Region expected = panel->rows()[row].region;
        QCOMPARE(o.view->hexView()->selectionStart(), expected.offset);
        QCOMPARE(o.view->hexView()->selectionLength(), expected.length);
        QCOMPARE(expected.length, quint64(8));
        QVERIFY(panel->metadataText()->toPlainText().startsWith('{'));
    }

    void incompleteFileSaysSo() {
        Opened o = openView("refsuite/incomplete-magic.zs");
        QVERIFY(o.view);
        auto* panel = o.view->findChild<ZsHeaderPanel*>();
        QVERIFY(panel);
        QVERIFY(panel->table()->item(0, 1)->text().contains(
            QLatin1String("incomplete file: the writer never finished")));
    }

    void clickingAnIndexRowSelectsItsBlock() {
        Opened o = openView("valid/multilevel-bf3-lzma.zs");
        auto* index = o.view->findChild<ZsIndexView*>();
        showTab(*o.view, index);
        QTreeView* tree = index->tree();
        const QModelIndex root = index->model()->index(0, 0);
        tree->expand(root);
        QApplication::processEvents();
        QVERIFY(index->model()->rowCount(root) > 0);
        const QModelIndex child = index->model()->index(1, 0, root);
        tree->scrollTo(child);
        QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualRect(child).center());
        const strata::Region region = index->model()->blockRegion(child);
        QCOMPARE(o.view->hexView()->selectionStart(), region.offset);
        QCOMPARE(o.view->hexView()->selectionLength(), region.length);
    }

    void searchJumpsToTheFirstMatch() {
        Opened o = openView("valid/codec-none.zs");
        auto* records = o.view->findChild<ZsRecordsView*>();
        showTab(*o.view, records);
        records->prefixEdit()->setText(QStringLiteral("gamma01"));
        QSignalSpy done(records, &ZsRecordsView::searchDone);
        strata::model::Job* job = records->search();
        QVERIFY(job);
        QVERIFY(waitFor(job));
        QTRY_COMPARE(done.count(), 1);
        QCOMPARE(done.first().first().toInt(), 10);
        auto* model = records->model();
        model->fetchUntil(INT_MAX);
        QCOMPARE(model->rowCount(), 10);
        QCOMPARE(model->recordAt(0), QByteArray("gamma010"));
        QCOMPARE(records->table()->currentIndex().row(), 0);
        const strata::Region block = model->blockRegionForRow(0);
        QCOMPARE(o.view->hexView()->selectionStart(), block.offset);
        QCOMPARE(o.view->hexView()->selectionLength(), block.length);

        // A range, then back to every record.
        records->prefixEdit()->clear();
        records->startEdit()->setText(QStringLiteral("beta058"));
        records->stopEdit()->setText(QStringLiteral("delta002"));
        job = records->search();
        QVERIFY(waitFor(job));
        QTRY_COMPARE(done.count(), 2);
        model->fetchUntil(INT_MAX);
        QCOMPARE(model->recordAt(0), QByteArray("beta058"));
        QCOMPARE(model->recordAt(model->rowCount() - 1), QByteArray("delta001"));
        records->showAll();
        model->fetchUntil(INT_MAX);
        QCOMPARE(model->rowCount(), 300);
        QVERIFY(records->statusLabel()->text().contains(QLatin1String("300")));
    }

    // The damaged block is one red marker row naming its bytes (a click selects them); the
    // blocks after it are listed, and the status counts their records and names the damage.
    void damagedBlockIsReportedInTheRecordsTab() {
        Opened o = openView("corrupt/data-block-crc-wrong.zs");
        auto* records = o.view->findChild<ZsRecordsView*>();
        QVERIFY(records);
        records->model()->fetchUntil(INT_MAX);
        const QString status = records->statusLabel()->text();
        QVERIFY2(status.contains(QLatin1String("Checksum")), qPrintable(status));
        QVERIFY2(status.startsWith(QStringLiteral("21 records — ")), qPrintable(status));
        const QModelIndex marker = records->table()->model()->index(3, 1);
        QVERIFY(marker.data().toString().contains(QLatin1String("Bytes 134 to 162")));
        QCOMPARE(marker.data(Qt::ForegroundRole).value<QBrush>().color(), QColor(0xd0, 0x30, 0x30));
        QCOMPARE(records->table()->model()->index(4, 1).data().toString(), QStringLiteral("bee00"));
        records->activateRow(3);
        QCOMPARE(o.view->hexView()->selectionStart(), std::uint64_t{134});
        QCOMPARE(o.view->hexView()->selectionLength(), std::uint64_t{28});
    }

    void chartPointsSelectTheirBlocks() {
        Opened o = openView("valid/multilevel-bf3-lzma.zs");
        auto* chart = o.view->findChild<ZsChartView*>();
        QSignalSpy ready(chart, &ZsChartView::statsReady);
        showTab(*o.view, chart);  // the first show starts the job
        QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 1, 60000);
        QCOMPARE(int(chart->stats().dataBlocks.size()), 44);
        QCOMPARE(chart->ratioSeries()->count(), 44);
        chart->activateBlock(5);
        QCOMPARE(o.view->hexView()->selectionStart(), chart->stats().dataBlocks[5].offset);
        QCOMPARE(o.view->hexView()->selectionLength(), chart->stats().dataBlocks[5].length);
    }

    void newFileDialogBuildsAFile() {
        QTemporaryDir dir;
        QFile input(dir.filePath("in.txt"));
        QVERIFY(input.open(QIODevice::WriteOnly));
        for (int i = 0; i < 500; ++i) {
            input.write(QByteArray::number(1000 + i) + "\n");
        }
        input.close();
        NewZsFileDialog dialog;
        dialog.inputEdit()->setText(input.fileName());
        dialog.outputEdit()->setText(dir.filePath("out.zs"));
        dialog.codecBox()->setCurrentIndex(1);  // deflate
        dialog.blockSizeBox()->setValue(500);
        dialog.branchingBox()->setValue(3);
        dialog.metadataEdit()->setPlainText(QStringLiteral("[1]"));
        QString error;
        QVERIFY(!dialog.request(&error));
        QVERIFY(error.contains(QLatin1String("object")));
        dialog.metadataEdit()->setPlainText(QStringLiteral(R"({"source": "test"})"));
        const auto request = dialog.request(&error);
        QVERIFY2(request, qPrintable(error));
        QCOMPARE(request->options.codec, strata::zs::Codec::Deflate);
        QCOMPARE(request->terminator, std::string("\n"));

        strata::model::JobRunner runner;
        QWidget parent;
        QString created;
        strata::model::Job* job = startNewZsFile(
            &parent, runner, *request, [&created](const QString& path) { created = path; });
        QVERIFY(waitFor(job));
        QCOMPARE(created, dir.filePath("out.zs"));
        QCOMPARE(job->state(), strata::model::Job::State::Finished);
        auto file =
            strata::zs::ZsFile::open(strata::openMappedFile(dir.filePath("out.zs").toStdString()));
        QCOMPARE(file->findRecords(std::nullopt, std::nullopt).size(), std::size_t(500));
        QCOMPARE(file->findPrefix("1499").size(), std::size_t(1));
    }

    // Not a check: images of the tabs for the documentation, when asked for.
    void screenshots() {
        const QString out = qEnvironmentVariable("STRATA_ZS_SCREENSHOT_DIR");
        if (out.isEmpty()) {
            QSKIP("STRATA_ZS_SCREENSHOT_DIR not set");
        }
        MainWindow window;
        window.setInteractive(false);
        window.resize(1440, 900);
        window.show();
        QVERIFY(window.openPath(kCorpus + "valid/multilevel-bf3-lzma.zs"));
        QVERIFY(window.waitUntilIdle(60000));
        auto* view = window.findChild<DocumentView*>();
        QVERIFY(view);
        const auto shoot = [&](QWidget* page, const QString& name) {
            showTab(*view, page);
            QTest::qWait(300);
            (void)window.waitUntilIdle(60000);
            QTest::qWait(300);
            QVERIFY(window.grab().save(out + "/" + name, "PNG"));
        };
        shoot(view->findChild<ZsHeaderPanel*>(), QStringLiteral("zs-header.png"));
        auto* index = view->findChild<ZsIndexView*>();
        const QModelIndex root = index->model()->index(0, 0);
        index->tree()->expand(root);
        index->tree()->expand(index->model()->index(0, 0, root));
        shoot(index, QStringLiteral("zs-index.png"));
        auto* records = view->findChild<ZsRecordsView*>();
        records->prefixEdit()->setText(QStringLiteral("delta0"));
        QSignalSpy done(records, &ZsRecordsView::searchDone);
        showTab(*view, records);
        records->search();
        QTRY_COMPARE(done.count(), 1);
        shoot(records, QStringLiteral("zs-records.png"));
        shoot(view->findChild<ZsChartView*>(), QStringLiteral("zs-chart.png"));

        // A damaged file: the records tab marks the damaged block (selected, so the hex view
        // shows its bytes) and lists the blocks after it.
        QVERIFY(window.openPath(kCorpus + "corrupt/data-payload-bitflip.zs"));
        QVERIFY(window.waitUntilIdle(60000));
        DocumentView* damaged = nullptr;
        for (auto* candidate : window.findChildren<DocumentView*>()) {
            if (candidate->document()->displayName().startsWith(QLatin1String("data-payload"))) {
                damaged = candidate;
            }
        }
        QVERIFY(damaged);
        auto* damagedRecords = damaged->findChild<ZsRecordsView*>();
        showTab(*damaged, damagedRecords);
        damagedRecords->model()->fetchUntil(INT_MAX);
        damagedRecords->table()->selectRow(3);
        damagedRecords->activateRow(3);
        QTest::qWait(300);
        QVERIFY(window.grab().save(out + "/zs-damaged-records.png", "PNG"));
    }
};

QTEST_MAIN(ZsViewsTest)
#include "zs_views_test.moc"
