// The ZDS Documents tab: rows linked to the hex view, the JSON editor's inline errors and apply,
// toolbar edits through the undo stack, search results leading to rows.
#include <QAction>
#include <QApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolBar>
#include <QToolButton>
#include <QUndoStack>

#include <filesystem>

#include "app/gui/builtin_format_views.h"
#include "app/widgets/document_view.h"
#include "app/zds/zds_dataset_actions.h"
#include "app/zds/zds_document_editor.h"
#include "app/zds/zds_documents_tab.h"
#include "formats/common/diagnostic.h"
#include "formats/zds/zds_format.h"
#include "formats/zds/zds_reader.h"
#include "formats/zds/zds_validator.h"
#include "model/core/byte_overlay.h"
#include "model/core/document.h"
#include "model/core/job_runner.h"
#include "model/zds/zds_dataset_jobs.h"
#include "model/zds/zds_editor.h"
#include "model/zds/zds_json_highlighter.h"
#include "model/zds/zds_search_results.h"
#include "model/zds/zds_table_model.h"
#include "test_corpus.h"

using namespace strata;
using namespace strata::gui;

namespace {

QString corpus(const char* rel) {
    return QString::fromStdString((strata::test::corpusRoot() / "zds" / rel).string());
}

struct Fixture {
    model::JobRunner runner;
    std::unique_ptr<DocumentView> view;
    ZdsDocumentsTab* tab = nullptr;

    explicit Fixture(const QString& path) {
        QString error;
        auto document = model::Document::open(path, &error);
        if (!document) {
            qWarning() << error;
            return;
        }
        view = std::make_unique<DocumentView>(std::move(document), &runner, builtinFormatViews());
        view->resize(1200, 800);
        tab = view->findChild<ZdsDocumentsTab*>(QStringLiteral("zdsDocumentsTab"));
        if (tab != nullptr) {
            QTRY_VERIFY_WITH_TIMEOUT(tab->editor()->loaded(), 20000);
        }
    }
};

// The `_id`s of the highlighted rows, read from the table as it is drawn.
QStringList highlightedIds(ZdsDocumentsTab* tab) {
    QStringList ids;
    const QModelIndexList rows = tab->table()->selectionModel()->selectedRows();
    for (const QModelIndex& row : rows) {
        ids << row.data().toString();
    }
    return ids;
}

// The `_id` of the document the JSON editor shows.
QString editorId(ZdsDocumentsTab* tab) {
    const QJsonDocument json = QJsonDocument::fromJson(tab->documentEditor()->text().toUtf8());
    return json.object().value(QStringLiteral("_id")).toString();
}

// The table's values of `column` from top to bottom.
std::vector<int> columnValues(QTableView* table, int column) {
    std::vector<int> values;
    for (int row = 0; row < table->model()->rowCount(); ++row) {
        values.push_back(table->model()->index(row, column).data().toInt());
    }
    return values;
}

int collection(ZdsDocumentsTab* tab, const std::string& name) {
    for (int i = 0; i < tab->editor()->collectionCount(); ++i) {
        if (tab->editor()->table(i)->collection().name() == name) {
            return i;
        }
    }
    return -1;
}

}  // namespace

class ZdsDocumentsTabTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { STRATA_QSKIP_WITHOUT_CORPUS(); }  // every test opens corpus data
    void installsTabAndEditor();
    void rowSelectsLineAndIndexEntry();
    void editorShowsErrorsAndApplies();
    void toolbarEditsUndo();
    void searchResultLeadsToRow();
    void archiveOpensToo();
    void sharesTheOpenedDataset();
    void hexMoveSelectsRow();
    void hexMoveSelectsRowWithoutIndex();
    void indexEntrySelectsRow();
    void datasetJobsFromTheMenu();
    void sortedTableActsOnTheShownDocument();
    void undoAndRedoShowTheShownDocumentAsItIsNow();
};

void ZdsDocumentsTabTest::installsTabAndEditor() {
    Fixture f(corpus("valid/jsonl_two_collections"));
    QVERIFY(f.tab != nullptr);
    QVERIFY(qobject_cast<model::ZdsEditor*>(f.view->document()->editor()) != nullptr);
    QVERIFY(f.view->centreTabs()->indexOf(f.tab) >= 0);
    QCOMPARE(f.tab->editor()->collectionCount(), 2);
}

void ZdsDocumentsTabTest::rowSelectsLineAndIndexEntry() {
    Fixture f(corpus("valid/jsonl_two_collections"));
    QVERIFY(f.tab);
    f.tab->setCurrentCollection(collection(f.tab, "test"));
    f.tab->showDocument(2);
    const auto* m = f.tab->currentModel();
    const Region line = f.tab->currentLineRegion();
    QVERIFY(line.valid());
    QVERIFY(line.source->name().find("data.jsonl") != std::string::npos);
    QCOMPARE(f.view->currentFile()->source().name(), line.source->name());
    QCOMPARE(f.view->hexView()->selectionStart(), line.offset);
    QCOMPARE(f.view->hexView()->selectionLength(), line.length);
    QCOMPARE(f.tab->documentEditor()->text().contains("\"t02\""), true);
    QVERIFY(m->text(2).size() + 1 == line.length);

    f.tab->showIndexEntry();
    const Region entry = f.tab->currentEntryRegion();
    QVERIFY(entry.valid());
    QVERIFY(entry.source->name().find("index.bin") != std::string::npos);
    QCOMPARE(f.view->currentFile()->source().name(), entry.source->name());
    QCOMPARE(f.view->hexView()->selectionStart(), entry.offset);
}

void ZdsDocumentsTabTest::editorShowsErrorsAndApplies() {
    Fixture f(corpus("valid/jsonl_two_collections"));
    QVERIFY(f.tab);
    f.tab->setCurrentCollection(collection(f.tab, "test"));
    f.tab->showDocument(0);
    ZdsDocumentEditor* editor = f.tab->documentEditor();
    QVERIFY(editor->pretty());
    QVERIFY(editor->text().contains('\n'));
    editor->setPretty(false);
    QCOMPARE(editor->text(), QString(R"({"_id":"t00","i":0,"nested":{"l":[0,0]}})"));
    editor->setPretty(true);

    editor->setText("{\n  \"_id\": \"t00\",\n  \"i\": ,\n}");
    QVERIFY(editor->errorLabel()->text().startsWith("Line 3, column"));
    // The message has a row of its own, as wide as the text, above Revert and Apply (not a
    // narrow column beside them).
    f.view->show();
    QVERIFY(QTest::qWaitForWindowExposed(f.view.get()));
    QVERIFY(editor->errorLabel()->width() >= editor->textEdit()->width() - 4);
    QVERIFY(editor->errorLabel()->geometry().bottom() <= editor->applyButton()->geometry().top());
    // The error is underlined on line 3.
    const QTextBlock block = editor->textEdit()->document()->findBlockByNumber(2);
    bool underlined = false;
    for (const QTextLayout::FormatRange& r : block.layout()->formats()) {
        underlined = underlined || r.format.underlineStyle() == QTextCharFormat::WaveUnderline;
    }
    QVERIFY(underlined);

    editor->setText(R"({"_id":"t00","i":42})");
    QVERIFY(editor->errorLabel()->text().isEmpty());
    QTest::mouseClick(editor->applyButton(), Qt::LeftButton);
    QCOMPARE(f.tab->currentModel()->text(0), std::string(R"({"_id":"t00","i":42})"));
    QVERIFY(f.view->document()->isModified());
    f.view->document()->undoStack()->undo();
    QCOMPARE(f.tab->currentModel()->text(0),
             std::string(R"({"_id":"t00","i":0,"nested":{"l":[0,0]}})"));

    // An id clash is refused by apply and shown.
    editor->setText(R"({"_id":"t01"})");
    QVERIFY(!f.tab->applyEditorText(editor->text()).isEmpty());
    QCOMPARE(f.view->document()->undoStack()->count(), 1);
}

void ZdsDocumentsTabTest::toolbarEditsUndo() {
    Fixture f(corpus("valid/jsonl_index_absent"));
    QVERIFY(f.tab);
    f.tab->setCurrentCollection(collection(f.tab, "test"));
    auto* m = f.tab->currentModel();
    QVERIFY(!m->usesIndex());
    const int n = m->documentCount();
    QUndoStack* stack = f.view->document()->undoStack();
    f.tab->showDocument(0);
    QCOMPARE(f.tab->addDocument(R"({"_id":"fresh","v":1})"), QString());
    QCOMPARE(m->id(1), std::string("fresh"));
    QCOMPARE(f.tab->duplicateSelected(), QString());
    QCOMPARE(m->id(2), std::string("fresh_copy"));
    QCOMPARE(f.tab->renameCurrent("fresh2"), QString());
    QVERIFY(!f.tab->renameCurrent("t00").isEmpty());
    f.tab->table()->selectAll();
    QCOMPARE(f.tab->setFieldOnSelection("tag", "\"x\""), QString());
    QVERIFY(m->text(n).find("\"tag\":\"x\"") != std::string::npos);
    f.tab->showDocument(0);
    QCOMPARE(f.tab->deleteSelected(), QString());
    QCOMPARE(m->documentCount(), n + 1);
    QCOMPARE(stack->count(), 5);
    while (stack->canUndo()) {
        stack->undo();
    }
    QCOMPARE(m->documentCount(), n);
    QVERIFY(!m->isEdited());
}

void ZdsDocumentsTabTest::searchResultLeadsToRow() {
    Fixture f(corpus("valid/jsonl_two_collections"));
    QVERIFY(f.tab);
    f.tab->setCurrentCollection(collection(f.tab, "test"));
    QCOMPARE(f.tab->runSearch(1, 2, "/i", "6"), QString());  // field /i > 6
    QTRY_VERIFY(f.tab->searchResults()->rowCount() > 0 && f.runner.activeJob() == nullptr);
    const int hits = f.tab->searchResults()->rowCount();
    QCOMPARE(hits, f.tab->currentModel()->documentCount() - 7);
    emit f.tab->searchResultsView()->clicked(f.tab->searchResults()->index(0, 1));
    QCOMPARE(f.tab->currentStored(), 7);
    QCOMPARE(f.tab->documentEditor()->text().contains("\"t07\""), true);
    QVERIFY(!f.tab->runSearch(0, 4, {}, "([").isEmpty());  // a bad regex is refused
}

void ZdsDocumentsTabTest::archiveOpensToo() {
    Fixture f(corpus("valid/jsonl_two_collections.zds"));
    QVERIFY(f.tab);
    QVERIFY(!f.tab->editor()->savesToFolder());
    f.tab->setCurrentCollection(collection(f.tab, "train"));
    f.tab->showDocument(0);
    const Region line = f.tab->currentLineRegion();
    QVERIFY(line.valid());
    QCOMPARE(f.view->hexView()->selectionStart(), line.offset);
}

void ZdsDocumentsTabTest::sharesTheOpenedDataset() {
    Fixture f(corpus("valid/jsonl_two_collections"));
    QVERIFY(f.tab);
    const auto opened = zds::openedDataset(*f.view->document()->opened());
    QVERIFY(opened != nullptr);
    QVERIFY(f.tab->editor()->dataset().get() == opened.get());
    // A row's line is a region of one of the document's own sources.
    f.tab->showDocument(0);
    const Region line = f.tab->currentModel()->documentRegion(0);
    bool own = false;
    for (const ByteSourcePtr& source : f.view->document()->opened()->sources) {
        own = own || source.get() == line.source;
    }
    QVERIFY(own);
}

namespace {

// Moves the hex cursor as the user does, in the file of `region`, to `offset`.
void moveHexCursor(DocumentView& view, const Region& region, quint64 offset) {
    view.selectRegion(region);  // shows the file
    view.hexView()->goToOffset(offset);
}

}  // namespace

void ZdsDocumentsTabTest::hexMoveSelectsRow() {
    Fixture f(corpus("valid/jsonl_two_collections"));
    QVERIFY(f.tab);
    const int test = collection(f.tab, "test");
    const int train = collection(f.tab, "train");
    model::ZdsTableModel* m = f.tab->editor()->table(test);
    QVERIFY(m->usesIndex());
    const Region third = m->documentRegion(3);
    const Region fifth = m->documentRegion(5);
    QVERIFY(third.valid() && fifth.valid());
    f.tab->setCurrentCollection(train);
    moveHexCursor(*f.view, third, fifth.offset + 4);
    QCOMPARE(f.tab->currentCollection(), test);
    QCOMPARE(f.tab->currentStored(), 5);
    QVERIFY(f.tab->documentEditor()->text().contains("\"t05\""));
    // The hex view keeps the user's cursor (it is not moved back to the line start).
    QCOMPARE(f.view->hexView()->cursorOffset(), fifth.offset + 4);
    // Inside the same line nothing changes; on the next line the row follows.
    f.view->hexView()->goToOffset(fifth.offset + fifth.length - 1);
    QCOMPARE(f.tab->currentStored(), 5);
    f.view->hexView()->goToOffset(fifth.offset + fifth.length);
    QCOMPARE(f.tab->currentStored(), 6);
}

void ZdsDocumentsTabTest::hexMoveSelectsRowWithoutIndex() {
    Fixture f(corpus("valid/jsonl_index_absent"));
    QVERIFY(f.tab);
    f.tab->setCurrentCollection(collection(f.tab, "test"));
    model::ZdsTableModel* m = f.tab->currentModel();
    QVERIFY(!m->usesIndex());
    const int last = m->documentCount() - 1;
    const Region first = m->documentRegion(0);
    const Region end = m->documentRegion(last);
    moveHexCursor(*f.view, first, end.offset + 1);
    QCOMPARE(f.tab->currentStored(), last);
    QVERIFY(f.tab->documentEditor()->text().contains(QString::fromStdString(m->id(last))));
}

void ZdsDocumentsTabTest::indexEntrySelectsRow() {
    Fixture f(corpus("valid/jsonl_two_collections"));
    QVERIFY(f.tab);
    f.tab->setCurrentCollection(collection(f.tab, "test"));
    model::ZdsTableModel* m = f.tab->currentModel();
    const Region entry2 = m->indexEntryRegion(2);
    const Region entry7 = m->indexEntryRegion(7);
    QVERIFY(entry2.valid() && entry7.valid());
    QVERIFY(entry2.source->name().find("index.bin") != std::string::npos);
    f.view->selectRegion(entry2);  // as a click on the entry in the tree
    QCOMPARE(f.tab->currentStored(), 2);
    f.view->hexView()->goToOffset(entry7.offset + 3);
    QCOMPARE(f.tab->currentStored(), 7);
    QVERIFY(f.tab->documentEditor()->text().contains("\"t07\""));
    // The header selects nothing.
    f.view->hexView()->goToOffset(1);
    QCOMPARE(f.tab->currentStored(), 7);
}

namespace {

// Copies a corpus dataset into `dir`.
QString copyDataset(const QTemporaryDir& dir, const char* rel) {
    const std::filesystem::path from = strata::test::corpusRoot() / "zds" / rel;
    const std::filesystem::path to =
        std::filesystem::path(dir.path().toStdString()) / std::filesystem::path(rel).filename();
    std::filesystem::copy(from, to, std::filesystem::copy_options::recursive);
    return QString::fromStdString(to.string());
}

QAction* jobAction(ZdsDocumentsTab* tab, model::ZdsDatasetJob kind) {
    for (QToolButton* button : tab->toolBar()->findChildren<QToolButton*>()) {
        if (button->menu() == nullptr) {
            continue;
        }
        for (QAction* action : button->menu()->actions()) {
            if (action->data().isValid() && action->data().toInt() == static_cast<int>(kind)) {
                return action;
            }
        }
    }
    return nullptr;
}

// Triggers a job of the Dataset menu and waits for it; returns its final state.
model::Job::State runJob(Fixture& f, model::ZdsDatasetJob kind) {
    QAction* action = jobAction(f.tab, kind);
    if (action == nullptr) {
        return model::Job::State::Failed;
    }
    QSignalSpy started(&f.runner, &model::JobRunner::jobAdded);
    action->trigger();
    if (started.count() == 0) {
        return model::Job::State::Failed;
    }
    auto* job = started.front().front().value<model::Job*>();
    QPointer<model::Job> watched(job);
    if (!QTest::qWaitFor([&] { return !watched || !watched->isRunning(); }, 60000)) {
        return model::Job::State::Running;
    }
    return watched ? watched->state() : model::Job::State::Failed;
}

std::size_t validationErrors(const std::filesystem::path& path) {
    CollectingSink sink;
    zds::makeZdsValidator(path)->run(sink, ValidationOptions{});
    return sink.countOf(Severity::Error);
}

}  // namespace

void ZdsDocumentsTabTest::datasetJobsFromTheMenu() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString folder = copyDataset(dir, "valid/jsonl_index_absent");
    const std::filesystem::path root = folder.toStdString();
    const QString packed = dir.filePath(QStringLiteral("packed.zds"));
    const QString deflated = dir.filePath(QStringLiteral("deflated.zds"));
    const QString unpacked = dir.filePath(QStringLiteral("unpacked"));
    QString packTarget = packed;
    setZdsJobTargetPicker([&](model::ZdsDatasetJob kind, const QString&) {
        return kind == model::ZdsDatasetJob::Pack ? packTarget : unpacked;
    });
    {
        Fixture f(folder);
        QVERIFY(f.tab);
        QVERIFY(jobAction(f.tab, model::ZdsDatasetJob::Unpack) == nullptr);  // a folder
        const std::filesystem::path meta = root / "collections/test/meta";
        QVERIFY(!std::filesystem::exists(meta / "index.bin"));
        QSignalSpy reload(f.view.get(), &DocumentView::reloadRequested);

        QCOMPARE(runJob(f, model::ZdsDatasetJob::Reindex), model::Job::State::Finished);
        QVERIFY(std::filesystem::exists(meta / "index.bin"));
        QCOMPARE(reload.count(), 1);
        auto ds = zds::ZdsDataset::open(root);
        QVERIFY(ds->collections.at(0)->usesIndex());

        QCOMPARE(runJob(f, model::ZdsDatasetJob::Compact), model::Job::State::Finished);
        ds = zds::ZdsDataset::open(root);
        const std::uint64_t live = ds->collections.at(0)->documentCount();
        QVERIFY(live > 0);
        QCOMPARE(validationErrors(root), std::size_t{0});

        QCOMPARE(runJob(f, model::ZdsDatasetJob::ToDocs), model::Job::State::Finished);
        QVERIFY(std::filesystem::is_directory(root / "collections/test/docs"));
        QVERIFY(!std::filesystem::exists(meta / "data.jsonl"));
        QCOMPARE(zds::ZdsDataset::open(root)->collections.at(0)->documentCount(), live);

        QCOMPARE(runJob(f, model::ZdsDatasetJob::ToJsonl), model::Job::State::Finished);
        QVERIFY(std::filesystem::exists(meta / "data.jsonl"));
        QVERIFY(!std::filesystem::exists(root / "collections/test/docs"));
        QCOMPARE(validationErrors(root), std::size_t{0});

        QCOMPARE(runJob(f, model::ZdsDatasetJob::Pack), model::Job::State::Finished);
        QVERIFY(QFileInfo(packed).isFile());
        QCOMPARE(validationErrors(packed.toStdString()), std::size_t{0});
        QCOMPARE(reload.count(), 4);  // pack writes elsewhere: no reload

        // With "DEFLATE archive members" checked, pack compresses (and the validator warns).
        auto* deflate = f.tab->toolBar()->findChild<QAction*>(QStringLiteral("zdsDeflate"));
        QVERIFY(deflate != nullptr);
        deflate->setChecked(true);
        QVERIFY(f.tab->editor()->deflateOnSave());
        packTarget = deflated;
        QCOMPARE(runJob(f, model::ZdsDatasetJob::Pack), model::Job::State::Finished);
        CollectingSink sink;
        zds::makeZdsValidator(deflated.toStdString())->run(sink, ValidationOptions{});
        bool warned = false;
        for (const Diagnostic& d : sink.diagnostics()) {
            warned = warned || d.code == "ZDS-ZIP-DEFLATED";
        }
        QVERIFY(warned);
        QCOMPARE(sink.countOf(Severity::Error), std::size_t{0});
    }
    {
        Fixture f(packed);
        QVERIFY(f.tab);
        QVERIFY(jobAction(f.tab, model::ZdsDatasetJob::Pack) == nullptr);  // an archive
        QCOMPARE(runJob(f, model::ZdsDatasetJob::Unpack), model::Job::State::Finished);
        QVERIFY(QFileInfo(unpacked).isDir());
        const auto ds = zds::ZdsDataset::open(unpacked.toStdString());
        QCOMPARE(ds->collections.at(0)->documentCount(),
                 zds::ZdsDataset::open(root)->collections.at(0)->documentCount());
        // A second unpack into the now full folder fails and says why.
        QCOMPARE(runJob(f, model::ZdsDatasetJob::Unpack), model::Job::State::Failed);
    }
    setZdsJobTargetPicker({});
}

// Under a sort, the highlighted row, the editor and Delete are all about one document, and the
// table stays sorted after the edit and its undo.
void ZdsDocumentsTabTest::sortedTableActsOnTheShownDocument() {
    Fixture f(corpus("valid/jsonl_two_collections"));
    QVERIFY(f.tab);
    f.tab->setCurrentCollection(collection(f.tab, "test"));
    model::ZdsTableModel* m = f.tab->currentModel();
    const int n = m->documentCount();
    const int column = static_cast<int>(m->columnPointers().indexOf(QStringLiteral("i"))) + 1;
    QVERIFY(column > 0);
    f.tab->showDocument(3);
    f.tab->table()->sortByColumn(column, Qt::DescendingOrder);
    QTRY_VERIFY(m->isSorted() && f.runner.activeJob() == nullptr);
    const auto descending = [&] {
        const std::vector<int> values = columnValues(f.tab->table(), column);
        return std::is_sorted(values.rbegin(), values.rend());
    };
    QVERIFY(descending());
    QCOMPARE(highlightedIds(f.tab), QStringList{QStringLiteral("t03")});
    QCOMPARE(m->id(f.tab->currentStored()), std::string("t03"));
    QCOMPARE(editorId(f.tab), QStringLiteral("t03"));

    const int row = f.tab->table()->currentIndex().row();
    QCOMPARE(f.tab->deleteSelected(), QString());
    QVERIFY(!m->idInUse("t03"));
    QCOMPARE(m->documentCount(), n - 1);
    QVERIFY(m->isSorted());
    QVERIFY(descending());
    // The row that took its place is highlighted and shown.
    QCOMPARE(f.tab->table()->currentIndex().row(), row);
    QCOMPARE(highlightedIds(f.tab), QStringList{editorId(f.tab)});
    QCOMPARE(QString::fromStdString(m->id(f.tab->currentStored())), editorId(f.tab));

    f.view->document()->undoStack()->undo();
    QVERIFY(m->idInUse("t03"));
    QVERIFY(descending());
    QCOMPARE(highlightedIds(f.tab), QStringList{editorId(f.tab)});
}

// Undo and redo of an edit or a rename of the shown document show it as it is now.
void ZdsDocumentsTabTest::undoAndRedoShowTheShownDocumentAsItIsNow() {
    Fixture f(corpus("valid/jsonl_two_collections"));
    QVERIFY(f.tab);
    f.tab->setCurrentCollection(collection(f.tab, "test"));
    model::ZdsTableModel* m = f.tab->currentModel();
    QUndoStack* stack = f.view->document()->undoStack();
    f.tab->showDocument(3);
    const std::string original = m->text(3);
    QCOMPARE(f.tab->applyEditorText(R"({"_id":"t03","i":30})"), QString());
    QCOMPARE(f.tab->renameCurrent(QStringLiteral("renamed")), QString());
    QCOMPARE(editorId(f.tab), QStringLiteral("renamed"));
    stack->undo();
    QCOMPARE(editorId(f.tab), QStringLiteral("t03"));
    QVERIFY(f.tab->documentEditor()->title().endsWith(QStringLiteral("t03")));
    stack->undo();
    QCOMPARE(QJsonDocument::fromJson(f.tab->documentEditor()->text().toUtf8()),
             QJsonDocument::fromJson(QByteArray::fromStdString(original)));
    stack->redo();
    stack->redo();
    QCOMPARE(editorId(f.tab), QStringLiteral("renamed"));
    QCOMPARE(highlightedIds(f.tab), QStringList{QStringLiteral("renamed")});
    QVERIFY(!f.tab->draft()->isPending());
}

QTEST_MAIN(ZdsDocumentsTabTest)
#include "zds_documents_tab_test.moc"
