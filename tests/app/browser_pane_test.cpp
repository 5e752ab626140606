// The Browser pane: a folder of files and datasets of several formats (some damaged) is listed
// and validated as a job, each row's status fills in, filters keep the rows asked for, Validate
// Again picks up a file that changed, a double-click (or Enter) on a damaged entry opens it in a
// tab, opening a plain folder browses it, and the scan can be paused and resumed.
#include <QDateTime>
#include <QDockWidget>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include <filesystem>

#include "app/gui/main_window.h"
#include "app/scan/browser_pane.h"
#include "app/widgets/document_view.h"
#include "model/core/document.h"
#include "model/core/job.h"
#include "model/scan/scan_list_model.h"
#include "test_corpus.h"

using namespace strata;
using namespace strata::gui;
namespace fs = std::filesystem;

namespace {

const fs::path kCorpus = strata::test::corpusRoot();

// The row of the table showing the entry whose name is `name`, or an invalid index.
QModelIndex shownRow(const BrowserPane& pane, const QString& name) {
    const QAbstractItemModel* shown = pane.table()->model();
    for (int row = 0; row < shown->rowCount(); ++row) {
        const QModelIndex index = shown->index(row, model::ScanListModel::Name);
        if (index.data().toString() == name) {
            return index;
        }
    }
    return {};
}

}  // namespace

class BrowserPaneTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("StrataTest"));
        QCoreApplication::setApplicationName(QStringLiteral("browser_pane_test"));
        if (!fs::exists(kCorpus / "zs")) {
            QSKIP("the conformance corpus is not there (set STRATA_CORPUS_DIR)");
        }
        QVERIFY(dir_.isValid());
        const fs::path root(dir_.path().toStdString());
        fs::create_directories(root / "models");
        fs::copy_file(kCorpus / "zs/valid/binary-u64le.zs", root / "good.zs");
        fs::copy_file(kCorpus / "zs/corrupt/data-block-crc-wrong.zs", root / "bad.zs");
        fs::copy_file(kCorpus / "ztensor/valid/dense_raw.zt", root / "models/dense.zt");
        fs::copy_file(kCorpus / "ztensor/corrupt/bad_magic.zt", root / "models/broken.zt");
        fs::copy(kCorpus / "zds/valid/docs_mode", root / "dataset", fs::copy_options::recursive);
    }

    void listsValidatesFiltersAndOpens() {
        MainWindow window;
        window.setInteractive(false);
        window.resize(1200, 800);
        window.show();
        QVERIFY(window.browser().browse(dir_.path()) != nullptr);
        QVERIFY(window.waitUntilIdle(60000));
        QCoreApplication::processEvents();
        BrowserPane* pane = window.browser().pane();
        QVERIFY(window.browser().dock()->isVisible());
        model::ScanListModel* entries = pane->entries();

        // Five entries: the dataset folder is one, not its files.
        QCOMPARE(entries->rowCount(), 5);
        QCOMPARE(entries->checkedCount(), quint64(5));
        QVERIFY(shownRow(*pane, QStringLiteral("dataset/")).isValid());
        QCOMPARE(entries->count(strata::scan::Verdict::Damaged), quint64(2));
        const QModelIndex bad = shownRow(*pane, QStringLiteral("bad.zs"));
        QVERIFY(bad.isValid());
        const QAbstractItemModel* shown = pane->table()->model();
        QCOMPARE(shown->index(bad.row(), model::ScanListModel::Status).data().toString(),
                 QStringLiteral("damaged"));
        QCOMPARE(shown->index(bad.row(), model::ScanListModel::Format).data().toString(),
                 QStringLiteral("ZS"));
        QVERIFY(shown->index(bad.row(), model::ScanListModel::Problem)
                    .data()
                    .toString()
                    .contains(QStringLiteral("ZS-")));
        QVERIFY(pane->summary()->text().contains(QStringLiteral("2 damaged")));
        // The modification time as a date, as the file system gives it.
        const QDateTime written = QFileInfo(dir_.filePath(QStringLiteral("bad.zs"))).lastModified();
        QCOMPARE(shown->index(bad.row(), model::ScanListModel::Modified).data().toString(),
                 QLocale().toString(written, QLocale::ShortFormat));

        // Filters: problems only, then one format.
        pane->shownEntries()->setVerdict(QStringLiteral("problems"));
        QCOMPARE(shown->rowCount(), 2);
        pane->shownEntries()->setFormat(QStringLiteral("ZS"));
        QCOMPARE(shown->rowCount(), 1);
        pane->shownEntries()->setVerdict(QString());
        QCOMPARE(shown->rowCount(), 2);  // good.zs and bad.zs
        pane->shownEntries()->setFormat(QString());
        QCOMPARE(shown->rowCount(), 5);

        // A double-click opens the damaged entry in a tab: the row shown is the row opened.
        const QModelIndex target = shownRow(*pane, QStringLiteral("bad.zs"));
        pane->table()->setCurrentIndex(target);
        const QRect cell = pane->table()->visualRect(target);
        QTest::mouseClick(pane->table()->viewport(), Qt::LeftButton, {}, cell.center());
        QTest::mouseDClick(pane->table()->viewport(), Qt::LeftButton, {}, cell.center());
        QVERIFY(window.currentView() != nullptr);
        QCOMPARE(window.currentView()->document()->path(),
                 QString::fromStdString((fs::path(dir_.path().toStdString()) / "bad.zs").string()));

        // Enter opens the entry of the current row too.
        const QModelIndex dense = shownRow(*pane, QStringLiteral("models/dense.zt"));
        pane->table()->setCurrentIndex(dense);
        QTest::keyClick(pane->table(), Qt::Key_Return);
        QVERIFY(window.currentView()->document()->path().endsWith(QStringLiteral("dense.zt")));
        QCOMPARE(window.documentCount(), 2);
    }

    // The file was mended on disk: Validate Again turns its row valid, in place.
    void validateAgainReadsTheEntryAnew() {
        MainWindow window;
        window.setInteractive(false);
        QVERIFY(window.browser().browse(dir_.path()) != nullptr);
        QVERIFY(window.waitUntilIdle(60000));
        QCoreApplication::processEvents();
        model::ScanListModel* entries = window.browser().pane()->entries();
        int row = -1;
        for (int r = 0; r < entries->rowCount(); ++r) {
            if (entries->location(r).endsWith(QStringLiteral("broken.zt"))) {
                row = r;
            }
        }
        QVERIFY(row >= 0);
        QCOMPARE(entries->result(row)->verdict, strata::scan::Verdict::Damaged);
        const fs::path broken = fs::path(dir_.path().toStdString()) / "models/broken.zt";
        fs::copy_file(kCorpus / "ztensor/valid/dense_raw.zt", broken,
                      fs::copy_options::overwrite_existing);
        QVERIFY(window.browser().pane()->validateAgain(row) != nullptr);
        QVERIFY(window.waitUntilIdle(60000));
        QCoreApplication::processEvents();
        QCOMPARE(entries->rowCount(), 5);
        QCOMPARE(entries->result(row)->verdict, strata::scan::Verdict::Valid);
        QVERIFY(entries->location(row).endsWith(QStringLiteral("broken.zt")));
        QCOMPARE(entries->count(strata::scan::Verdict::Damaged), quint64(1));
        // Put it back for other tests.
        fs::copy_file(kCorpus / "ztensor/corrupt/bad_magic.zt", broken,
                      fs::copy_options::overwrite_existing);
    }

    // A root that does not exist fails the scan's job, with the path in its error.
    void aMissingRootSaysSo() {
        MainWindow window;
        window.setInteractive(false);
        const QString missing = dir_.filePath(QStringLiteral("no-such-folder"));
        model::Job* job = window.browser().browse(missing);
        QVERIFY(job != nullptr);
        QVERIFY(window.waitUntilIdle(60000));
        QCOMPARE(window.browser().pane()->entries()->rowCount(), 0);
    }

    // A folder no format claims opens in the Browser, not as a tab; a dataset folder still
    // opens as a document.
    void aPlainFolderOpensInTheBrowser() {
        MainWindow window;
        window.setInteractive(false);
        QVERIFY(window.openPath(dir_.path()));
        QVERIFY(window.waitUntilIdle(60000));
        QCoreApplication::processEvents();
        QCOMPARE(window.documentCount(), 0);
        QVERIFY(window.browser().dock()->isVisibleTo(&window));
        QCOMPARE(window.browser().pane()->root(), dir_.path());
        QCOMPARE(window.browser().pane()->entries()->rowCount(), 5);
        QVERIFY(window.openPath(dir_.filePath(QStringLiteral("dataset"))));
        QCOMPARE(window.documentCount(), 1);
        QCOMPARE(window.currentView()->document()->formatName(), QStringLiteral("ZDS"));
    }

    // Pause holds the scan (the job stays running, entries stop being checked), Resume lets it
    // finish every entry.
    void pauseHoldsTheScanAndResumeFinishesIt() {
        QTemporaryDir many;
        const fs::path root(many.path().toStdString());
        constexpr int kFiles = 300;
        for (int i = 0; i < kFiles; ++i) {
            fs::copy_file(kCorpus / "zs/valid/binary-u64le.zs",
                          root / ("f" + std::to_string(i) + ".zs"));
        }
        MainWindow window;
        window.setInteractive(false);
        window.show();
        model::Job* job = window.browser().browse(many.path());
        BrowserPane* pane = window.browser().pane();
        QVERIFY(pane->pauseButton()->isVisible());
        QCOMPARE(pane->pauseButton()->text(), QStringLiteral("Pause"));
        pane->pauseButton()->click();  // before the worker can have checked 300 files
        QVERIFY(job->isPaused());
        QCOMPARE(job->stateText(), QStringLiteral("paused"));
        QCOMPARE(pane->pauseButton()->text(), QStringLiteral("Resume"));
        QVERIFY(pane->summary()->text().contains(QStringLiteral("paused")));
        QTest::qWait(400);
        QVERIFY(job->isRunning());
        const quint64 checkedWhilePaused = pane->entries()->checkedCount();
        QVERIFY2(checkedWhilePaused < quint64(kFiles), "the paused scan went on");
        pane->pauseButton()->click();
        QVERIFY(!job->isPaused());
        QVERIFY(window.waitUntilIdle(120000));
        QCoreApplication::processEvents();
        QCOMPARE(job->state(), model::Job::State::Finished);
        QCOMPARE(pane->entries()->checkedCount(), quint64(kFiles));
        QVERIFY(!pane->pauseButton()->isVisible());
    }

private:
    QTemporaryDir dir_;
};

QTEST_MAIN(BrowserPaneTest)
#include "browser_pane_test.moc"
