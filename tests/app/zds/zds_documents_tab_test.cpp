// The ZDS Documents tab: rows linked to the hex view, the JSON editor's inline errors and apply,
// toolbar edits through the undo stack, search results leading to rows.
#include <QApplication>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QUndoStack>

#include <filesystem>

#include "app/gui/document_view.h"
#include "app/zds/zds_document_editor.h"
#include "app/zds/zds_documents_tab.h"
#include "model/core/byte_overlay.h"
#include "model/core/document.h"
#include "model/core/job_runner.h"
#include "model/zds/zds_editor.h"
#include "model/zds/zds_json_highlighter.h"
#include "model/zds/zds_search_results.h"
#include "model/zds/zds_table_model.h"

using namespace strata;
using namespace strata::gui;

namespace {

QString corpus(const char* rel) {
    return QString::fromStdString(
        (std::filesystem::path(STRATA_CORPUS_DIR) / "zds" / rel).string());
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
        view = std::make_unique<DocumentView>(std::move(document), &runner);
        view->resize(1200, 800);
        tab = view->findChild<ZdsDocumentsTab*>(QStringLiteral("zdsDocumentsTab"));
        if (tab != nullptr) {
            QTRY_VERIFY_WITH_TIMEOUT(tab->editor()->loaded(), 20000);
        }
    }
};

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
    void installsTabAndEditor();
    void rowSelectsLineAndIndexEntry();
    void editorShowsErrorsAndApplies();
    void toolbarEditsUndo();
    void searchResultLeadsToRow();
    void archiveOpensToo();
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

QTEST_MAIN(ZdsDocumentsTabTest)
#include "zds_documents_tab_test.moc"
