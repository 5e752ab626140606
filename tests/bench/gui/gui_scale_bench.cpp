// The desktop application at the sizes its users have: a file-per-document ZDS dataset, an OZDF
// corpus of many documents and a Shardlake root of many shards, each opened in a main window.
// Prints, per dataset, the time until the window shows its first view (openPath and the first
// paint), how many rows that view lists by then, the time until every background job is done,
// and the longest and median frame while scrolling its biggest list from top to bottom.
//
//   export STRATA_GUI_SCALE="docs=1000000 ozdf=100000 shards=10000"
//   export STRATA_GUI_SCALE_WORK=/var/tmp/strata-gui-scale QT_QPA_PLATFORM=offscreen
//   build/release/tests/bench/gui/gui_scale_bench
//
// Generated datasets stay in the work folder and are reused by later runs. Without
// STRATA_GUI_SCALE it runs small sizes, as ctest does: a check that every view opens and lists
// everything, with no timing asserted.
//
// The Browser pane (docs/performance-scan.md) scans a folder of `scan=N` entries (most of them
// tiny text files, one in ten a ZS or zTensor file, a few datasets) as File > Open Folder or
// Bucket… does, and measures the longest frame while its rows and statuses arrive in batches
// and the table scrolls meanwhile, then while scrolling through the whole table:
//   STRATA_GUI_SCALE="scan=100000" ... gui_scale_bench browserPane
#include <QAbstractItemView>
#include <QApplication>
#include <QElapsedTimer>
#include <QScrollBar>
#include <QSettings>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "app/gui/browser_controller.h"
#include "app/gui/main_window.h"
#include "app/scan/browser_pane.h"
#include "app/widgets/document_view.h"
#include "formats/shardlake/shardlake_builder.h"
#include "formats/zds/zds_jobs.h"
#include "model/scan/scan_list_model.h"
#include "scan_test_support.h"

namespace fs = std::filesystem;
using namespace strata;
using namespace strata::gui;

namespace {

// "docs=1000 ozdf=1000" → {docs: 1000, ozdf: 1000}
std::map<std::string, long long> sizesFromEnvironment() {
    std::map<std::string, long long> sizes{
        {"docs", 2000}, {"ozdf", 2000}, {"shards", 200}, {"scan", 2000}};
    const QString spec = qEnvironmentVariable("STRATA_GUI_SCALE");
    for (const QString& item : spec.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        const auto parts = item.split(QLatin1Char('='));
        if (parts.size() == 2) {
            sizes[parts[0].toStdString()] = parts[1].toLongLong();
        }
    }
    return sizes;
}

void writeText(const fs::path& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
}

// A folder made whole once: `make` fills it, a marker says it finished.
bool reuse(const fs::path& folder) {
    if (fs::exists(folder / ".complete")) {
        return true;
    }
    fs::remove_all(folder);
    fs::create_directories(folder);
    return false;
}

void markComplete(const fs::path& folder) {
    writeText(folder / ".complete", "");
}

fs::path makeDocsDataset(const fs::path& work, long long n) {
    const fs::path root = work / ("zds-docs-" + std::to_string(n));
    if (reuse(root)) {
        return root;
    }
    const fs::path docs = root / "collections/main/docs";
    fs::create_directories(docs);
    for (long long i = 0; i < n; ++i) {
        char id[32];
        std::snprintf(id, sizeof id, "d%09lld", i);
        writeText(docs / (std::string(id) + ".json"),
                  "{\n  \"n\": " + std::to_string(i) + ",\n  \"text\": \"document " +
                      std::to_string(i) + " lorem ipsum\",\n  \"tags\": [\"a\", \"b\"]\n}");
    }
    zds::reindexZds(root);  // meta/order.ids and meta/doc_index.jsonl
    markComplete(root);
    return root;
}

fs::path makeOzdfCorpus(const fs::path& work, long long n) {
    const fs::path root = work / ("ozdf-" + std::to_string(n));
    if (reuse(root)) {
        return root / "corpus";
    }
    const fs::path corpus = root / "corpus";
    fs::create_directories(corpus);
    for (long long i = 0; i < n; ++i) {
        char name[32];
        std::snprintf(name, sizeof name, "doc%07lld.ozdf", i);
        writeText(corpus / name, "#### TITLE\ndocument " + std::to_string(i) +
                                     "\n\n#### BODY\nThe body of document " + std::to_string(i) +
                                     ".\n");
    }
    markComplete(root);
    return corpus;
}

// As many shards as vectors: k-means seeded with every vector of a sample that is all of them,
// one round, puts each vector in a shard of its own.
fs::path makeShardlakeRoot(const fs::path& work, long long n) {
    const fs::path folder = work / ("shardlake-" + std::to_string(n));
    if (reuse(folder)) {
        return folder / "root";
    }
    std::string lines;
    for (long long i = 0; i < n; ++i) {
        lines += "{\"id\":" + std::to_string(i + 1) + ",\"vector\":[" + std::to_string(i) + "," +
                 std::to_string(i % 7) + "]}\n";
    }
    writeText(folder / "vectors.jsonl", lines);
    shardlake::IngestRequest ingest;
    ingest.root = folder / "root";
    ingest.input = folder / "vectors.jsonl";
    ingest.datasetVersion = "d1";
    ingest.timestamp = "2026-01-01T00:00:00Z";
    if (const auto done = shardlake::ingestVectors(ingest); !done.ok) {
        qFatal("ingest: %s", done.error.c_str());
    }
    shardlake::BuildRequest build;
    build.root = folder / "root";
    build.datasetVersion = "d1";
    build.indexVersion = "i1";
    build.metric = shardlake::Metric::Euclidean;
    build.numShards = static_cast<std::uint32_t>(n);
    build.kmeansIters = 1;
    build.kmeansSampleSize = static_cast<std::uint32_t>(n);
    build.timestamp = "2026-01-01T00:00:00Z";
    if (const auto done = shardlake::buildIndex(build); !done.ok) {
        qFatal("build: %s", done.error.c_str());
    }
    fs::remove(folder / "vectors.jsonl");
    markComplete(folder);
    return folder / "root";
}

// A folder of `n` scan entries: a twentieth each ZS and zTensor files (one in eight of them
// damaged), a thousandth each ZDS datasets, Shardlake roots and OZDF corpora, the rest tiny
// text files in one folder.
fs::path makeScanTree(const fs::path& work, long long n) {
    const fs::path folder = work / ("scan-" + std::to_string(n));
    if (reuse(folder)) {
        return folder / "tree";
    }
    const auto formats = static_cast<std::size_t>(n / 20),
               units = static_cast<std::size_t>(n / 1000);
    scan::test::TreeShape shape{formats, formats, units, units, units, 0};
    shape.unknown = static_cast<std::size_t>(n) - shape.total();
    scan::test::generateTree(folder, shape, 1);
    markComplete(folder);
    return folder / "tree";
}

// The item view with the most rows among those the document's current centre tab shows, and
// the structure tree.
QAbstractItemView* biggestList(DocumentView* view) {
    QList<QAbstractItemView*> views =
        view->centreTabs()->currentWidget()->findChildren<QAbstractItemView*>();
    views << view->treeView();
    QAbstractItemView* best = nullptr;
    for (QAbstractItemView* v : views) {
        if (v->isVisible() && v->model() != nullptr &&
            (best == nullptr || v->model()->rowCount() > best->model()->rowCount())) {
            best = v;
        }
    }
    return best;
}

// CPU time of the calling thread.
double threadCpuMs() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

struct Frames {
    double longestMs = 0;
    double medianMs = 0;
};

// Scrolls from top to bottom in `steps` jumps, each painted before the next: what a user
// dragging the scroll bar waits for.
Frames scrollThrough(QAbstractItemView* list, int steps) {
    QScrollBar* bar = list->verticalScrollBar();
    std::vector<double> frames;
    for (int i = 0; i <= steps; ++i) {
        QElapsedTimer timer;
        timer.start();
        bar->setValue(static_cast<int>(static_cast<long long>(bar->maximum()) * i / steps));
        QCoreApplication::processEvents();
        list->viewport()->repaint();
        frames.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
    }
    std::sort(frames.begin(), frames.end());
    return {frames.back(), frames[frames.size() / 2]};
}

}  // namespace

class GuiScaleBench : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("StrataTest"));
        QCoreApplication::setApplicationName(QStringLiteral("gui_scale_bench"));
        QSettings().clear();
        const QString work = qEnvironmentVariable("STRATA_GUI_SCALE_WORK");
        work_ = fs::path((work.isEmpty() ? scratch_.path() : work).toStdString());
        fs::create_directories(work_);
        sizes_ = sizesFromEnvironment();
        std::printf(
            "| dataset | entries | first view (ms) | rows listed then | a page listed (ms) "
            "| all jobs done (ms) | scroll: longest frame (ms) | median frame (ms) |\n"
            "|---|---:|---:|---:|---:|---:|---:|---:|\n");
    }

    void docsModeDataset() {
        measure("ZDS docs/", makeDocsDataset(work_, sizes_["docs"]), sizes_["docs"]);
    }
    void ozdfCorpus() {
        measure("OZDF corpus", makeOzdfCorpus(work_, sizes_["ozdf"]), sizes_["ozdf"]);
    }
    void shardlakeRoot() {
        measure("Shardlake root", makeShardlakeRoot(work_, sizes_["shards"]), sizes_["shards"]);
    }

    void browserPane() {
        const long long n = sizes_["scan"];
        if (n <= 0) {
            QSKIP("scan=0");
        }
        const fs::path root = makeScanTree(work_, n);
        MainWindow window;
        window.setInteractive(false);
        window.resize(1440, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QElapsedTimer timer;
        timer.start();
        QVERIFY(window.browser().browse(QString::fromStdString(root.string())) != nullptr);
        BrowserPane* pane = window.browser().pane();
        QAbstractItemView* table = pane->table();
        // While the scan runs: batches of rows and statuses arrive between frames, and the
        // table keeps scrolling (to the newest rows, then back to the top, and so on).
        // Each frame's wall time, and the CPU time the GUI thread spent in the longest one (the
        // rest of it the thread waited for a core: the scan's workers run beside it).
        std::vector<double> during;
        double longestCpu = 0;
        for (int step = 0; window.jobRunner()->activeJob() != nullptr; ++step) {
            QElapsedTimer frame;
            frame.start();
            const double cpuBefore = threadCpuMs();
            QScrollBar* bar = table->verticalScrollBar();
            bar->setValue(step % 2 == 0 ? bar->maximum() : bar->maximum() / (step % 7 + 1));
            QCoreApplication::processEvents();
            table->viewport()->repaint();
            during.push_back(static_cast<double>(frame.nsecsElapsed()) / 1e6);
            if (during.back() >= *std::max_element(during.begin(), during.end())) {
                longestCpu = threadCpuMs() - cpuBefore;
            }
            QTest::qWait(1);
        }
        const auto over50 =
            std::count_if(during.begin(), during.end(), [](double ms) { return ms > 50; });
        QVERIFY(window.waitUntilIdle(30 * 60 * 1000));
        QCoreApplication::processEvents();
        const double scanned = static_cast<double>(timer.nsecsElapsed()) / 1e6;
        QCOMPARE(pane->entries()->rowCount(), static_cast<int>(n));
        QCOMPARE(pane->entries()->checkedCount(), static_cast<quint64>(n));
        std::sort(during.begin(), during.end());
        const Frames after = scrollThrough(table, 200);
        std::printf(
            "\n| Browser pane | entries | scanned (ms) | frames during the scan | over 50 ms "
            "| longest (ms) | its GUI-thread CPU (ms) | median (ms) | scrolling after: "
            "longest (ms) | median (ms) |\n"
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
            "| %s | %lld | %.0f | %zu | %td | %.1f | %.1f | %.1f | %.1f | %.1f |\n",
            qPrintable(QString::fromStdString(root.string())), n, scanned, during.size(), over50,
            during.empty() ? 0.0 : during.back(), longestCpu,
            during.empty() ? 0.0 : during[during.size() / 2], after.longestMs, after.medianMs);
        std::fflush(stdout);
    }

private:
    void measure(const char* what, const fs::path& path, long long entries) {
        MainWindow window;
        window.setInteractive(false);
        window.resize(1440, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));

        QElapsedTimer timer;
        timer.start();
        QVERIFY2(window.openPath(QString::fromStdString(path.string())),
                 qPrintable(window.lastError()));
        QCoreApplication::processEvents();
        (void)window.grab();  // the first paint of the whole window
        const double firstView = static_cast<double>(timer.nsecsElapsed()) / 1e6;
        DocumentView* view = window.currentView();
        QVERIFY(view != nullptr);
        QAbstractItemView* list = biggestList(view);
        QVERIFY(list != nullptr);
        const int rowsThen = list->model()->rowCount();
        // When a page of entries is listed, where the listing comes from a job ("–" when the
        // main list never holds a page: the Shardlake tree lists a root's indexes, not shards).
        const long long page = std::min<long long>(entries, 1000);
        while (biggestList(view)->model()->rowCount() < page &&
               view->jobRunner()->activeJob() != nullptr) {
            QTest::qWait(5);
        }
        const bool pageListed = biggestList(view)->model()->rowCount() >= page;
        const QString listed =
            pageListed ? QString::number(static_cast<double>(timer.nsecsElapsed()) / 1e6, 'f', 0)
                       : QStringLiteral("–");

        QVERIFY(window.waitUntilIdle(30 * 60 * 1000));
        const double allDone = static_cast<double>(timer.nsecsElapsed()) / 1e6;
        list = biggestList(view);
        QVERIFY(list != nullptr);
        // Every entry is listed once the jobs are done (the tree lists shards, folders and
        // files, so at least as many rows as entries where it is the list).
        QVERIFY2(list->model()->rowCount() >= std::min<long long>(entries, 1),
                 qPrintable(QString::number(list->model()->rowCount())));
        const Frames frames = scrollThrough(list, 60);
        std::printf("| %s | %lld | %.0f | %d | %s | %.0f | %.1f | %.1f |\n", what, entries,
                    firstView, rowsThen, qPrintable(listed), allDone, frames.longestMs,
                    frames.medianMs);
        std::fflush(stdout);
    }

    QTemporaryDir scratch_;
    fs::path work_;
    std::map<std::string, long long> sizes_;
};

QTEST_MAIN(GuiScaleBench)
#include "gui_scale_bench.moc"
