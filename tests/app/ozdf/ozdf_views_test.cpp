// The OZDF views in a DocumentView: the Corpus and OZDF Editor tabs install for a corpus, the
// table sorts and filters, picking a document shows it in the editor, the text editor's
// preview follows the text and Apply pushes one undo step, find and replace previews and
// applies, and an external change on disk shows the reload banner. With
// STRATA_OZDF_SCREENSHOT_DIR set, the tabs are also saved as PNG images (for docs/images).
#include <QApplication>
#include <QCheckBox>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTreeView>
#include <QUndoStack>
#include <filesystem>
#include <fstream>

#include "app/gui/builtin_format_views.h"
#include "app/gui/main_window.h"
#include "app/ozdf/ozdf_corpus_reading_view.h"
#include "app/ozdf/ozdf_corpus_view.h"
#include "app/ozdf/ozdf_document_editor.h"
#include "app/ozdf/ozdf_find_dialog.h"
#include "app/ozdf/ozdf_reload_banner.h"
#include "app/widgets/document_view.h"
#include "model/core/document.h"
#include "model/core/job_runner.h"
#include "model/ozdf/ozdf_commands.h"
#include "model/ozdf/ozdf_corpus_model.h"
#include "model/ozdf/ozdf_document_model.h"
#include "model/ozdf/ozdf_editor.h"
#include "test_corpus.h"

using namespace strata::gui;
namespace fs = std::filesystem;

namespace {

const fs::path kMixed =
    strata::test::corpusRoot() / "ozdf" / "valid" / "handwritten" / "corpora" / "mixed";

struct Opened {
    QTemporaryDir dir;
    fs::path folder;
    std::unique_ptr<strata::model::JobRunner> runner;
    std::unique_ptr<DocumentView> view;
};

std::unique_ptr<Opened> openCopy() {
    auto o = std::make_unique<Opened>();
    o->folder = fs::path(o->dir.path().toStdString()) / "mixed";
    fs::copy(kMixed, o->folder, fs::copy_options::recursive);
    o->runner = std::make_unique<strata::model::JobRunner>();
    QString error;
    auto document =
        strata::model::Document::open(QString::fromStdString(o->folder.string()), &error);
    if (!document) {
        qWarning() << error;
        return o;
    }
    o->view =
        std::make_unique<DocumentView>(std::move(document), o->runner.get(), builtinFormatViews());
    o->view->resize(1200, 800);
    o->view->show();
    return o;
}

QPushButton* findButton(QWidget* parent, const QString& text) {
    for (auto* button : parent->findChildren<QPushButton*>()) {
        if (button->text() == text) {
            return button;
        }
    }
    return nullptr;
}

// The file name of the document the editor shows, or "".
QString editorFile(OzdfDocumentEditor* editor, const strata::model::OzdfSession& session) {
    const int index = editor->documentIndex();
    return index < 0 ? QString() : QString::fromStdString(session.document(index).filename);
}

// The names of the highlighted rows of the corpus table, as drawn.
QStringList highlightedNames(OzdfCorpusView* corpus) {
    QStringList names;
    for (const QModelIndex& row : corpus->table()->selectionModel()->selectedRows()) {
        names << row.data().toString();
    }
    return names;
}

// Lowers the size from which corpora are read in the background, for one test.
class BackgroundFrom {
public:
    explicit BackgroundFrom(int documents) : before_(ozdfReadInBackgroundFrom) {
        ozdfReadInBackgroundFrom = documents;
    }
    ~BackgroundFrom() { ozdfReadInBackgroundFrom = before_; }
    BackgroundFrom(const BackgroundFrom&) = delete;
    BackgroundFrom& operator=(const BackgroundFrom&) = delete;

private:
    int before_;
};

// A corpus folder of `documents` standalone documents doc1000.ozdf, doc1001.ozdf, ...
fs::path writeCorpus(const QTemporaryDir& dir, int documents) {
    const fs::path folder = fs::path(dir.path().toStdString()) / "big";
    fs::create_directories(folder);
    for (int i = 0; i < documents; ++i) {
        std::ofstream(folder / ("doc" + std::to_string(1000 + i) + ".ozdf"))
            << "#### TITLE\ndocument " << i << "\n";
    }
    return folder;
}

void showTab(DocumentView& view, QWidget* page) {
    const int index = view.centreTabs()->indexOf(page);
    if (index >= 0) {
        view.centreTabs()->setCurrentIndex(index);
    }
}

}  // namespace

class OzdfViewsTest : public QObject {
    Q_OBJECT

private slots:
    void tabsInstallAndTheTableSortsAndFilters() {
        STRATA_QSKIP_WITHOUT_CORPUS();
        auto o = openCopy();
        QVERIFY(o->view);
        auto* corpus = o->view->findChild<OzdfCorpusView*>();
        auto* editor = o->view->findChild<OzdfDocumentEditor*>();
        QVERIFY(corpus);
        QVERIFY(editor);
        auto* formatEditor =
            qobject_cast<strata::model::OzdfEditor*>(o->view->document()->editor());
        QVERIFY(formatEditor);
        QVERIFY(formatEditor->savesToFolder());
        const int documents = formatEditor->session().documentCount();
        QCOMPARE(corpus->proxy()->rowCount(), documents);
        corpus->filterEdit()->setText(QStringLiteral("doc"));
        QVERIFY(corpus->proxy()->rowCount() < documents);
        QVERIFY(corpus->proxy()->rowCount() > 0);
        corpus->filterEdit()->clear();
        corpus->table()->sortByColumn(strata::model::OzdfCorpusModel::Blocks, Qt::DescendingOrder);
        const auto blocks = [&](int row) {
            return corpus->proxy()
                ->data(corpus->proxy()->index(row, strata::model::OzdfCorpusModel::Blocks),
                       strata::model::OzdfCorpusModel::kSortRole)
                .toLongLong();
        };
        QVERIFY(blocks(0) >= blocks(corpus->proxy()->rowCount() - 1));
        // Picking a row shows that document in the editor.
        corpus->table()->setCurrentIndex(corpus->proxy()->index(0, 0));
        QVERIFY(editor->documentIndex() >= 0);
        QVERIFY(editor->documentModel()->rowCount() >= 0);
    }

    void textEditorPreviewsAndApplies() {
        STRATA_QSKIP_WITHOUT_CORPUS();
        auto o = openCopy();
        QVERIFY(o->view);
        auto* formatEditor =
            qobject_cast<strata::model::OzdfEditor*>(o->view->document()->editor());
        auto* editor = o->view->findChild<OzdfDocumentEditor*>();
        const auto& session = formatEditor->session();
        const int doc = session.indexOf("a_doc.ozdf");
        QVERIFY(doc >= 0);
        editor->showDocument(doc);
        // The first paragraph of the first block.
        std::size_t element = 0;
        while (element < session.document(doc).elements.size() &&
               session.document(doc).elements[element].paragraphs.empty()) {
            ++element;
        }
        QVERIFY(element < session.document(doc).elements.size());
        const QModelIndex paragraph = editor->documentModel()->indexOf(
            {strata::model::OzdfAddress::Kind::Paragraph, element, std::nullopt, 0});
        QVERIFY(paragraph.isValid());
        editor->tree()->setCurrentIndex(paragraph);
        QVERIFY(!editor->textEdit()->toPlainText().isEmpty());
        editor->textEdit()->setPlainText(QStringLiteral("  New\ttext  \n\n second "));
        QCOMPARE(editor->preview()->toPlainText(), QStringLiteral("New text\n\nsecond"));
        editor->textEdit()->setPlainText(QStringLiteral("#### not allowed"));
        QVERIFY(editor->preview()->toPlainText().startsWith(QStringLiteral("Cannot be written")));
        editor->textEdit()->setPlainText(QStringLiteral("Edited  in the test"));
        QVERIFY(editor->applyText());
        QVERIFY(o->view->document()->isModified());
        QCOMPARE(session.document(doc).elements[element].paragraphs[0].text,
                 std::string("Edited in the test"));
        o->view->document()->undoStack()->undo();
        QVERIFY(!o->view->document()->isModified());
    }

    // In a sorted table whose rows above the current one come later in the corpus, Remove
    // removes the highlighted document, and afterwards (and after undo and redo) the highlighted
    // row is the document the editor shows.
    void sortedCorpusActsOnTheHighlightedDocument() {
        STRATA_QSKIP_WITHOUT_CORPUS();
        auto o = openCopy();
        QVERIFY(o->view);
        auto* corpus = o->view->findChild<OzdfCorpusView*>();
        auto* editor = o->view->findChild<OzdfDocumentEditor*>();
        auto* formatEditor =
            qobject_cast<strata::model::OzdfEditor*>(o->view->document()->editor());
        const auto& session = formatEditor->session();
        const int documents = session.documentCount();
        QSortFilterProxyModel* proxy = corpus->proxy();
        corpus->table()->sortByColumn(strata::model::OzdfCorpusModel::Name, Qt::DescendingOrder);
        const int last = proxy->rowCount() - 1;
        QVERIFY(proxy->mapToSource(proxy->index(last - 1, 0)).row() >
                proxy->mapToSource(proxy->index(last, 0)).row());
        corpus->table()->setCurrentIndex(proxy->index(last, 0));
        const QString removed = proxy->index(last, 0).data().toString();
        QCOMPARE(editorFile(editor, session), removed);
        QCOMPARE(highlightedNames(corpus), QStringList{removed});

        findButton(corpus, QStringLiteral("Remove"))->click();
        QTest::qWait(0);
        QCOMPARE(session.documentCount(), documents - 1);
        QCOMPARE(session.indexOf(removed.toStdString()), -1);
        QCOMPARE(highlightedNames(corpus), QStringList{editorFile(editor, session)});

        QUndoStack* stack = o->view->document()->undoStack();
        stack->undo();
        QTest::qWait(0);
        QCOMPARE(session.documentCount(), documents);
        QCOMPARE(highlightedNames(corpus), QStringList{editorFile(editor, session)});
        corpus->selectDocument(session.indexOf(removed.toStdString()));
        stack->redo();
        QTest::qWait(0);
        QCOMPARE(highlightedNames(corpus), QStringList{editorFile(editor, session)});

        // A rename shows in the editor's title and keeps the row on the document.
        QString error;
        QVERIFY2(strata::model::renameOzdfDocument(*stack, formatEditor->session(),
                                                   editor->documentIndex(),
                                                   QStringLiteral("zz_renamed.ozdf"), &error),
                 qPrintable(error));
        QTest::qWait(0);
        QCOMPARE(editorFile(editor, session), QStringLiteral("zz_renamed.ozdf"));
        QCOMPARE(editor->titleLabel()->text(), QStringLiteral("zz_renamed.ozdf"));
        QCOMPARE(highlightedNames(corpus), QStringList{editorFile(editor, session)});

        // A filter that hides the shown document leaves no other document highlighted.
        corpus->filterEdit()->setText(editorFile(editor, session));
        QTest::qWait(0);
        QCOMPARE(highlightedNames(corpus), QStringList{editorFile(editor, session)});
        const QString shown = editorFile(editor, session);
        editor->select({strata::model::OzdfAddress::Kind::Paragraph, 0, std::nullopt, 0});
        corpus->filterEdit()->setText(QStringLiteral("no document is called this"));
        QTest::qWait(0);
        QVERIFY(highlightedNames(corpus).isEmpty());
        corpus->filterEdit()->clear();
        QTest::qWait(0);
        const QStringList names = highlightedNames(corpus);
        QVERIFY(names.isEmpty() || names == QStringList{editorFile(editor, session)});
    }

    // Without a highlighted row the corpus buttons do nothing (no "no such document" box); a
    // row made current without being highlighted (as focus does) does not change the editor's
    // document; a restored view with no row highlighted then highlights none.
    void corpusActsOnlyOnTheHighlightedRow() {
        STRATA_QSKIP_WITHOUT_CORPUS();
        auto o = openCopy();
        QVERIFY(o->view);
        auto* corpus = o->view->findChild<OzdfCorpusView*>();
        auto* editor = o->view->findChild<OzdfDocumentEditor*>();
        auto* formatEditor =
            qobject_cast<strata::model::OzdfEditor*>(o->view->document()->editor());
        const auto& session = formatEditor->session();
        const int documents = session.documentCount();
        QStringList boxes;
        QTimer closer;
        connect(&closer, &QTimer::timeout, [&boxes] {
            for (QWidget* w : QApplication::topLevelWidgets()) {
                if (auto* box = qobject_cast<QMessageBox*>(w); box && box->isVisible()) {
                    boxes << box->text();
                    box->reject();
                }
            }
        });
        closer.start(5);

        corpus->selectDocument(session.indexOf("a_doc.ozdf"));
        QCOMPARE(editorFile(editor, session), QStringLiteral("a_doc.ozdf"));
        corpus->filterEdit()->setText(QStringLiteral("no document is called this"));
        QTest::qWait(0);
        QVERIFY(highlightedNames(corpus).isEmpty());
        findButton(corpus, QStringLiteral("Remove"))->click();
        findButton(corpus, QStringLiteral("Standalone ↔ Directory"))->click();
        QTest::qWait(20);
        QCOMPARE(boxes, QStringList{});
        QCOMPARE(session.documentCount(), documents);
        corpus->filterEdit()->clear();
        QTest::qWait(0);

        corpus->table()->selectionModel()->clearSelection();
        corpus->table()->selectionModel()->setCurrentIndex(corpus->proxy()->index(0, 0),
                                                           QItemSelectionModel::NoUpdate);
        QTest::qWait(0);
        QCOMPARE(editorFile(editor, session), QStringLiteral("a_doc.ozdf"));
        findButton(corpus, QStringLiteral("Remove"))->click();
        QTest::qWait(20);
        QCOMPARE(session.documentCount(), documents);

        const QVariant state = corpus->saveState();
        corpus->selectDocument(session.indexOf("b_doc.ozdf"));
        QCOMPARE(highlightedNames(corpus), QStringList{QStringLiteral("b_doc.ozdf")});
        corpus->restoreState(state);
        QTest::qWait(0);
        QVERIFY(highlightedNames(corpus).isEmpty());
        QCOMPARE(boxes, QStringList{});
    }

    void findAndReplacePreviewsAndApplies() {
        STRATA_QSKIP_WITHOUT_CORPUS();
        auto o = openCopy();
        QVERIFY(o->view);
        auto* formatEditor =
            qobject_cast<strata::model::OzdfEditor*>(o->view->document()->editor());
        OzdfFindDialog dialog(*o->view, *formatEditor);
        dialog.patternEdit()->setText(QStringLiteral("a"));
        dialog.replacementEdit()->setText(QStringLiteral("A"));
        dialog.startFind();
        QTRY_VERIFY(!dialog.searching());
        QTRY_VERIFY(dialog.resultCount() > 0);
        // The preview's check boxes decide what is applied: only the first is left checked.
        QAbstractItemModel* preview = dialog.results()->model();
        for (int r = 0; r < preview->rowCount(); ++r) {
            preview->setData(preview->index(r, 0), Qt::Unchecked, Qt::CheckStateRole);
        }
        QCOMPARE(preview->data(preview->index(0, 0), Qt::CheckStateRole).toInt(),
                 static_cast<int>(Qt::Unchecked));
        const int before = o->view->document()->undoStack()->count();
        preview->setData(preview->index(0, 0), Qt::Checked, Qt::CheckStateRole);
        QVERIFY(dialog.applySelected());
        // Only the one checked change: one document.
        QVERIFY(o->view->document()->undoStack()->text(before).contains(QStringLiteral("1 ")));
        QCOMPARE(o->view->document()->undoStack()->count(), before + 1);
    }

    void externalChangeOffersReload() {
        STRATA_QSKIP_WITHOUT_CORPUS();
        auto o = openCopy();
        QVERIFY(o->view);
        auto* corpus = o->view->findChild<OzdfCorpusView*>();
        QVERIFY(corpus->reloadBanner()->isHidden());
        std::ofstream(o->folder / "added_elsewhere.ozdf") << "#### TITLE\nfrom outside\n";
        QTRY_VERIFY_WITH_TIMEOUT(!corpus->reloadBanner()->isHidden(), 10000);
        // Reload asks the window to reopen the document.
        QSignalSpy reload(o->view.get(), &DocumentView::reloadRequested);
        auto* button = findButton(corpus->reloadBanner(), QStringLiteral("Reload"));
        QVERIFY(button);
        button->click();
        QCOMPARE(reload.count(), 1);
        QVERIFY(corpus->reloadBanner()->isHidden());
    }

    // A corpus at or above the background threshold: its names show at once from the listing,
    // the tree shows a chosen document, and the editing tabs take over once a job has read it,
    // on the document the user had chosen.
    void bigCorpusListsAtOnceAndOpensForEditingWhenRead() {
        const BackgroundFrom background(1);
        QTemporaryDir dir;
        constexpr int kDocuments = 300;
        const fs::path folder = writeCorpus(dir, kDocuments);
        strata::model::JobRunner runner;
        QString error;
        auto document =
            strata::model::Document::open(QString::fromStdString(folder.string()), &error);
        QVERIFY2(document, qPrintable(error));
        DocumentView view(std::move(document), &runner, builtinFormatViews());
        view.resize(1200, 800);
        view.show();

        auto* reading = view.findChild<OzdfCorpusReadingView*>();
        QVERIFY(reading);
        QCOMPARE(view.centreTabs()->currentWidget(), reading);
        QCOMPARE(reading->table()->model()->rowCount(), kDocuments);
        QCOMPARE(reading->table()->model()->index(7, 0).data().toString(),
                 QStringLiteral("doc1007.ozdf"));
        reading->table()->setCurrentIndex(reading->table()->model()->index(7, 0));
        QVERIFY(view.currentNode() != nullptr);
        QCOMPARE(QString::fromStdString(view.currentNode()->label()),
                 QStringLiteral("doc1007.ozdf"));

        QTRY_VERIFY_WITH_TIMEOUT(view.findChild<OzdfCorpusView*>() != nullptr, 30000);
        auto* corpus = view.findChild<OzdfCorpusView*>();
        auto* editor = qobject_cast<strata::model::OzdfEditor*>(view.document()->editor());
        QVERIFY(editor);
        QCOMPARE(editor->session().documentCount(), kDocuments);
        QCOMPARE(view.centreTabs()->currentWidget(), corpus);
        QCOMPARE(view.centreTabs()->indexOf(corpus) + 1,
                 view.centreTabs()->indexOf(view.findChild<OzdfDocumentEditor*>()));
        QCOMPARE(highlightedNames(corpus), QStringList{QStringLiteral("doc1007.ozdf")});
        QTRY_VERIFY(view.findChild<OzdfCorpusReadingView*>() == nullptr);
    }

    // Closing the tab while the corpus is read stops the read; nothing is left behind.
    void closingWhileReadingCancels() {
        const BackgroundFrom background(1);
        QTemporaryDir dir;
        const fs::path folder = writeCorpus(dir, 2000);
        strata::model::JobRunner runner;
        QString error;
        auto document =
            strata::model::Document::open(QString::fromStdString(folder.string()), &error);
        QVERIFY2(document, qPrintable(error));
        auto view =
            std::make_unique<DocumentView>(std::move(document), &runner, builtinFormatViews());
        QCOMPARE(runner.jobs().size(), 1);
        QPointer<strata::model::Job> job = runner.jobs().front();
        view.reset();
        QTRY_VERIFY(!job || !job->isRunning());
        if (job) {
            QVERIFY(job->state() == strata::model::Job::State::Cancelled ||
                    job->state() == strata::model::Job::State::Finished);
        }
    }

    void externalChangeOfASingleDocumentOffersReload() {
        QTemporaryDir dir;
        const fs::path file = fs::path(dir.path().toStdString()) / "alone.ozdf";
        std::ofstream(file) << "#### TITLE\nalone\n";
        strata::model::JobRunner runner;
        QString error;
        auto document =
            strata::model::Document::open(QString::fromStdString(file.string()), &error);
        QVERIFY2(document, qPrintable(error));
        DocumentView view(std::move(document), &runner, builtinFormatViews());
        view.show();
        QVERIFY(!view.findChild<OzdfCorpusView*>());
        auto* editor = view.findChild<OzdfDocumentEditor*>();
        QVERIFY(editor);
        QVERIFY(editor->reloadBanner()->isHidden());
        std::ofstream(file, std::ios::app) << "\n#### MORE\nchanged elsewhere\n";
        QTRY_VERIFY_WITH_TIMEOUT(!editor->reloadBanner()->isHidden(), 10000);
        QVERIFY(editor->reloadBanner()->text().contains(QStringLiteral("alone.ozdf")));
        QSignalSpy reload(&view, &DocumentView::reloadRequested);
        findButton(editor->reloadBanner(), QStringLiteral("Reload"))->click();
        QCOMPARE(reload.count(), 1);
    }

    // Not a check: images of the tabs for the documentation, when asked for.
    void screenshots() {
        const QString out = qEnvironmentVariable("STRATA_OZDF_SCREENSHOT_DIR");
        if (out.isEmpty()) {
            QSKIP("STRATA_OZDF_SCREENSHOT_DIR not set");
        }
        STRATA_QSKIP_WITHOUT_CORPUS();
        QTemporaryDir dir;
        const fs::path folder = fs::path(dir.path().toStdString()) / "mixed";
        fs::copy(kMixed, folder, fs::copy_options::recursive);
        MainWindow window;
        window.setInteractive(false);
        window.resize(1440, 900);
        window.show();
        QVERIFY(window.openPath(QString::fromStdString(folder.string())));
        QVERIFY(window.waitUntilIdle(60000));
        auto* view = window.findChild<DocumentView*>();
        QVERIFY(view);
        auto* corpus = view->findChild<OzdfCorpusView*>();
        auto* editor = view->findChild<OzdfDocumentEditor*>();
        showTab(*view, corpus);
        corpus->table()->setCurrentIndex(corpus->proxy()->index(1, 0));
        QTest::qWait(300);
        QVERIFY(window.grab().save(out + "/ozdf-corpus.png", "PNG"));
        showTab(*view, editor);
        editor->tree()->expandAll();
        editor->tree()->setCurrentIndex(
            editor->documentModel()->index(0, 0, editor->documentModel()->index(0, 0)));
        QTest::qWait(300);
        QVERIFY(window.grab().save(out + "/ozdf-editor.png", "PNG"));
        auto* formatEditor = qobject_cast<strata::model::OzdfEditor*>(view->document()->editor());
        OzdfFindDialog dialog(*view, *formatEditor);
        dialog.patternEdit()->setText(QStringLiteral("(\\w+)ory"));
        dialog.replacementEdit()->setText(QStringLiteral("$1ORY"));
        dialog.regexBox()->setChecked(true);
        dialog.show();
        dialog.startFind();
        QTRY_VERIFY(!dialog.searching());
        QTest::qWait(300);
        QVERIFY(dialog.grab().save(out + "/ozdf-find-replace.png", "PNG"));
    }
};

QTEST_MAIN(OzdfViewsTest)
#include "ozdf_views_test.moc"
