// A document opened again after a save or an external change looks as it did: the same centre
// tab, hex cursor, selection and scroll, ZDS collection, row and table scroll, OZDF document,
// sort and paragraph.
#include <QApplication>
#include <QFile>
#include <QHeaderView>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QScrollBar>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

#include <filesystem>
#include <fstream>

#include "app/gui/main_window.h"
#include "app/ozdf/ozdf_corpus_view.h"
#include "app/ozdf/ozdf_document_editor.h"
#include "app/ozdf/ozdf_reload_banner.h"
#include "app/widgets/document_view.h"
#include "app/widgets/hex_view.h"
#include "app/zds/zds_documents_tab.h"
#include "model/core/document.h"
#include "model/ozdf/ozdf_corpus_model.h"
#include "model/ozdf/ozdf_document_model.h"
#include "model/ozdf/ozdf_editor.h"
#include "model/zds/zds_editor.h"
#include "model/zds/zds_table_model.h"
#include "test_corpus.h"

using namespace strata;
using namespace strata::gui;
namespace fs = std::filesystem;

namespace {

const fs::path kCorpus = strata::test::corpusRoot();

DocumentView* reopened(MainWindow& window, QPointer<DocumentView> old) {
    QDeadlineTimer deadline(30000);
    while (!old.isNull() && !deadline.hasExpired()) {
        QTest::qWait(20);
    }
    window.waitUntilIdle(30000);
    return old.isNull() ? window.currentView() : nullptr;
}

QPushButton* buttonNamed(QWidget* parent, const QString& text) {
    for (auto* b : parent->findChildren<QPushButton*>()) {
        if (b->text() == text) {
            return b;
        }
    }
    return nullptr;
}

}  // namespace

class ViewStateTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("StrataTest"));
        QCoreApplication::setApplicationName(QStringLiteral("view_state_test"));
        QSettings().clear();
        QVERIFY(dir_.isValid());
    }

    void hexCursorAndScrollSurviveAReload() {
        const QString path = dir_.filePath(QStringLiteral("big.bin"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QByteArray(1 << 20, 'x'));
        file.close();
        MainWindow window;
        window.setInteractive(false);
        window.resize(1200, 800);
        window.show();
        QVERIFY(window.openPath(path));
        DocumentView* view = window.currentView();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        view->hexView()->setSelection(600000, 16);
        view->hexView()->scrollToRow(36000);
        const quint64 top = view->hexView()->topRow();
        QVERIFY(top > 0);
        QVERIFY(window.reloadView(view));
        DocumentView* after = window.currentView();
        QVERIFY(after != nullptr);
        QCOMPARE(after->hexView()->selectionStart(), quint64(600000));
        QCOMPARE(after->hexView()->selectionLength(), quint64(16));
        QTRY_COMPARE(after->hexView()->topRow(), top);
    }

    void zdsRowAndScrollSurviveAReload() {
        const fs::path dataset = kCorpus / "zds" / "valid" / "jsonl_100k";
        if (!fs::exists(dataset)) {
            QSKIP("the conformance corpus is not there (set STRATA_CORPUS_DIR)");
        }
        MainWindow window;
        window.setInteractive(false);
        window.resize(1200, 800);
        window.show();
        QVERIFY(window.openPath(QString::fromStdString(dataset.string())));
        QVERIFY(window.waitUntilIdle(60000));
        DocumentView* view = window.currentView();
        auto* tab = view->findChild<ZdsDocumentsTab*>(QStringLiteral("zdsDocumentsTab"));
        QVERIFY(tab && tab->editor()->loaded());
        view->centreTabs()->setCurrentWidget(tab);
        tab->showDocument(5000);
        QTest::qWait(50);
        tab->table()->verticalScrollBar()->setValue(4990);
        const int scroll = tab->table()->verticalScrollBar()->value();
        QVERIFY(scroll > 0);
        const QString id = QString::fromStdString(tab->currentModel()->id(5000));

        QVERIFY(window.reloadView(view));
        DocumentView* after = window.currentView();
        auto* again = after->findChild<ZdsDocumentsTab*>(QStringLiteral("zdsDocumentsTab"));
        QVERIFY(again);
        QTRY_VERIFY_WITH_TIMEOUT(again->editor()->loaded(), 60000);
        QCOMPARE(after->centreTabs()->currentWidget(), again);
        QTRY_COMPARE(again->currentStored(), 5000);
        QCOMPARE(QString::fromStdString(again->currentModel()->id(5000)), id);
        QVERIFY(again->documentEditor() != nullptr);
        QTRY_COMPARE(again->table()->verticalScrollBar()->value(), scroll);
        QVERIFY(window.waitUntilIdle(60000));
    }

    void ozdfCorpusSurvivesAnExternalChange() {
        const fs::path mixed = kCorpus / "ozdf" / "valid" / "handwritten" / "corpora" / "mixed";
        if (!fs::exists(mixed)) {
            QSKIP("the conformance corpus is not there (set STRATA_CORPUS_DIR)");
        }
        const fs::path folder = fs::path(dir_.path().toStdString()) / "mixed";
        fs::copy(mixed, folder, fs::copy_options::recursive);
        MainWindow window;
        window.setInteractive(false);
        window.show();
        QVERIFY(window.openPath(QString::fromStdString(folder.string())));
        QVERIFY(window.waitUntilIdle(30000));
        DocumentView* view = window.currentView();
        auto* corpus = view->findChild<OzdfCorpusView*>();
        QVERIFY(corpus);
        view->centreTabs()->setCurrentWidget(corpus);
        corpus->table()->sortByColumn(model::OzdfCorpusModel::Blocks, Qt::DescendingOrder);
        auto* format = qobject_cast<model::OzdfEditor*>(view->document()->editor());
        corpus->selectDocument(format->session().indexOf("b_doc.ozdf"));

        std::ofstream(folder / "added_elsewhere.ozdf") << "#### TITLE\nfrom outside\n";
        QTRY_VERIFY_WITH_TIMEOUT(!corpus->reloadBanner()->isHidden(), 10000);
        buttonNamed(corpus->reloadBanner(), QStringLiteral("Reload"))->click();
        DocumentView* after = reopened(window, view);
        QVERIFY(after);
        auto* again = after->findChild<OzdfCorpusView*>();
        QVERIFY(again);
        QCOMPARE(after->centreTabs()->currentWidget(), again);
        auto* newFormat = qobject_cast<model::OzdfEditor*>(after->document()->editor());
        QVERIFY(newFormat->session().indexOf("added_elsewhere.ozdf") >= 0);
        const QModelIndex current = again->proxy()->mapToSource(again->table()->currentIndex());
        QCOMPARE(current.row(), newFormat->session().indexOf("b_doc.ozdf"));
        QCOMPARE(again->table()->horizontalHeader()->sortIndicatorSection(),
                 int(model::OzdfCorpusModel::Blocks));
        QCOMPARE(again->table()->horizontalHeader()->sortIndicatorOrder(), Qt::DescendingOrder);
    }

    void ozdfEditorSurvivesAReload() {
        const fs::path mixed = kCorpus / "ozdf" / "valid" / "handwritten" / "corpora" / "mixed";
        if (!fs::exists(mixed)) {
            QSKIP("the conformance corpus is not there (set STRATA_CORPUS_DIR)");
        }
        MainWindow window;
        window.setInteractive(false);
        window.show();
        QVERIFY(window.openPath(QString::fromStdString(mixed.string())));
        QVERIFY(window.waitUntilIdle(30000));
        DocumentView* view = window.currentView();
        auto* editor = view->findChild<OzdfDocumentEditor*>();
        auto* corpus = view->findChild<OzdfCorpusView*>();
        auto* format = qobject_cast<model::OzdfEditor*>(view->document()->editor());
        const int document = format->session().indexOf("a_doc.ozdf");
        corpus->selectDocument(document);
        view->centreTabs()->setCurrentWidget(editor);
        const model::OzdfAddress paragraph{model::OzdfAddress::Kind::Paragraph, 0, std::nullopt, 0};
        editor->select(paragraph);
        const QString text = editor->textEdit()->toPlainText();
        QVERIFY(!text.isEmpty());

        QVERIFY(window.reloadView(view));
        DocumentView* after = window.currentView();
        auto* again = after->findChild<OzdfDocumentEditor*>();
        QCOMPARE(after->centreTabs()->currentWidget(), again);
        QCOMPARE(again->documentIndex(), document);
        const model::OzdfAddress shown =
            again->documentModel()->addressOf(again->tree()->currentIndex());
        QCOMPARE(int(shown.kind), int(model::OzdfAddress::Kind::Paragraph));
        QCOMPARE(shown.element, std::size_t(0));
        QCOMPARE(again->textEdit()->toPlainText(), text);
    }
};

QTEST_MAIN(ViewStateTest)
#include "view_state_test.moc"
