// The Shardlake tabs over the conformance corpus: root browser and alias editing, shard table
// with fingerprints, record and result links into the tree, query results equal to the
// reference's, PCA scatter, and a lone shard. With STRATA_SHOT_DIR set, also saves the
// screenshots of docs/formats-shardlake.md there.
#include <QChart>
#include <QComboBox>
#include <QDir>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>
#include <QUndoStack>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "app/gui/main_window.h"
#include "app/shardlake/shardlake_build_dialog.h"
#include "app/shardlake/shardlake_file_view.h"
#include "app/shardlake/shardlake_pca_view.h"
#include "app/shardlake/shardlake_query_panel.h"
#include "app/shardlake/shardlake_root_browser.h"
#include "app/shardlake/shardlake_shards_panel.h"
#include "app/widgets/document_view.h"
#include "model/core/document.h"
#include "model/core/job.h"
#include "model/shardlake/shardlake_alias_editor.h"
#include "model/shardlake/shardlake_query.h"
#include "model/shardlake/shardlake_root_model.h"
#include "model/shardlake/shardlake_session.h"
#include "model/shardlake/shardlake_shard_table_model.h"
#include "model/shardlake/shardlake_vector_model.h"
#include "test_corpus.h"

namespace fs = std::filesystem;
using namespace strata::gui;
using strata::model::Job;
using strata::model::ShardlakeShardTableModel;

namespace {

const fs::path kCorpus = strata::test::corpusRoot() / "shardlake";

QString corpusPath(const fs::path& relative) {
    return QString::fromStdString((kCorpus / relative).string());
}

nlohmann::json expectedQueries() {
    std::ifstream in(kCorpus / "expected" / "queries.json");
    return nlohmann::json::parse(in);
}

int tabIndex(QTabWidget* tabs, const QString& title) {
    for (int i = 0; i < tabs->count(); ++i) {
        if (tabs->tabText(i) == title) {
            return i;
        }
    }
    return -1;
}

void shot(MainWindow& window, const char* name) {
    const QString dir = qEnvironmentVariable("STRATA_SHOT_DIR");
    if (!dir.isEmpty()) {
        QVERIFY(window.grab().save(QDir(dir).filePath(QString::fromLatin1(name)), "PNG"));
    }
}

}  // namespace

class ShardlakeViewsTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { STRATA_QSKIP_WITHOUT_CORPUS(); }  // every test opens corpus data
    void init();
    void cleanup();
    void rootTabs();
    void shardTableAndRecords();
    void queryPanelMatchesTheReference();
    void pickedRecordBecomesTheQuery();
    void pcaScatter();
    void aliasEditFromTheBrowser();
    void corruptShardIsFlagged();
    void loneShard();
    void buildDialogRunsAJob();
    void aliasSaveThroughTheWindow();
    void indexFolderAlone();

private:
    DocumentView* open(const QString& path);
    std::unique_ptr<MainWindow> window_;
};

void ShardlakeViewsTest::init() {
    window_ = std::make_unique<MainWindow>();
    window_->setInteractive(false);
    window_->setAutoValidate(false);
    window_->resize(1440, 900);
    window_->show();
}

void ShardlakeViewsTest::cleanup() {
    window_->jobRunner()->cancelAll();
    window_->jobRunner()->waitForDone();
    window_.reset();
}

DocumentView* ShardlakeViewsTest::open(const QString& path) {
    if (!window_->openPath(path)) {
        qWarning("%s", qPrintable(window_->lastError()));
        return nullptr;
    }
    return window_->currentView();
}

void ShardlakeViewsTest::rootTabs() {
    DocumentView* view = open(corpusPath("root"));
    QVERIFY(view);
    QTabWidget* tabs = view->centreTabs();
    for (const char* title : {"Storage root", "Shards", "PCA", "Query"}) {
        QVERIFY2(tabIndex(tabs, QString::fromLatin1(title)) >= 0, title);
    }
    QCOMPARE(tabs->currentIndex(), tabIndex(tabs, QStringLiteral("Storage root")));
    auto* browser = view->findChild<ShardlakeRootBrowser*>();
    QVERIFY(browser);
    QCOMPARE(browser->model()->rowCount(), 3);
    QVERIFY(browser->buildButton()->isVisibleTo(browser));
    // Double-clicking an index opens it in the Shards tab.
    emit browser->indexActivated(QStringLiteral("idx-pq"));
    QCOMPARE(tabs->currentIndex(), tabIndex(tabs, QStringLiteral("Shards")));
    QCOMPARE(view->findChild<ShardlakeShardsPanel*>()->currentIndex(), QStringLiteral("idx-pq"));
    QVERIFY(window_->waitUntilIdle(60000));
}

void ShardlakeViewsTest::shardTableAndRecords() {
    DocumentView* view = open(corpusPath("root"));
    QVERIFY(view);
    auto* panel = view->findChild<ShardlakeShardsPanel*>();
    QVERIFY(panel);
    panel->showIndex(QStringLiteral("idx-l2"));
    QCOMPARE(panel->shardModel()->rowCount(), 3);
    QVERIFY(window_->waitUntilIdle(60000));
    for (int row = 0; row < 3; ++row) {
        QTRY_COMPARE(panel->shardModel()->check(row), ShardlakeShardTableModel::Check::Match);
    }
    QCOMPARE(panel->centroidModel()->rowCount(), 3);
    // A shard: its file in the hex view, its records in the table.
    panel->showShard(1);
    QVERIFY(view->currentNode() != nullptr);
    QCOMPARE(view->currentNode()->kind(), std::string("shardlake.shard"));
    QCOMPARE(view->currentNode()->label(), std::string("shards/shard-0001.sidx"));
    QCOMPARE(static_cast<std::uint64_t>(panel->recordModel()->rowCount()),
             panel->shardModel()->shard(1)->layout->vectorCount);
    panel->selectRecord(5);
    QCOMPARE(view->currentNode()->kind(), std::string("shardlake.record"));
    QCOMPARE(view->currentNode()->label(), std::string("record 5"));
    QCOMPARE(view->hexView()->selectionStart(),
             panel->shardModel()->shard(1)->layout->recordOffset(5));
    view->centreTabs()->setCurrentWidget(panel);
    shot(*window_, "shardlake-shards.png");
}

void ShardlakeViewsTest::queryPanelMatchesTheReference() {
    DocumentView* view = open(corpusPath("root"));
    QVERIFY(view);
    auto* query = view->findChild<ShardlakeQueryPanel*>();
    QVERIFY(query);
    const nlohmann::json expected = expectedQueries();
    query->setIndex(QStringLiteral("idx-l2"));
    query->setQueryText(QString::fromStdString(expected["queries"][0].dump()));
    query->setK(10);
    query->setNprobe(0);
    Job* job = query->run();
    QVERIFY2(job, qPrintable(query->statusText()));
    QVERIFY(window_->waitUntilIdle(60000));
    QTRY_COMPARE(query->results()->rowCount(), 10);
    const auto& want = expected["index_search"]["idx-l2"]["results"]["euclidean"][0];
    for (int row = 0; row < 10; ++row) {
        QCOMPARE(query->results()
                     ->data(query->results()->index(
                         row, strata::model::ShardlakeQueryResultsModel::IdColumn))
                     .toString(),
                 QString::number(want[static_cast<std::size_t>(row)]["id"].get<qulonglong>()));
    }
    // A result selects its record.
    query->openResult(0);
    const strata::Node* node = view->currentNode();
    QVERIFY(node != nullptr);
    QCOMPARE(node->kind(), std::string("shardlake.record"));
    QCOMPARE(std::get<std::uint64_t>(node->fields().front().value),
             want[0]["id"].get<std::uint64_t>());
    view->centreTabs()->setCurrentWidget(query);
    shot(*window_, "shardlake-query.png");
    // Bad input says why and starts nothing.
    query->setQueryText(QStringLiteral("[1, 2"));
    QVERIFY(query->run() == nullptr);
    QVERIFY(query->statusText().contains(QStringLiteral("JSON")));
    query->setQueryText(QStringLiteral("[1, 2]"));
    QVERIFY(query->run() != nullptr);
    QVERIFY(window_->waitUntilIdle(60000));
    QTRY_VERIFY(query->statusText().contains(QStringLiteral("dims")));
}

void ShardlakeViewsTest::pickedRecordBecomesTheQuery() {
    DocumentView* view = open(corpusPath("root"));
    QVERIFY(view);
    auto* panel = view->findChild<ShardlakeShardsPanel*>();
    auto* query = view->findChild<ShardlakeQueryPanel*>();
    panel->showIndex(QStringLiteral("idx-cosine"));
    panel->showShard(0);
    panel->recordTable()->setCurrentIndex(panel->recordModel()->index(2, 0));
    const quint64 id = panel->recordModel()->idAt(2).value();
    for (QPushButton* button : panel->findChildren<QPushButton*>()) {
        if (button->text() == QStringLiteral("Use as query")) {
            button->click();
        }
    }
    QCOMPARE(view->centreTabs()->currentWidget(), query);
    query->setK(1);
    QVERIFY(query->run());
    QVERIFY(window_->waitUntilIdle(60000));
    QTRY_COMPARE(query->results()->rowCount(), 1);
    QCOMPARE(query->results()->hits().front().id, id);
    // Typing an id does the same.
    query->setQueryId(id);
    QVERIFY(query->run());
    QVERIFY(window_->waitUntilIdle(60000));
    QTRY_COMPARE(query->results()->rowCount(), 1);
    QCOMPARE(query->results()->hits().front().id, id);
}

void ShardlakeViewsTest::pcaScatter() {
    DocumentView* view = open(corpusPath("root"));
    QVERIFY(view);
    auto* pca = view->findChild<ShardlakePcaView*>();
    QVERIFY(pca);
    pca->indexBox()->setCurrentText(QStringLiteral("idx-cosine"));
    Job* job = pca->run();
    QVERIFY(job);
    QVERIFY(window_->waitUntilIdle(60000));
    QTRY_VERIFY(pca->pointCount() > 0);
    QCOMPARE(pca->pointCount(), 2000);
    QCOMPARE(pca->chart()->series().size(), 4);
    view->centreTabs()->setCurrentWidget(pca);
    shot(*window_, "shardlake-pca.png");
}

void ShardlakeViewsTest::aliasEditFromTheBrowser() {
    DocumentView* view = open(corpusPath("root"));
    QVERIFY(view);
    auto* browser = view->findChild<ShardlakeRootBrowser*>();
    auto* editor = qobject_cast<strata::model::ShardlakeAliasEditor*>(view->document()->editor());
    QVERIFY(editor);
    browser->aliasBox()->setCurrentText(QStringLiteral("latest"));
    QCOMPARE(browser->versionBox()->currentText(), QStringLiteral("idx-cosine"));
    browser->versionBox()->setCurrentText(QStringLiteral("idx-ip"));
    QVERIFY(browser->applyAlias());
    QCOMPARE(view->document()->undoStack()->count(), 1);
    QVERIFY(view->document()->isModified());
    const QModelIndex latest =
        browser->model()->indexOf(QStringLiteral("alias"), QStringLiteral("latest"));
    QCOMPARE(
        latest.siblingAtColumn(strata::model::ShardlakeRootModel::DetailsColumn).data().toString(),
        QStringLiteral("→ idx-ip"));
    browser->tree()->setCurrentIndex(latest);
    shot(*window_, "shardlake-root.png");
    view->document()->undoStack()->undo();
    QCOMPARE(editor->target(QStringLiteral("latest")), QStringLiteral("idx-cosine"));
    QVERIFY(!view->document()->isModified());
}

void ShardlakeViewsTest::corruptShardIsFlagged() {
    DocumentView* view = open(corpusPath("corrupt/shard_truncated"));
    QVERIFY(view);
    auto* panel = view->findChild<ShardlakeShardsPanel*>();
    QVERIFY(panel);
    bool flagged = false;
    for (int i = 0; i < panel->indexBox()->count(); ++i) {
        panel->showIndex(panel->indexBox()->itemText(i));
        QVERIFY(window_->waitUntilIdle(60000));
        for (int row = 0; row < panel->shardModel()->rowCount(); ++row) {
            if (!panel->shardModel()->shard(row)->problem.empty()) {
                flagged = true;
                QVERIFY(panel->shardModel()
                            ->data(panel->shardModel()->index(
                                row, ShardlakeShardTableModel::StatusColumn))
                            .toString()
                            .contains(
                                QString::fromStdString(panel->shardModel()->shard(row)->problem)));
            }
        }
    }
    QVERIFY(flagged);
}

void ShardlakeViewsTest::loneShard() {
    DocumentView* view = open(corpusPath("root/indexes/idx-pq/shards/shard-0002.sidx"));
    QVERIFY(view);
    auto* file = view->findChild<ShardlakeFileView*>();
    QVERIFY(file);
    QVERIFY(file->headerTable()->rowCount() >= 7);
    QVERIFY(file->vectorModel()->isCodes());
    QVERIFY(file->vectorModel()->rowCount() > 0);
    QCOMPARE(file->vectorModel()->columnCount(), 1 + 4);
    QVERIFY(view->findChild<ShardlakeQueryPanel*>() == nullptr);
}

void ShardlakeViewsTest::buildDialogRunsAJob() {
    QTemporaryDir dir;
    const fs::path root = fs::path(dir.path().toStdString()) / "root";
    fs::copy(kCorpus / "root", root, fs::copy_options::recursive);
    DocumentView* view = open(QString::fromStdString(root.string()));
    QVERIFY(view);
    auto* session = view->findChild<strata::model::ShardlakeSession*>();
    QVERIFY(session);
    ShardlakeBuildDialog dialog(*session);
    QCOMPARE(dialog.datasetBox()->currentText(), QStringLiteral("ds-v1"));
    QString error;
    QVERIFY(dialog.startBuild(*window_->jobRunner(), &error) == nullptr);
    QVERIFY(!error.isEmpty());
    dialog.indexEdit()->setText(QStringLiteral("idx-gui"));
    dialog.metricBox()->setCurrentText(QStringLiteral("euclidean"));
    dialog.shardsBox()->setValue(2);
    dialog.itersBox()->setValue(3);
    Job* job = dialog.startBuild(*window_->jobRunner(), &error);
    QVERIFY2(job, qPrintable(error));
    QVERIFY(window_->waitUntilIdle(120000));
    QCOMPARE(job->state(), Job::State::Finished);
    QVERIFY(fs::exists(root / "indexes" / "idx-gui" / "manifest.json"));
}

void ShardlakeViewsTest::aliasSaveThroughTheWindow() {
    QTemporaryDir dir;
    const fs::path root = fs::path(dir.path().toStdString()) / "root";
    fs::copy(kCorpus / "root", root, fs::copy_options::recursive);
    DocumentView* view = open(QString::fromStdString(root.string()));
    QVERIFY(view);
    auto* browser = view->findChild<ShardlakeRootBrowser*>();
    browser->aliasBox()->setCurrentText(QStringLiteral("pq"));
    browser->versionBox()->setCurrentText(QStringLiteral("idx-l2"));
    QVERIFY(browser->applyAlias());
    QVERIFY(view->document()->isModified());
    const QPointer<DocumentView> saved(view);
    window_->startEditorSave(view, view->document()->path());
    QVERIFY(window_->waitUntilIdle(60000));
    // Saving in place reopens the document, so the new view shows what is on disk.
    QTRY_VERIFY(saved.isNull());
    view = window_->currentView();
    QVERIFY(view);
    QVERIFY(!view->document()->isModified());
    browser = view->findChild<ShardlakeRootBrowser*>();
    QVERIFY(browser);
    std::ifstream in(root / "aliases" / "pq.json", std::ios::binary);
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    QCOMPARE(text, std::string("{\n  \"alias\": \"pq\",\n  \"index_version\": \"idx-l2\"\n}"));
    const QModelIndex pq = browser->model()->indexOf(QStringLiteral("alias"), QStringLiteral("pq"));
    QCOMPARE(pq.siblingAtColumn(strata::model::ShardlakeRootModel::StatusColumn).data().toString(),
             QStringLiteral("ok"));
}

void ShardlakeViewsTest::indexFolderAlone() {
    DocumentView* view = open(corpusPath("root/indexes/idx-pq"));
    QVERIFY(view);
    auto* browser = view->findChild<ShardlakeRootBrowser*>();
    QVERIFY(browser);
    QVERIFY(!browser->buildButton()->isVisibleTo(browser));
    QVERIFY(!browser->aliasBox()->isEnabled());
    QVERIFY(view->document()->editor() == nullptr);
    auto* panel = view->findChild<ShardlakeShardsPanel*>();
    QCOMPARE(panel->indexBox()->count(), 1);
    QCOMPARE(panel->shardModel()->rowCount(), 4);
    QVERIFY(window_->waitUntilIdle(60000));
    for (int row = 0; row < 4; ++row) {
        QTRY_COMPARE(panel->shardModel()->check(row), ShardlakeShardTableModel::Check::Match);
    }
    // PQ indexes answer only euclidean queries; the panel says so.
    auto* query = view->findChild<ShardlakeQueryPanel*>();
    query->setQueryId(7);
    query->setMetric(QStringLiteral("cosine"));
    QVERIFY(query->run());
    QVERIFY(window_->waitUntilIdle(60000));
    QTRY_VERIFY(query->statusText().contains(QStringLiteral("euclidean")));
    QCOMPARE(query->results()->rowCount(), 0);
    query->setMetric(QString());
    QVERIFY(query->run());
    QVERIFY(window_->waitUntilIdle(60000));
    QTRY_COMPARE(query->results()->rowCount(), 10);
}

QTEST_MAIN(ShardlakeViewsTest)
#include "shardlake_views_test.moc"
