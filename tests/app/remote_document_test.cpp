// Remote documents in the window: a corpus file served by nginx on 127.0.0.1 opens from its
// URL read-only, its tree loads, the status bar counts its requests, Save a Local Copy writes
// the same bytes, a 404 is an error naming the URL, and a plain listing opens in the Browser. Skips
// without the corpus; without nginx it skips too, except where remote servers are required
// (CI=true): there it fails.

// Before any Qt header: its `emit` macro would swallow ZtWriter::emit.
#include "formats/ztensor/zt_writer.h"

#include <algorithm>

#include <QAction>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>
#include <QUuid>
#include <QtConcurrent>

#include <QStatusBar>
#include <QTabWidget>

#include <chrono>
#include <cstdlib>
#include <memory>
#include <string>

#include "app/gui/main_window.h"
#include "app/gui/open_url_dialog.h"
#include "app/gui/single_instance.h"
#include "app/scan/browser_pane.h"
#include "app/widgets/data_inspector.h"
#include "app/widgets/document_view.h"
#include "app/widgets/hex_view.h"
#include "app/zds/zds_documents_tab.h"
#include "app/zs/zs_records_view.h"
#include "formats/remote/remote_session.h"
#include "model/core/document.h"
#include "model/core/job.h"
#include "model/core/job_runner.h"
#include "model/core/open_url_job.h"
#include "model/core/remote_access.h"
#include "model/core/structure_model.h"
#include "model/scan/scan_list_model.h"
#include "model/zds/zds_table_model.h"
#include "model/zs/zs_records_model.h"
#include "model/ztensor/zt_values_model.h"
#include "remote_servers.h"
#include "test_corpus.h"

using namespace strata::gui;

namespace {

// Jobs the window started besides opening its URLs (validation, entropy, a chart).
qsizetype jobsBesidesOpening(MainWindow& window) {
    const auto jobs = window.jobRunner()->jobs();
    return std::count_if(jobs.begin(), jobs.end(), [](strata::model::Job* job) {
        return qobject_cast<strata::model::OpenUrlJob*>(job) == nullptr;
    });
}

bool serversRequired() {
    const char* ci = std::getenv("CI");
    const char* required = std::getenv("STRATA_REMOTE_REQUIRED");
    return (ci != nullptr && std::string(ci) == "true") ||
           (required != nullptr && std::string(required) == "1");
}

// Skips the test when a test server cannot run here (`missing` says why), or fails it where
// the servers are required.
#define REQUIRE_TEST_SERVER(what, missing)                                                      \
    do {                                                                                        \
        const std::string whyMissing = (missing);                                               \
        if (!whyMissing.empty()) {                                                              \
            const QByteArray why = (std::string(what) + " unavailable: " + whyMissing).c_str(); \
            if (serversRequired()) {                                                            \
                QFAIL(why.constData());                                                         \
            }                                                                                   \
            QSKIP(why.constData());                                                             \
        }                                                                                       \
    } while (false)

QByteArray readAll(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

const char* const kSmallFile = "zs/valid/codec-none.zs";
const char* const kToken = "t0ken-never-shown";
const char* const kBigFile = "zs/valid/big-ngrams-1m.zs";

}  // namespace

class RemoteDocumentTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("StrataTest"));
        QCoreApplication::setApplicationName(QStringLiteral("remote_document_test"));
        QSettings().clear();
        STRATA_QSKIP_WITHOUT_CORPUS();
        REQUIRE_TEST_SERVER("remote test server", strata::test::nginxMissing());
        try {
            nginx_ = std::make_unique<strata::test::NginxServer>(strata::test::corpusRoot());
        } catch (const std::exception& e) {
            QFAIL((std::string("remote test server did not start: ") + e.what()).c_str());
        }
    }

    void cleanupTestCase() { nginx_.reset(); }

    void opensUrlReadOnlyWithTree_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("format");
        QTest::newRow("zs") << QString::fromLatin1(kSmallFile) << QStringLiteral("ZS");
        QTest::newRow("ztensor") << QStringLiteral("ztensor/valid/dense_raw.zt")
                                 << QStringLiteral("zTensor");
        QTest::newRow("raw") << QStringLiteral("README.md") << QStringLiteral("raw binary");
    }

    void opensUrlReadOnlyWithTree() {
        QFETCH(QString, file);
        QFETCH(QString, format);
        const QByteArray path = file.toUtf8();
        MainWindow window;
        window.setInteractive(false);
        window.show();
        QVERIFY(window.openPath(url(path.constData())));
        QVERIFY(window.waitUntilIdle(30000));
        DocumentView* view = window.currentView();
        QVERIFY2(view != nullptr, qPrintable(window.lastError()));
        strata::model::Document* doc = view->document();
        QVERIFY(doc->isRemote());
        QVERIFY(doc->isReadOnly());
        QCOMPARE(doc->path(), url(path.constData()));
        QCOMPARE(doc->displayName(), QFileInfo(file).fileName());
        QCOMPARE(doc->formatName().toLower(), format.toLower());
        QVERIFY(window.windowTitle().contains(QStringLiteral("read-only (remote)")));
        QVERIFY(window.readOnlyIndicator()->isVisible());
        QVERIFY(doc->editor() == nullptr);

        // Edits are refused and the editing actions are off.
        doc->overwrite(doc->primaryFile(), 0, QByteArray("XX"));
        QVERIFY(!doc->isModified());
        for (const QString& text : {QStringLiteral("&Save"), QStringLiteral("&Overwrite Mode")}) {
            QAction* action = findAction(window, text);
            QVERIFY2(action != nullptr, qPrintable(text));
            QVERIFY2(!action->isEnabled(), qPrintable(text));
        }
        QVERIFY(findAction(window, QStringLiteral("Save a Local Cop&y…"))->isEnabled());

        // The structure tree: the root and its children, read on demand.
        strata::model::StructureModel* model = view->structureModel();
        const QModelIndex root = model->index(0, 0);
        QVERIFY(root.isValid());
        while (model->canFetchMore(root)) {
            model->fetchMore(root);
        }
        // A raw binary's tree is its one root node; the formats' trees have children.
        QCOMPARE(model->rowCount(root) > 0, doc->format() != strata::kRawBinaryFormat);
        for (int row = 0; row < model->rowCount(root); ++row) {
            QVERIFY(!model->index(row, 0, root).data().toString().isEmpty());
        }
        // The bytes shown are the file's.
        const QByteArray local = readAll(corpusFile(path.constData()));
        QCOMPARE(doc->primaryFile()->read(0, 64), local.left(64));
        // No validation or entropy job started by itself.
        QCOMPARE(jobsBesidesOpening(window), 0);
        QVERIFY(!view->entropyRequested());
    }

    // Folder formats served with JSON folder listings open from their URL, read-only, with the
    // tree of the local folder.
    void opensFolderFormatsFromTheirUrl_data() {
        QTest::addColumn<QString>("folder");
        QTest::addColumn<QString>("format");
        QTest::newRow("shardlake root")
            << QStringLiteral("shardlake/root") << QStringLiteral("Shardlake");
        QTest::newRow("zds dataset")
            << QStringLiteral("zds/valid/jsonl_two_collections") << QStringLiteral("ZDS");
        QTest::newRow("ozdf corpus") << QStringLiteral("ozdf/valid/written_by_reference/api_corpus")
                                     << QStringLiteral("OZDF");
    }

    void opensFolderFormatsFromTheirUrl() {
        QFETCH(QString, folder);
        QFETCH(QString, format);
        const QByteArray listed = (QStringLiteral("listed/") + folder).toUtf8();
        const QString rootUrl = url(listed.constData());
        MainWindow window;
        window.setInteractive(false);
        window.show();
        QVERIFY(window.openPath(rootUrl));
        QVERIFY(window.waitUntilIdle(30000));
        QVERIFY2(window.currentView() != nullptr, qPrintable(window.lastError()));
        strata::model::Document* doc = window.currentView()->document();
        QCOMPARE(doc->formatName(), format);
        QVERIFY(doc->isRemote());
        QVERIFY(doc->isReadOnly());
        QCOMPARE(doc->path(), rootUrl);

        std::unique_ptr<strata::model::Document> local =
            strata::model::Document::open(corpusFile(folder.toUtf8().constData()));
        QVERIFY(local != nullptr);
        strata::model::StructureModel* remoteTree = window.currentView()->structureModel();
        strata::model::StructureModel localTree(local->root());
        const QModelIndex remoteRoot = remoteTree->index(0, 0);
        const QModelIndex localRoot = localTree.index(0, 0);
        while (remoteTree->canFetchMore(remoteRoot)) {
            remoteTree->fetchMore(remoteRoot);
        }
        while (localTree.canFetchMore(localRoot)) {
            localTree.fetchMore(localRoot);
        }
        QVERIFY(localTree.rowCount(localRoot) > 0);
        QCOMPARE(remoteTree->rowCount(remoteRoot), localTree.rowCount(localRoot));
        for (int row = 0; row < localTree.rowCount(localRoot); ++row) {
            QCOMPARE(remoteTree->index(row, 0, remoteRoot).data().toString(),
                     localTree.index(row, 0, localRoot).data().toString());
        }
        if (format == QStringLiteral("ZDS")) {
            // The documents table shows the documents' fields as the local one does.
            auto* tab = window.currentView()->findChild<ZdsDocumentsTab*>();
            QVERIFY(tab != nullptr);
            strata::model::ZdsTableModel* table = tab->currentModel();
            QVERIFY(table != nullptr);
            QTRY_VERIFY_WITH_TIMEOUT(table->loaded(), 30000);
            QVERIFY(table->rowCount() > 0 && table->columnCount() > 1);
            const auto localDataset = strata::zds::ZdsDataset::open(
                corpusFile(folder.toUtf8().constData()).toStdString());
            QCOMPARE(table->documentCount(), int(localDataset->collections.at(0)->documentCount()));
            QTRY_VERIFY_WITH_TIMEOUT(
                table->data(table->index(0, 1)).toString() != QStringLiteral("…"), 30000);
            QCOMPARE(table->data(table->index(0, 0)).toString(),
                     QString::fromStdString(localDataset->collections.at(0)->document(0).id));
        }
        if (format == QStringLiteral("Shardlake")) {
            // The root's views are built once a worker has read its manifests and shard
            // headers; a placeholder tab stands in meanwhile.
            DocumentView* view = window.currentView();
            QTRY_VERIFY_WITH_TIMEOUT(
                view->findChild<QWidget*>(QStringLiteral("shardlakeRootBrowser")) != nullptr,
                30000);
            QTRY_VERIFY(view->findChild<QWidget*>(QStringLiteral("shardlakeLoading")) == nullptr);
            QVERIFY(view->findChild<QWidget*>(QStringLiteral("shardlakeShards")) != nullptr);
            QCOMPARE(view->centreTabs()->tabText(view->centreTabs()->currentIndex()),
                     QStringLiteral("Storage root"));
        }
    }

    // A listing URL no format claims shows in the Browser (no tab), with the entries and
    // verdicts a scan of the same local folder gives.
    void aPlainListingOpensInTheBrowser() {
        const char* folder = "ztensor/valid";
        MainWindow local;
        local.setInteractive(false);
        QVERIFY(local.browser().browse(corpusFile(folder)) != nullptr);
        QVERIFY(local.waitUntilIdle(60000));
        QCoreApplication::processEvents();
        const strata::model::ScanListModel* expected = local.browser().pane()->entries();
        QVERIFY(expected->rowCount() > 1);

        MainWindow window;
        window.setInteractive(false);
        window.show();
        const QString rootUrl = url((std::string("listed/") + folder + "/").c_str());
        QVERIFY(window.openPath(rootUrl));
        QVERIFY(window.waitUntilIdle(60000));
        QCoreApplication::processEvents();
        QCOMPARE(window.documentCount(), 0);
        QVERIFY2(window.lastError().isEmpty(), qPrintable(window.lastError()));
        QVERIFY(window.browser().dock()->isVisible());
        const strata::model::ScanListModel* entries = window.browser().pane()->entries();
        QCOMPARE(entries->rowCount(), expected->rowCount());
        QCOMPARE(entries->checkedCount(), expected->checkedCount());
        for (const strata::scan::Verdict verdict : strata::scan::kAllVerdicts) {
            QCOMPARE(entries->count(verdict), expected->count(verdict));
        }
    }

    void networkIndicatorCountsRequests() {
        MainWindow window;
        window.setInteractive(false);
        window.show();
        const QString local = writeLocal();
        QVERIFY(window.openPath(local));
        QVERIFY(!window.networkIndicator()->isVisible());  // a local document
        QVERIFY(window.openPath(url(kSmallFile)));
        QVERIFY(window.waitUntilIdle(30000));
        QVERIFY(window.networkIndicator()->isVisible());
        const strata::model::NetworkStats stats = window.currentView()->document()->networkStats();
        QVERIFY(stats.requests >= 1);
        QVERIFY(stats.bytesFetched > 0);
        const auto log = nginx_->accessLog();
        qsizetype served = 0;
        for (const auto& line : log) {
            served += line.uri == std::string("/") + kSmallFile ? 1 : 0;
        }
        QVERIFY(served >= 1);
        // The timer shows the totals.
        QTRY_VERIFY(window.networkIndicator()->text().contains(QStringLiteral("request")));
        QVERIFY(window.networkIndicator()->text().contains(QStringLiteral("cache hit")));
        // Back on the local document the indicator goes away.
        window.tabs()->setCurrentIndex(0);
        QVERIFY(!window.networkIndicator()->isVisible());
        QVERIFY(!window.readOnlyIndicator()->isVisible());
    }

    void openingDoesNotReadTheWholeFile() {
        MainWindow window;
        window.setInteractive(false);
        window.show();
        QVERIFY(window.openPath(url(kBigFile)));
        QVERIFY(window.waitUntilIdle(60000));
        const QFileInfo info(corpusFile(kBigFile));
        const strata::model::NetworkStats stats = window.currentView()->document()->networkStats();
        qInfo("opening %s fetched %llu of %lld bytes in %llu requests", kBigFile,
              static_cast<unsigned long long>(stats.bytesFetched), info.size(),
              static_cast<unsigned long long>(stats.requests));
        // Header, root index and what the first screen shows: far less than the file.
        QVERIFY2(
            stats.bytesFetched < quint64(info.size()) / 2,
            qPrintable(
                QStringLiteral("%1 of %2 bytes fetched").arg(stats.bytesFetched).arg(info.size())));
        // Nothing that scans the whole file started by itself (validation, entropy, chart).
        QCOMPARE(jobsBesidesOpening(window), 0);
    }

    void savesALocalCopy() {
        MainWindow window;
        window.setInteractive(false);
        window.show();
        QVERIFY(window.openPath(url(kSmallFile)));
        QVERIFY(window.waitUntilIdle(30000));
        QTemporaryDir dir;
        const QString target = dir.filePath(QStringLiteral("copy.zs"));
        QPointer<strata::model::Job> job = window.saveLocalCopy(target);
        QVERIFY(job != nullptr);
        QTRY_VERIFY_WITH_TIMEOUT(!job->isRunning(), 60000);
        QCOMPARE(job->state(), strata::model::Job::State::Finished);
        QCOMPARE(readAll(target), readAll(corpusFile(kSmallFile)));
        // Only the copy: no temp file is left beside it.
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden),
                 QStringList{QStringLiteral("copy.zs")});
        // The tab stays on the URL, still read-only.
        QCOMPARE(window.currentView()->document()->path(), url(kSmallFile));
    }

    void cancelledCopyLeavesNoFile() {
        MainWindow window;
        window.setInteractive(false);
        window.show();
        QVERIFY(window.openPath(url(kBigFile)));
        QVERIFY(window.waitUntilIdle(30000));
        QTemporaryDir dir;
        const QString target = dir.filePath(QStringLiteral("copy.zs"));
        QPointer<strata::model::Job> job = window.saveLocalCopy(target);
        QVERIFY(job != nullptr);
        job->cancel();
        QTRY_VERIFY_WITH_TIMEOUT(!job->isRunning(), 60000);
        // Whether the cancel came in time or not, the target is whole or absent, never half.
        const QStringList left = QDir(dir.path()).entryList(QDir::Files | QDir::Hidden);
        if (job->state() == strata::model::Job::State::Cancelled) {
            QVERIFY2(left.isEmpty(), qPrintable(left.join(u' ')));
        } else {
            QCOMPARE(job->state(), strata::model::Job::State::Finished);
            QCOMPARE(left, QStringList{QStringLiteral("copy.zs")});
            QCOMPARE(readAll(target), readAll(corpusFile(kBigFile)));
        }
    }

    void notFoundNamesTheUrl() {
        MainWindow window;
        window.setInteractive(false);
        window.show();
        const QString missing = url("zs/valid/no-such-file.zs");
        QVERIFY(window.openPath(missing));
        QVERIFY(window.waitUntilIdle(30000));
        QVERIFY2(window.lastError().contains(missing), qPrintable(window.lastError()));
        QVERIFY2(window.lastError().contains(QStringLiteral("404")),
                 qPrintable(window.lastError()));
        QCOMPARE(window.documentCount(), 0);
        // Other schemes are refused, never taken for a local path.
        QVERIFY(!window.openPath(QStringLiteral("ftp://127.0.0.1/x.zs")));
        QVERIFY(window.lastError().contains(QStringLiteral("refused")));
    }

    void opensInTheBackground() {
        MainWindow window;
        window.setInteractive(false);
        window.show();
        QPointer<strata::model::Job> job =
            window.startOpenUrl(url(kSmallFile), strata::model::RemoteOpenSettings{});
        QVERIFY(job != nullptr);
        QTRY_VERIFY_WITH_TIMEOUT(!job->isRunning(), 60000);
        QCOMPARE(job->state(), strata::model::Job::State::Finished);
        QCOMPARE(window.documentCount(), 1);
        QVERIFY(window.currentView()->document()->isRemote());
        // Asking again shows the open tab.
        QVERIFY(window.startOpenUrl(url(kSmallFile), {}) == nullptr);
        QCOMPARE(window.documentCount(), 1);

        // A 404 fails the job with the URL in the error; no tab.
        const QString missing = url("zs/valid/no-such-file.zs");
        job = window.startOpenUrl(missing, {});
        QTRY_VERIFY_WITH_TIMEOUT(!job->isRunning(), 60000);
        QCOMPARE(job->state(), strata::model::Job::State::Failed);
        QVERIFY2(job->errorText().contains(missing), qPrintable(job->errorText()));
        QVERIFY(window.lastError().contains(missing));
        QCOMPARE(window.documentCount(), 1);
    }

    // A raw tensor in a remote .zt is not read whole to show it: the values table reads the
    // cells it shows, "…" until their bytes have come.
    void tensorValuesReadOnlyWhatIsShown() {
        REQUIRE_TEST_SERVER("fault proxy", strata::test::proxyMissing());
        QTemporaryDir dir;
        constexpr std::uint64_t kRows = 2000, kColumns = 1000;
        std::vector<float> values(kRows * kColumns);
        for (std::size_t i = 0; i < values.size(); ++i) {
            values[i] = static_cast<float>(i);
        }
        strata::ztensor::ZtWriterTensor tensor;
        tensor.name = "w";
        tensor.shape = {kRows, kColumns};
        tensor.components.push_back({"data",
                                     std::span(reinterpret_cast<const std::uint8_t*>(values.data()),
                                               values.size() * sizeof(float)),
                                     strata::ztensor::ZtEncoding::Raw, std::nullopt});
        const std::filesystem::path file = dir.filePath(QStringLiteral("big.zt")).toStdString();
        strata::ztensor::ztWriteFile(file, {tensor});
        strata::test::NginxServer server(dir.path().toStdString());
        strata::test::FaultProxy proxy(server.port());
        // The open's two requests (header block, manifest at the end) come at once; later
        // ones wait a second each.
        const QString slow = QString::fromStdString(proxy.url("zt", "delay1000a2", "/big.zt"));
        MainWindow window;
        window.setInteractive(false);
        window.show();
        QVERIFY(window.openPath(slow));
        QVERIFY(window.waitUntilIdle(30000));
        DocumentView* view = window.currentView();
        auto* model = view->findChild<strata::model::ZtValuesModel*>();
        QVERIFY(model != nullptr);
        QTRY_VERIFY_WITH_TIMEOUT(model->rowCount() == int(kRows), 30000);
        const QModelIndex far = model->index(1500, 7);
        QCOMPARE(model->data(far).toString(), QStringLiteral("…"));
        QVERIFY(model->isWaitingForBytes());
        QTRY_VERIFY_WITH_TIMEOUT(model->data(far).toString() != QStringLiteral("…"), 30000);
        QCOMPARE(model->data(far, Qt::UserRole).toDouble(), 1500.0 * kColumns + 7);
        const strata::model::NetworkStats stats = view->document()->networkStats();
        QVERIFY2(stats.bytesFetched < values.size() * sizeof(float) / 2,
                 qPrintable(QString::number(stats.bytesFetched)));
    }

    // Reload of a remote document is a job: the tab stays as it was while the server answers,
    // then holds the new copy in the same place, with the same settings and view state.
    void reloadsInTheBackground() {
        MainWindow window;
        window.setInteractive(false);
        window.show();
        QVERIFY(window.openPath(writeLocal()));
        QVERIFY(window.openPath(url(kBigFile)));
        QVERIFY(window.waitUntilIdle(30000));
        window.tabs()->setCurrentIndex(0);
        window.tabs()->setCurrentIndex(1);
        DocumentView* before = window.currentView();
        const strata::model::Document* oldDocument = before->document();
        before->hexView()->goToOffset(4096);
        QPointer<strata::model::Job> job = window.reloadRemoteView(before);
        QVERIFY(job != nullptr);
        QCOMPARE(window.currentView(), before);  // nothing replaced before the new copy is open
        QTRY_VERIFY_WITH_TIMEOUT(!job->isRunning(), 60000);
        QCOMPARE(job->state(), strata::model::Job::State::Finished);
        QCOMPARE(window.documentCount(), 2);
        QCOMPARE(window.tabs()->currentIndex(), 1);
        DocumentView* after = window.currentView();
        QVERIFY(after->document() != oldDocument);
        QCOMPARE(after->document()->path(), url(kBigFile));
        QVERIFY(after->document()->isRemote());
        QCOMPARE(after->hexView()->cursorOffset(), quint64(4096));

        // A failed reload leaves the tab as it was and says why.
        REQUIRE_TEST_SERVER("fault proxy", strata::test::proxyMissing());
        strata::test::FaultProxy proxy(nginx_->port());
        const QString flaky =
            QString::fromStdString(proxy.url("reload", "s500a1", std::string("/") + kSmallFile));
        QVERIFY(window.openPath(flaky));
        QVERIFY(window.waitUntilIdle(30000));
        DocumentView* flakyView = window.currentView();
        job = window.reloadRemoteView(flakyView);
        QTRY_VERIFY_WITH_TIMEOUT(!job->isRunning(), 60000);
        QCOMPARE(job->state(), strata::model::Job::State::Failed);
        QCOMPARE(window.currentView(), flakyView);
        QVERIFY2(window.lastError().contains(QStringLiteral("reload")),
                 qPrintable(window.lastError()));
    }

    void cancelsAStalledOpen() {
        REQUIRE_TEST_SERVER("fault proxy", strata::test::proxyMissing());
        strata::test::FaultProxy proxy(nginx_->port());
        // Headers, then nothing for a minute.
        const QString stalled =
            QString::fromStdString(proxy.url("gui", "stall", std::string("/") + kSmallFile));
        MainWindow window;
        window.setInteractive(false);
        window.show();
        QPointer<strata::model::Job> job = window.startOpenUrl(stalled, {});
        QVERIFY(job != nullptr);
        // Cancel once the worker is on its way to the server (it says so before the request).
        QTRY_VERIFY_WITH_TIMEOUT(job->statusText().contains(QStringLiteral("fetching")), 30000);
        job->cancel();
        QTRY_VERIFY_WITH_TIMEOUT(!job->isRunning(), 30000);
        QCOMPARE(job->state(), strata::model::Job::State::Cancelled);
        QCOMPARE(window.documentCount(), 0);
    }

    // The views never wait for a server: with every request after the open delayed by 3 s,
    // the hex view and the data inspector paint placeholders for bytes on their way and the
    // records table asks for its next block in the background; each shows the file's bytes
    // once they have come.
    void viewsNeverWaitForTheServer() {
        REQUIRE_TEST_SERVER("fault proxy", strata::test::proxyMissing());
        strata::test::FaultProxy proxy(nginx_->port());
        const QString slow =
            QString::fromStdString(proxy.url("views", "delay3000a2", std::string("/") + kBigFile));
        const QByteArray local = readAll(corpusFile(kBigFile));
        MainWindow window;
        window.setInteractive(false);
        window.resize(1200, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openPath(slow));
        QVERIFY(window.waitUntilIdle(30000));
        DocumentView* view = window.currentView();
        QVERIFY(view != nullptr);

        // Hex view: the middle of the file, not fetched yet.
        HexView* hex = view->hexView();
        for (int i = 0; i < view->centreTabs()->count(); ++i) {
            if (view->centreTabs()->tabText(i) == QStringLiteral("Hex")) {
                view->centreTabs()->setCurrentIndex(i);
            }
        }
        QVERIFY(hex->isVisible());
        const quint64 middle = quint64(local.size() / 2) & ~quint64(0xFF);
        QVERIFY(!hex->overlay()->source().readyNow(middle, 4096));
        hex->goToOffset(middle);
        hex->viewport()->repaint();
        QVERIFY(hex->isWaitingForBytes());
        // The view stops waiting once the bytes have come (between two of its repaint polls it
        // is briefly not waiting either, so the bytes are what is waited for).
        QTRY_VERIFY_WITH_TIMEOUT(hex->overlay()->source().readyNow(middle, 256), 30000);
        QTRY_VERIFY_WITH_TIMEOUT(!hex->isWaitingForBytes(), 30000);
        bool pending = true;
        QCOMPARE(hex->overlay()->readIfReady(middle, 256, &pending),
                 local.mid(qsizetype(middle), 256));
        QVERIFY(!pending);

        // Data inspector: further on, the same.
        const quint64 later = middle + 1024 * 1024;
        QVERIFY(!hex->overlay()->source().readyNow(later, 96));
        view->dataInspector()->setOverlay(hex->overlay());
        view->dataInspector()->setOffset(later);
        QVERIFY(view->dataInspector()->valueOf(QStringLiteral("u8")).isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(!view->dataInspector()->valueOf(QStringLiteral("u8")).isEmpty(),
                                 30000);
        QCOMPARE(view->dataInspector()->valueOf(QStringLiteral("u8")),
                 QString::number(quint8(local.at(qsizetype(later)))));

        // Records: scrolling to the end asks for blocks that are not fetched yet.
        auto* records = view->findChild<ZsRecordsView*>();
        QVERIFY(records != nullptr);
        strata::model::ZsRecordsModel* model = records->model();
        QVERIFY(model->backgroundDecoding());
        const int rowsBefore = model->rowCount();
        while (model->canFetchMore({}) && !model->isWaitingForBytes()) {
            model->fetchMore({});
        }
        QVERIFY(model->isWaitingForBytes());
        QTRY_VERIFY_WITH_TIMEOUT(model->rowCount() > rowsBefore, 30000);

        // Structure tree: a node whose children must be read from the server is expanded on a
        // worker; its rows appear once they are built.
        strata::model::StructureModel* tree = view->structureModel();
        const QModelIndex root = tree->index(0, 0);
        while (tree->canFetchMore(root) || tree->isFetching()) {
            tree->fetchMore(root);
            QTest::qWait(10);
        }
        int fetchedOnWorker = 0;
        for (int row = 0; row < tree->rowCount(root) && fetchedOnWorker == 0; ++row) {
            const QModelIndex child = tree->index(row, 0, root);
            if (!tree->canFetchMore(child)) {
                continue;
            }
            tree->fetchMore(child);
            if (tree->isFetching()) {
                QCOMPARE(tree->rowCount(child), 0);  // nothing waited for on this thread
                QTRY_VERIFY_WITH_TIMEOUT(tree->rowCount(child) > 0, 30000);
                ++fetchedOnWorker;
            }
        }
        QCOMPARE(fetchedOnWorker, 1);
    }

    // s3:// with the dialog's endpoint and profile: signed with the profile's keys (checked by
    // the fault proxy in front of s3rver), refused with wrong ones, unsigned when anonymous.
    void opensS3WithProfileAndEndpoint() {
        REQUIRE_TEST_SERVER("S3 test server", strata::test::s3rverMissing());
        REQUIRE_TEST_SERVER("S3 test server", strata::test::proxyMissing());
        strata::test::S3Server s3({"strata"});
        strata::test::FaultProxy proxy(s3.port(), {"S3RVER:S3RVER"});
        const QByteArray bytes = readAll(corpusFile(kSmallFile));
        s3.put("strata", "zs/codec-none.zs", bytes.toStdString());
        QTemporaryDir aws;
        QFile credentials(aws.filePath(QStringLiteral("credentials")));
        QVERIFY(credentials.open(QIODevice::WriteOnly));
        credentials.write(
            "[gui]\naws_access_key_id = S3RVER\naws_secret_access_key = S3RVER\n"
            "[wrong]\naws_access_key_id = S3RVER\naws_secret_access_key = no\n");
        credentials.close();
        qputenv("AWS_SHARED_CREDENTIALS_FILE", credentials.fileName().toLocal8Bit());
        qputenv("AWS_CONFIG_FILE", "/nonexistent");
        qputenv("AWS_REGION", "us-east-1");
        for (const char* name : {"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN",
                                 "AWS_PROFILE", "AWS_ENDPOINT_URL"}) {
            qunsetenv(name);
        }
        const QString key = QStringLiteral("s3://strata/zs/codec-none.zs");
        strata::model::RemoteOpenSettings settings;
        settings.endpoint = QStringLiteral("http://127.0.0.1:%1").arg(proxy.port());
        settings.profile = QStringLiteral("gui");
        {
            MainWindow window;
            window.setInteractive(false);
            QVERIFY(window.openUrl(key, settings));
            QVERIFY(window.waitUntilIdle(30000));
            QVERIFY2(window.currentView() != nullptr, qPrintable(window.lastError()));
            strata::model::Document* doc = window.currentView()->document();
            QVERIFY(doc->isReadOnly());
            QCOMPARE(doc->path(), key);
            QCOMPARE(doc->primaryFile()->read(0, bytes.size()), bytes);
        }
        {
            settings.profile = QStringLiteral("wrong");
            MainWindow window;
            window.setInteractive(false);
            QVERIFY(window.openUrl(key, settings));
            QVERIFY(window.waitUntilIdle(30000));
            QVERIFY(window.currentView() == nullptr);
            QVERIFY2(window.lastError().contains(key), qPrintable(window.lastError()));
            QVERIFY2(window.lastError().contains(QStringLiteral("403")),
                     qPrintable(window.lastError()));
        }
        {
            settings.anonymous = true;  // the wrong profile is not used at all
            MainWindow window;
            window.setInteractive(false);
            QVERIFY(window.openUrl(key, settings));
            QVERIFY(window.waitUntilIdle(30000));
            QVERIFY2(window.currentView() != nullptr, qPrintable(window.lastError()));
        }
        // The dialog's settings are kept for the next time.
        settings.save();
        const strata::model::RemoteOpenSettings loaded = strata::model::RemoteOpenSettings::load();
        QCOMPARE(loaded.endpoint, settings.endpoint);
        QCOMPARE(loaded.profile, settings.profile);
        QVERIFY(loaded.anonymous);
        strata::model::RemoteOpenSettings{}.save();  // later tests open http:// with defaults
    }

    void openUrlDialogOffersRecentUrls() {
        strata::model::clearRecentUrls();
        {
            MainWindow window;
            window.setInteractive(false);
            QVERIFY(window.openPath(url(kSmallFile)));
            QVERIFY(window.waitUntilIdle(30000));
        }
        QCOMPARE(strata::model::recentUrls(), QStringList{url(kSmallFile)});
        {
            // File > Open Recent lists it and opens it again.
            MainWindow window;
            window.setInteractive(false);
            QAction* recent = findAction(window, url(kSmallFile));
            QVERIFY(recent != nullptr);
            recent->trigger();
            QVERIFY(window.waitUntilIdle(60000));
            QCOMPARE(window.documentCount(), 1);
            QCOMPARE(window.currentView()->document()->path(), url(kSmallFile));
        }
        strata::model::RemoteOpenSettings settings;
        settings.endpoint = QStringLiteral("http://127.0.0.1:9");
        settings.profile = QStringLiteral("test");
        OpenUrlDialog dialog(strata::model::recentUrls(), settings);
        QCOMPARE(dialog.urlBox()->count(), 1);
        QCOMPARE(dialog.urlBox()->itemText(0), url(kSmallFile));
        auto* buttons = dialog.findChild<QDialogButtonBox*>();
        QPushButton* open = buttons->button(QDialogButtonBox::Open);
        dialog.urlBox()->setEditText(QStringLiteral("not a url"));
        QVERIFY(!open->isEnabled());
        dialog.urlBox()->setEditText(QStringLiteral(" s3://bucket/key.zt "));
        QVERIFY(open->isEnabled());
        QCOMPARE(dialog.url(), QStringLiteral("s3://bucket/key.zt"));
        QCOMPARE(dialog.settings().endpoint, settings.endpoint);
        QCOMPARE(dialog.settings().profile, settings.profile);
        QVERIFY(!dialog.settings().anonymous);
    }

    // A password and a token in a URL open it and are shown nowhere: not in the window title,
    // the tab, the Jobs dock, the status bar, an error or the recent menu (which keeps no
    // password). A reload sends them again.
    void passwordAndTokenAreShownNowhere() {
        strata::model::clearRecentUrls();
        const std::string host = "127.0.0.1:" + std::to_string(nginx_->port());
        const auto secretUrl = [&](const char* path) {
            return QString::fromStdString("http://" + std::string(strata::test::kPrivateUser) +
                                          ":" + strata::test::kPrivatePasswordInUrl + "@" + host +
                                          "/private/" + path + "?token=" + kToken);
        };
        MainWindow window;
        window.setInteractive(false);
        window.show();
        QPointer<strata::model::Job> job = window.startOpenUrl(secretUrl(kSmallFile), {});
        QVERIFY(job != nullptr);
        QStringList shown{job->title(), window.statusBar()->currentMessage()};
        QTRY_VERIFY_WITH_TIMEOUT(!job->isRunning(), 60000);
        QVERIFY2(job->state() == strata::model::Job::State::Finished, qPrintable(job->errorText()));
        DocumentView* view = window.currentView();
        QCOMPARE(view->document()->path(),
                 QString::fromStdString("http://" + std::string(strata::test::kPrivateUser) + "@" +
                                        host + "/private/" + kSmallFile));
        shown << window.windowTitle() << window.tabs()->tabText(0) << window.tabs()->tabToolTip(0)
              << window.statusBar()->currentMessage();
        for (QAction* action : window.findChildren<QAction*>()) {
            shown << action->text();
        }
        job = window.reloadRemoteView(view);
        QVERIFY(job != nullptr);
        shown << job->title() << window.statusBar()->currentMessage();
        QTRY_VERIFY_WITH_TIMEOUT(!job->isRunning(), 60000);
        QVERIFY2(job->state() == strata::model::Job::State::Finished, qPrintable(job->errorText()));
        QVERIFY(window.openPath(secretUrl("zs/valid/no-such-file.zs")));
        QVERIFY(window.waitUntilIdle(30000));
        QVERIFY(!window.lastError().isEmpty());
        shown << window.lastError() << strata::model::recentUrls();
        for (const QString& text : shown) {
            for (const char* secret :
                 {strata::test::kPrivatePassword, strata::test::kPrivatePasswordInUrl, kToken}) {
                QVERIFY2(!text.contains(QString::fromUtf8(secret)), qPrintable(text));
            }
        }
        QVERIFY(shown.join(u'\n').contains(QStringLiteral("token=***")));
        QCOMPARE(
            strata::model::recentUrls(),
            QStringList{QString::fromStdString("http://" + std::string(strata::test::kPrivateUser) +
                                               "@" + host + "/private/" + kSmallFile)});
    }

    // The time limit and the CA certificates file are settings of the Open URL dialog, kept
    // for next time, and reach the session a document reads through.
    void connectionSettingsReachTheSession() {
        strata::model::RemoteOpenSettings settings;
        settings.timeoutSeconds = 7;
        settings.caFile = QStringLiteral("/etc/strata-test-ca.pem");
        OpenUrlDialog dialog({}, settings);
        QCOMPARE(dialog.settings().timeoutSeconds, 7);
        QCOMPARE(dialog.settings().caFile, settings.caFile);
        dialog.settings().save();
        const strata::model::RemoteOpenSettings loaded = strata::model::RemoteOpenSettings::load();
        QCOMPARE(loaded.timeoutSeconds, 7);
        QCOMPARE(loaded.caFile, settings.caFile);
        const auto session = strata::model::makeDocumentSession(loaded);
        QCOMPARE(session->options().operationTimeout, std::chrono::seconds(7));
        QCOMPARE(QString::fromStdString(session->options().caFile.string()), settings.caFile);
        strata::model::RemoteOpenSettings{}.save();
    }

    // HTTPS with a private certificate authority made for this run: refused until the CA
    // setting names it.
    void opensHttpsWithTheCaSetting() {
        REQUIRE_TEST_SERVER("openssl", strata::test::opensslMissing());
        qunsetenv("SSL_CERT_FILE");
        qunsetenv("CURL_CA_BUNDLE");
        qunsetenv("SSL_CERT_DIR");
        QTemporaryDir dir;
        const strata::test::TestCertificates certificates =
            strata::test::makeTestCertificates(dir.path().toStdString());
        strata::test::NginxServer https(strata::test::corpusRoot(), &certificates);
        const QString address = QString::fromStdString(https.url(std::string("/") + kSmallFile));
        QString error;
        QVERIFY(!strata::model::Document::openUrl(address, {}, &error));
        QVERIFY2(error.contains(QStringLiteral("not trusted")), qPrintable(error));
        strata::model::RemoteOpenSettings settings;
        settings.caFile = QString::fromStdString(certificates.caCertificate.string());
        const auto document = strata::model::Document::openUrl(address, settings, &error);
        QVERIFY2(document != nullptr, qPrintable(error));
        QCOMPARE(document->formatName(), QStringLiteral("ZS"));
    }

    void networkSummaryReads() {
        QCOMPARE(strata::model::networkSummary({1, 2048, 0, 1}),
                 QStringLiteral("1 request · 2.0 KiB fetched · 0 cache hits"));
        QCOMPARE(strata::model::networkSummary({3, 100, 1, 2}),
                 QStringLiteral("3 requests · 100 bytes fetched · 1 cache hit"));
    }

    void handOverKeepsUrls() {
        const QString server = QStringLiteral("strata-test-") +
                               QUuid::createUuid().toString(QUuid::WithoutBraces).left(8);
        SingleInstance first(server);
        QVERIFY(first.listen());
        QSignalSpy received(&first, &SingleInstance::pathsReceived);
        SingleInstance second(server);
        const QString remote = url(kSmallFile);
        QFuture<bool> sent = QtConcurrent::run([&second, remote] {
            return second.sendToRunning({remote, QStringLiteral("s3://bucket/a.zt")});
        });
        QTRY_COMPARE(received.count(), 1);
        QTRY_VERIFY(sent.isFinished());
        QCOMPARE(received.first().first().toStringList(),
                 (QStringList{remote, QStringLiteral("s3://bucket/a.zt")}));
    }

private:
    QString url(const char* path) const {
        return QString::fromStdString(nginx_->url(std::string("/") + path));
    }
    static QString corpusFile(const char* path) {
        return QString::fromStdString((strata::test::corpusRoot() / path).string());
    }
    QString writeLocal() {
        const QString path = scratch_.filePath(QStringLiteral("local.bin"));
        QFile file(path);
        if (file.open(QIODevice::WriteOnly)) {
            file.write(QByteArray(256, 'x'));
        }
        return path;
    }
    static QAction* findAction(MainWindow& window, const QString& text) {
        for (QAction* action : window.findChildren<QAction*>()) {
            if (action->text() == text) {
                return action;
            }
        }
        return nullptr;
    }

    std::unique_ptr<strata::test::NginxServer> nginx_;
    QTemporaryDir scratch_;
};

QTEST_MAIN(RemoteDocumentTest)
#include "remote_document_test.moc"
