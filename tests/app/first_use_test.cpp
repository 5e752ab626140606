// What a new user meets first: each format opens on its most useful tab (Hex one click away),
// a click on another tab is remembered for that kind of document, double-clicking an OZDF
// corpus row opens the document in the editor, and the numeric data inspector hides where it
// has nothing to say (folders, whole documents, text).
#include <QApplication>
#include <QFile>
#include <QLocale>
#include <QPlainTextEdit>
#include <QSet>
#include <QSettings>
#include <QStandardPaths>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

#include <filesystem>

#include "app/gui/main_window.h"
#include "app/ozdf/ozdf_corpus_view.h"
#include "app/ozdf/ozdf_document_editor.h"
#include "app/widgets/data_inspector.h"
#include "app/widgets/diagnostics_panel.h"
#include "app/widgets/document_view.h"
#include "app/widgets/hex_view.h"
#include "app/zds/zds_document_editor.h"
#include "app/zds/zds_documents_tab.h"
#include "model/core/diagnostics_model.h"
#include "model/core/document.h"
#include "model/core/structure_model.h"
#include "model/ozdf/ozdf_editor.h"
#include "model/zds/zds_editor.h"
#include "model/zds/zds_table_model.h"
#include "test_corpus.h"

using namespace strata;
using namespace strata::gui;
namespace fs = std::filesystem;

namespace {

const fs::path kCorpus = strata::test::corpusRoot();

QString corpus(const char* relative) {
    return QString::fromStdString((kCorpus / relative).string());
}

QString currentTabText(DocumentView* view) {
    return view->centreTabs()->tabText(view->centreTabs()->currentIndex());
}

}  // namespace

class FirstUseTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        if (!fs::exists(kCorpus / "ozdf")) {
            QSKIP("the conformance corpus is not there (set STRATA_CORPUS_DIR)");
        }
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("StrataTest"));
        QCoreApplication::setApplicationName(QStringLiteral("first_use_test"));
    }

    void init() { QSettings().clear(); }

    void eachFormatOpensOnItsMostUsefulTab_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("tab");
        QTest::newRow("OZDF corpus") << corpus("ozdf/valid/handwritten/corpora/mixed") << "Corpus";
        QTest::newRow("OZDF document")
            << corpus("ozdf/valid/handwritten/corpora/mixed/a_doc.ozdf") << "OZDF Editor";
        QTest::newRow("ZDS dataset") << corpus("zds/valid/jsonl_two_collections") << "Documents";
        QTest::newRow("ZDS archive")
            << corpus("zds/valid/jsonl_two_collections.zds") << "Documents";
        QTest::newRow("Shardlake root") << corpus("shardlake/root") << "Storage root";
        QTest::newRow("zTensor") << corpus("ztensor/valid/dense_raw.zt") << "Tensors";
        QTest::newRow("ZS") << corpus("zs/valid/codec-deflate-z1.zs") << "Records";
    }

    void eachFormatOpensOnItsMostUsefulTab() {
        QFETCH(QString, path);
        QFETCH(QString, tab);
        if (!QFileInfo::exists(path)) {
            QSKIP("not in this corpus");
        }
        MainWindow window;
        window.setInteractive(false);
        window.setAutoValidate(false);
        QVERIFY2(window.openPath(path), qPrintable(window.lastError()));
        DocumentView* view = window.currentView();
        QCOMPARE(currentTabText(view), tab);
        QCOMPARE(view->centreTabs()->tabText(0), QStringLiteral("Hex"));
        QVERIFY(window.waitUntilIdle(30000));
    }

    void aClickedTabIsRememberedPerKindOfDocument() {
        const QString folder = corpus("ozdf/valid/handwritten/corpora/mixed");
        MainWindow window;
        window.setInteractive(false);
        window.setAutoValidate(false);
        window.resize(1200, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openPath(folder));
        DocumentView* view = window.currentView();
        QTabBar* bar = view->centreTabs()->tabBar();
        QTest::mouseClick(bar, Qt::LeftButton, {}, bar->tabRect(0).center());
        QCOMPARE(currentTabText(view), QStringLiteral("Hex"));
        QVERIFY(window.closeTab(0));
        // The next corpus opens on Hex; a document on its own keeps its own default.
        QVERIFY(window.openPath(folder));
        QCOMPARE(currentTabText(window.currentView()), QStringLiteral("Hex"));
        QVERIFY(window.openPath(corpus("ozdf/valid/handwritten/corpora/mixed/b_doc.ozdf")));
        QCOMPARE(currentTabText(window.currentView()), QStringLiteral("OZDF Editor"));
        // Programmatic switches (a restored view, a double-click) are not a choice.
        window.currentView()->centreTabs()->setCurrentIndex(0);
        QVERIFY(window.closeTab(window.tabs()->currentIndex()));
        QVERIFY(window.openPath(corpus("ozdf/valid/handwritten/corpora/mixed/b_doc.ozdf")));
        QCOMPARE(currentTabText(window.currentView()), QStringLiteral("OZDF Editor"));
        QVERIFY(window.waitUntilIdle(30000));
    }

    void doubleClickingACorpusRowOpensTheDocument() {
        MainWindow window;
        window.setInteractive(false);
        window.setAutoValidate(false);
        window.resize(1200, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openPath(corpus("ozdf/valid/handwritten/corpora/mixed")));
        DocumentView* view = window.currentView();
        auto* table = view->findChild<OzdfCorpusView*>()->table();
        auto* editor = view->findChild<OzdfDocumentEditor*>();
        const QModelIndex row = table->model()->index(1, 0);
        const QPoint at = table->visualRect(row).center();
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, at);
        QCOMPARE(view->centreTabs()->currentWidget(), view->findChild<OzdfCorpusView*>());
        QTest::mouseDClick(table->viewport(), Qt::LeftButton, {}, at);
        QCOMPARE(view->centreTabs()->currentWidget(), editor);
        auto* format = qobject_cast<model::OzdfEditor*>(view->document()->editor());
        const QString name = row.data().toString();
        QCOMPARE(
            QString::fromStdString(format->session().document(editor->documentIndex()).filename),
            name);
        QVERIFY(editor->tree()->model()->rowCount() > 0);
    }

    void theInspectorHidesWhereItHasNothingToSay() {
        MainWindow window;
        window.setInteractive(false);
        window.setAutoValidate(false);
        window.resize(1200, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        // A folder format and a text format: hidden.
        QVERIFY(window.openPath(corpus("ozdf/valid/handwritten/corpora/mixed")));
        QVERIFY(window.currentView()->dataInspector()->isHidden());
        QVERIFY(window.openPath(corpus("zds/valid/jsonl_two_collections")));
        QVERIFY(window.currentView()->dataInspector()->isHidden());
        // A binary format: hidden on the whole file, shown inside it.
        QVERIFY(window.openPath(corpus("zs/valid/codec-deflate-z1.zs")));
        DocumentView* zs = window.currentView();
        QVERIFY(zs->dataInspector()->isHidden());
        const Node* header = nullptr;
        for (std::uint64_t i = 0; i < zs->document()->root()->childCount(); ++i) {
            if (zs->document()->root()->child(i)->kind() == "zs.header") {
                header = zs->document()->root()->child(i);
            }
        }
        QVERIFY(header);
        zs->selectNode(header);
        QVERIFY(!zs->dataInspector()->isHidden());
        // Raw bytes: always there.
        QTemporaryDir dir;
        QFile raw(dir.filePath(QStringLiteral("raw.bin")));
        QVERIFY(raw.open(QIODevice::WriteOnly));
        raw.write(QByteArray(64, '\x01'));
        raw.close();
        QVERIFY(window.openPath(raw.fileName()));
        QVERIFY(!window.currentView()->dataInspector()->isHidden());
        QVERIFY(window.waitUntilIdle(30000));
    }

    // Friction found by driving the app: a diagnostic clicked while a format tab shows goes to
    // the bytes at fault on the Hex tab.
    void aDiagnosticShowsItsBytesOnTheHexTab() {
        MainWindow window;
        window.setInteractive(false);
        window.resize(1200, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openPath(corpus("zs/corrupt/data-payload-bitflip.zs")));
        QVERIFY(window.waitUntilIdle(30000));
        DocumentView* view = window.currentView();
        QCOMPARE(currentTabText(view), QStringLiteral("Records"));
        model::DiagnosticsModel* diagnostics = view->document()->diagnostics();
        QVERIFY(diagnostics->size() > 0);
        auto* table = window.diagnosticsPanel()->findChild<QTableView*>();
        QVERIFY(table);
        const QModelIndex first = table->model()->index(0, 0);
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(first).center());
        QCOMPARE(currentTabText(view), QStringLiteral("Hex"));
        const quint64 offset = first.data(model::DiagnosticsModel::OffsetRole).toULongLong();
        QCOMPARE(view->hexView()->selectionStart(), offset);
    }

    // Files of a folder document are named by their place in it, the full path as tooltip.
    void diagnosticFilesAreShownInsideTheDocument() {
        MainWindow window;
        window.setInteractive(false);
        QVERIFY(window.openPath(corpus("zds/corrupt/jsonl_duplicate_id")));
        QVERIFY(window.waitUntilIdle(30000));
        model::DiagnosticsModel* diagnostics = window.currentView()->document()->diagnostics();
        bool sawDataFile = false;
        for (int row = 0; row < diagnostics->size(); ++row) {
            const QModelIndex file = diagnostics->index(row, model::DiagnosticsModel::FileColumn);
            const QString shown = file.data().toString();
            if (shown.endsWith(QStringLiteral("data.jsonl"))) {
                sawDataFile = true;
                QVERIFY2(shown.startsWith(QStringLiteral("collections/")), qPrintable(shown));
                QVERIFY(
                    file.data(Qt::ToolTipRole).toString().endsWith(QStringLiteral("/") + shown));
            }
        }
        QVERIFY(sawDataFile);
    }

    // The corpus table and the structure tree follow each other.
    void corpusRowsAndTheTreeFollowEachOther() {
        MainWindow window;
        window.setInteractive(false);
        window.setAutoValidate(false);
        QVERIFY(window.openPath(corpus("ozdf/valid/handwritten/corpora/mixed")));
        DocumentView* view = window.currentView();
        auto* corpusView = view->findChild<OzdfCorpusView*>();
        auto* format = qobject_cast<model::OzdfEditor*>(view->document()->editor());
        corpusView->selectDocument(format->session().indexOf("b_doc.ozdf"));
        QVERIFY(view->currentNode());
        QCOMPARE(view->currentNode()->label(), std::string("b_doc.ozdf"));
        const Node* cDir = nullptr;
        for (std::uint64_t i = 0; i < view->document()->root()->childCount(); ++i) {
            if (view->document()->root()->child(i)->label() == "c_dir") {
                cDir = view->document()->root()->child(i);
            }
        }
        QVERIFY(cDir);
        view->selectNode(cDir);
        const QModelIndex row =
            corpusView->proxy()->mapToSource(corpusView->table()->currentIndex());
        QCOMPARE(row.row(), format->session().indexOf("c_dir"));
    }

    // The root's properties list each name once: a fact its fields show is not repeated.
    void rootPropertiesAreNotRepeated() {
        const QString path = corpus("ztensor/valid/dense_zstd.zt");
        MainWindow window;
        window.setInteractive(false);
        window.setAutoValidate(false);
        QVERIFY(window.openPath(path));
        QTableWidget* properties = window.currentView()->propertiesTable();
        QSet<QString> names;
        for (int row = 0; row < properties->rowCount(); ++row) {
            const QString name = properties->item(row, 0)->text().toLower();
            QVERIFY2(!names.contains(name), qPrintable(name));
            names.insert(name);
        }
        QVERIFY(names.contains(QStringLiteral("layout")));
        QVERIFY(names.contains(QStringLiteral("generator")));
    }

    // A document opens in the editor on its first paragraph, ready to type; a ZDS collection
    // shows its first document.
    void editorsStartOnTheFirstText() {
        MainWindow window;
        window.setInteractive(false);
        window.setAutoValidate(false);
        QVERIFY(window.openPath(corpus("ozdf/valid/handwritten/corpora/mixed/a_doc.ozdf")));
        auto* editor = window.currentView()->findChild<OzdfDocumentEditor*>();
        QVERIFY(editor->textEdit()->isEnabled());
        QVERIFY(!editor->textEdit()->toPlainText().isEmpty());
        // Counts read as English: "1 paragraph", not "1 paragraphs".
        const QString block = editor->tree()->model()->index(0, 0).data().toString();
        QVERIFY2(block.endsWith(QStringLiteral("(1 paragraph)")), qPrintable(block));
        QVERIFY(window.openPath(corpus("zds/valid/jsonl_two_collections")));
        auto* tab = window.currentView()->findChild<ZdsDocumentsTab*>();
        QTRY_VERIFY_WITH_TIMEOUT(tab->editor()->loaded(), 30000);
        QCOMPARE(tab->currentStored(), 0);
        QVERIFY(tab->documentEditor()->text().contains(QStringLiteral("_id")));
        QVERIFY(window.waitUntilIdle(30000));
    }

    // Listed in batches, a big collection shows its first document at once, and the title's
    // count follows the listing to the end.
    void theDocumentCountFollowsTheListing() {
        const QString path = corpus("zds/valid/jsonl_100k");
        if (!QFileInfo::exists(path)) {
            QSKIP("not in this corpus");
        }
        MainWindow window;
        window.setInteractive(false);
        window.setAutoValidate(false);
        QVERIFY(window.openPath(path));
        auto* tab = window.currentView()->findChild<ZdsDocumentsTab*>();
        QTRY_VERIFY_WITH_TIMEOUT(tab->editor()->loaded(), 60000);
        QCOMPARE(tab->currentStored(), 0);
        const QString count = QLocale().toString(tab->currentModel()->documentCount());
        QVERIFY2(tab->documentEditor()->title().contains(QStringLiteral(" of ") + count + ":"),
                 qPrintable(tab->documentEditor()->title()));
        QVERIFY(window.waitUntilIdle(60000));
    }
};

QTEST_MAIN(FirstUseTest)
#include "first_use_test.moc"
