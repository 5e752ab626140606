// Text typed into the ZDS JSON editor and the OZDF paragraph editor but not applied yet is never
// dropped: Save applies it first (and asks when it cannot be applied), closing a tab and quitting
// ask about it as about unsaved edits, and moving to another row or paragraph applies it (or stays
// on it while it cannot be applied). After a save, the reopened view shows the same tab,
// document, element and row, and text kept unapplied comes back in its editor.
#include <QAbstractButton>
#include <QApplication>
#include <QCloseEvent>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTreeView>
#include <QUndoStack>

#include <filesystem>
#include <functional>
#include <memory>

#include "app/gui/main_window.h"
#include "app/ozdf/ozdf_corpus_view.h"
#include "app/ozdf/ozdf_document_editor.h"
#include "app/ozdf/ozdf_find_dialog.h"
#include "app/widgets/document_view.h"
#include "app/zds/zds_document_editor.h"
#include "app/zds/zds_documents_tab.h"
#include "app/ztensor/zt_manifest_tab.h"
#include "model/core/document.h"
#include "model/core/text_draft.h"
#include "model/ozdf/ozdf_commands.h"
#include "model/ozdf/ozdf_document_model.h"
#include "model/ozdf/ozdf_editor.h"
#include "model/zds/zds_editor.h"
#include "model/zds/zds_table_model.h"
#include "model/ztensor/zt_manifest_models.h"
#include "test_corpus.h"

using namespace strata;
using namespace strata::gui;
namespace fs = std::filesystem;

namespace {

const fs::path kCorpus = strata::test::corpusRoot();

QString readAll(const fs::path& path) {
    QFile file(QString::fromStdString(path.string()));
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

// Answers the next message box that opens: `choose` picks the button; what the box said goes
// to *text. Polls, since the box runs its own event loop.
void answerNextBox(std::function<QAbstractButton*(QMessageBox*)> choose, QString* text = nullptr) {
    auto* timer = new QTimer(qApp);
    timer->setInterval(20);
    QObject::connect(timer, &QTimer::timeout, timer, [timer, choose, text] {
        for (QWidget* w : QApplication::topLevelWidgets()) {
            auto* box = qobject_cast<QMessageBox*>(w);
            if (box != nullptr && box->isVisible()) {
                if (text != nullptr) {
                    *text = box->text();
                }
                timer->stop();
                timer->deleteLater();
                if (QAbstractButton* button = choose(box)) {
                    button->click();
                } else {
                    box->reject();
                }
                return;
            }
        }
    });
    timer->start();
}

// Answers the message boxes that open next, one after the other, with `choices` in turn.
void answerBoxes(QList<std::function<QAbstractButton*(QMessageBox*)>> choices) {
    auto* timer = new QTimer(qApp);
    timer->setInterval(20);
    auto answered = std::make_shared<QList<QPointer<QMessageBox>>>();
    QObject::connect(timer, &QTimer::timeout, timer, [timer, choices, answered]() mutable {
        for (QWidget* w : QApplication::topLevelWidgets()) {
            auto* box = qobject_cast<QMessageBox*>(w);
            if (box == nullptr || !box->isVisible() || answered->contains(box)) {
                continue;
            }
            answered->append(box);
            QAbstractButton* button = choices.takeFirst()(box);
            if (choices.isEmpty()) {
                timer->stop();
                timer->deleteLater();
            }
            if (button != nullptr) {
                button->click();
            } else {
                box->reject();
            }
            return;
        }
    });
    timer->start();
}

std::function<QAbstractButton*(QMessageBox*)> standard(QMessageBox::StandardButton which) {
    return [which](QMessageBox* box) -> QAbstractButton* { return box->button(which); };
}

std::function<QAbstractButton*(QMessageBox*)> named(const QString& label) {
    return [label](QMessageBox* box) -> QAbstractButton* {
        for (QAbstractButton* b : box->buttons()) {
            if (b->text().remove(u'&') == label) {
                return b;
            }
        }
        return nullptr;
    };
}

ZdsDocumentsTab* zdsTab(DocumentView* view) {
    return view ? view->findChild<ZdsDocumentsTab*>(QStringLiteral("zdsDocumentsTab")) : nullptr;
}

int collectionNamed(ZdsDocumentsTab* tab, const std::string& name) {
    for (int i = 0; i < tab->editor()->collectionCount(); ++i) {
        if (tab->editor()->table(i)->collection().name() == name) {
            return i;
        }
    }
    return -1;
}

// Waits until `old` has been replaced by the view the save reopened.
DocumentView* reopened(MainWindow& window, QPointer<DocumentView> old) {
    QDeadlineTimer deadline(30000);
    while (!old.isNull() && !deadline.hasExpired()) {
        QTest::qWait(20);
    }
    window.waitUntilIdle(30000);
    return old.isNull() ? window.currentView() : nullptr;
}

// The first paragraph of block `element` of `file`.
model::OzdfAddress firstParagraph(std::size_t element) {
    return {model::OzdfAddress::Kind::Paragraph, element, std::nullopt, 0};
}

}  // namespace

class TypedTextTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    int copies_ = 0;

    // A fresh copy of a corpus folder, so saves never touch the corpus.
    QString copy(const fs::path& relative) {
        const fs::path from = kCorpus / relative;
        const fs::path to =
            fs::path(dir_.path().toStdString()) / std::to_string(++copies_) / from.filename();
        fs::create_directories(to.parent_path());
        fs::copy(from, to, fs::copy_options::recursive);
        return QString::fromStdString(to.string());
    }

    // Opens a copy of the two-collection dataset on document t03 of "test", ready to type.
    ZdsDocumentsTab* openZds(MainWindow& window, QString* path) {
        *path = copy("zds/valid/jsonl_two_collections");
        if (!window.openPath(*path)) {
            return nullptr;
        }
        ZdsDocumentsTab* tab = zdsTab(window.currentView());
        if (tab == nullptr || !window.waitUntilIdle(30000) || !tab->editor()->loaded()) {
            return nullptr;
        }
        tab->setCurrentCollection(collectionNamed(tab, "test"));
        tab->showDocument(3);
        return tab;
    }

    // Opens a copy of the mixed corpus with paragraph 1 of the first block of a_doc.ozdf in
    // the editor.
    OzdfDocumentEditor* openOzdf(MainWindow& window, QString* path) {
        *path = copy("ozdf/valid/handwritten/corpora/mixed");
        if (!window.openPath(*path) || !window.waitUntilIdle(30000)) {
            return nullptr;
        }
        DocumentView* view = window.currentView();
        auto* corpus = view->findChild<OzdfCorpusView*>();
        auto* editor = view->findChild<OzdfDocumentEditor*>();
        auto* format = qobject_cast<model::OzdfEditor*>(view->document()->editor());
        if (corpus == nullptr || editor == nullptr || format == nullptr) {
            return nullptr;
        }
        corpus->selectDocument(format->session().indexOf("a_doc.ozdf"));
        view->centreTabs()->setCurrentWidget(editor);
        editor->select(firstParagraph(0));
        return editor->textEdit()->isEnabled() ? editor : nullptr;
    }

    static QString zdsData(const QString& path, const char* collection) {
        return readAll(fs::path(path.toStdString()) / "collections" / collection / "meta" /
                       "data.jsonl");
    }

    // A collection's index: a deletion is saved there (its line stays as history).
    static QString zdsIndex(const QString& path, const char* collection) {
        return readAll(fs::path(path.toStdString()) / "collections" / collection / "meta" /
                       "index.bin");
    }

    static QString ozdfFile(const QString& path, const char* name) {
        return readAll(fs::path(path.toStdString()) / name);
    }

private slots:
    void initTestCase() {
        if (!fs::exists(kCorpus / "zds") || !fs::exists(kCorpus / "ozdf")) {
            QSKIP("the conformance corpus is not there (set STRATA_CORPUS_DIR)");
        }
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("StrataTest"));
        QCoreApplication::setApplicationName(QStringLiteral("typed_text_test"));
        QSettings().clear();
        QVERIFY(dir_.isValid());
    }

    // ---- ZDS JSON editor ----

    void zdsSaveAppliesTypedTextAndKeepsTheView() {
        MainWindow window;
        window.setInteractive(false);
        window.show();
        QString path;
        ZdsDocumentsTab* tab = openZds(window, &path);
        QVERIFY(tab);
        DocumentView* view = window.currentView();
        view->centreTabs()->setCurrentWidget(tab);
        tab->documentEditor()->textEdit()->setPlainText(R"({"_id":"t03","typed":"kept"})");
        QVERIFY(view->document()->hasPendingText());
        QVERIFY(!view->document()->isModified());

        window.save();
        DocumentView* after = reopened(window, view);
        QVERIFY(after);
        QVERIFY(zdsData(path, "test").contains(R"({"_id":"t03","typed":"kept"})"));
        QVERIFY(window.statusBar()->currentMessage().startsWith(QStringLiteral("Saved")));
        // The reopened view shows the same tab, collection and document.
        ZdsDocumentsTab* again = zdsTab(after);
        QVERIFY(again);
        QCOMPARE(after->centreTabs()->currentWidget(), again);
        QTRY_COMPARE(again->currentCollection(), collectionNamed(again, "test"));
        QTRY_COMPARE(again->currentStored(), 3);
        QVERIFY(again->documentEditor()->text().contains(QStringLiteral("kept")));
        QVERIFY(!after->document()->hasPendingText());
        QVERIFY(!after->document()->isModified());
    }

    void zdsInvalidTextOnSaveAsks() {
        MainWindow window;
        window.show();
        QString path;
        ZdsDocumentsTab* tab = openZds(window, &path);
        QVERIFY(tab);
        const QString before = zdsData(path, "test");
        const QString indexBefore = zdsIndex(path, "test");
        // Another edit is waiting to be saved: document t05 deleted.
        tab->showDocument(5);
        QCOMPARE(tab->deleteSelected(), QString());
        tab->showDocument(3);
        const QString typed = QStringLiteral("{\"_id\":\"t03\", \"oops\": }");
        tab->documentEditor()->textEdit()->setPlainText(typed);

        // Fix the text: nothing is written, the text stays in the editor.
        QString question;
        answerNextBox(named(QStringLiteral("Fix the Text")), &question);
        window.save();
        QVERIFY(question.contains(QStringLiteral("cannot be applied")));
        QVERIFY(window.waitUntilIdle(30000));
        QCOMPARE(zdsData(path, "test"), before);
        QCOMPARE(zdsIndex(path, "test"), indexBefore);
        QCOMPARE(tab->documentEditor()->text(), typed);
        QVERIFY(window.currentView()->document()->hasPendingText());

        // Save without it: the other edit is written, the text comes back in the reopened view.
        DocumentView* view = window.currentView();
        answerNextBox(named(QStringLiteral("Save Without It")));
        window.save();
        DocumentView* after = reopened(window, view);
        QVERIFY(after);
        QVERIFY(zdsIndex(path, "test") != indexBefore);
        ZdsDocumentsTab* again = zdsTab(after);
        QTRY_COMPARE(again->documentEditor()->text(), typed);
        QVERIFY(after->document()->hasPendingText());
    }

    void zdsInvalidTextRefusesANonInteractiveSave() {
        MainWindow window;
        window.setInteractive(false);
        window.show();
        QString path;
        ZdsDocumentsTab* tab = openZds(window, &path);
        QVERIFY(tab);
        const QString before = zdsData(path, "test");
        tab->documentEditor()->textEdit()->setPlainText(QStringLiteral("{ not json"));
        window.save();
        QVERIFY(window.waitUntilIdle(30000));
        QCOMPARE(zdsData(path, "test"), before);
        QVERIFY(window.lastError().contains(QStringLiteral("Not saved")));
        QCOMPARE(tab->documentEditor()->text(), QStringLiteral("{ not json"));
    }

    void zdsClosingAsksAboutTypedText() {
        MainWindow window;
        window.show();
        QString path;
        ZdsDocumentsTab* tab = openZds(window, &path);
        QVERIFY(tab);
        tab->documentEditor()->textEdit()->setPlainText(R"({"_id":"t03","closing":1})");
        QVERIFY(window.tabs()->tabText(0).endsWith(QStringLiteral(" *")));

        // Cancel keeps the tab and the text.
        QString question;
        answerNextBox(standard(QMessageBox::Cancel), &question);
        QVERIFY(!window.closeTab(0));
        QVERIFY(question.contains(QStringLiteral("did not apply")));
        QCOMPARE(window.documentCount(), 1);
        QVERIFY(tab->documentEditor()->text().contains(QStringLiteral("closing")));

        // Quitting asks too.
        answerNextBox(standard(QMessageBox::Cancel));
        QVERIFY(!window.close());
        QCOMPARE(window.documentCount(), 1);

        // Save applies the text, writes it and closes.
        answerNextBox(standard(QMessageBox::Save));
        QVERIFY(window.closeTab(0));
        QCOMPARE(window.documentCount(), 0);
        QVERIFY(zdsData(path, "test").contains(R"({"_id":"t03","closing":1})"));
    }

    void zdsMovingToAnotherRowAppliesOrStays() {
        MainWindow window;
        window.setInteractive(false);
        window.show();
        QString path;
        ZdsDocumentsTab* tab = openZds(window, &path);
        QVERIFY(tab);
        model::ZdsTableModel* m = tab->currentModel();
        // Valid text is applied (one undo step) when the row changes.
        tab->documentEditor()->textEdit()->setPlainText(R"({"_id":"t03","moved":true})");
        tab->table()->setCurrentIndex(m->index(m->tableRow(4), 0));
        QTRY_COMPARE(m->text(3), std::string(R"({"_id":"t03","moved":true})"));
        QTRY_VERIFY(tab->documentEditor()->text().contains(QStringLiteral("t04")));
        QVERIFY(window.currentView()->document()->isModified());
        // Invalid text keeps the editor (and the row) on its document.
        tab->documentEditor()->textEdit()->setPlainText(QStringLiteral("{\"_id\": \"t04\""));
        tab->table()->setCurrentIndex(m->index(m->tableRow(6), 0));
        QTest::qWait(50);
        QTRY_COMPARE(tab->currentStored(), 4);
        QCOMPARE(tab->documentEditor()->text(), QStringLiteral("{\"_id\": \"t04\""));
        QVERIFY(
            tab->documentEditor()->errorLabel()->text().contains(QStringLiteral("not applied")) ||
            !tab->documentEditor()->errorLabel()->text().isEmpty());
        // Revert lets it go.
        tab->draft()->discard();
        tab->table()->setCurrentIndex(m->index(m->tableRow(6), 0));
        QTRY_VERIFY(tab->documentEditor()->text().contains(QStringLiteral("t06")));
    }

    void zdsUndoWhileTypingKeepsTheTextAndTheHistory() {
        MainWindow window;
        window.setInteractive(false);
        window.show();
        QString path;
        ZdsDocumentsTab* tab = openZds(window, &path);
        QVERIFY(tab);
        model::Document* doc = window.currentView()->document();
        tab->showDocument(1);
        QCOMPARE(tab->deleteSelected(), QString());  // t01 goes: t03 moves up
        tab->showDocument(2);
        QCOMPARE(tab->currentModel()->id(2), std::string("t03"));
        const QString typed = QStringLiteral(R"({"_id":"t03","while":"undo"})");
        tab->documentEditor()->textEdit()->setPlainText(typed);
        QUndoStack* stack = doc->undoStack();
        const int count = stack->count();
        stack->undo();  // t01 comes back above the document being typed into
        QTest::qWait(50);
        QVERIFY(doc->hasPendingText());
        QCOMPARE(stack->count(), count);
        QVERIFY(stack->canRedo());
        QCOMPARE(tab->documentEditor()->text(), typed);
        QCOMPARE(tab->currentModel()->id(tab->currentStored()), std::string("t03"));
        // Applied later, the text still goes to t03.
        QCOMPARE(doc->applyPendingText(), QString());
        QCOMPARE(tab->currentModel()->text(3), typed.toStdString());
    }

    // ---- OZDF paragraph editor ----

    void ozdfSaveAppliesTypedTextAndKeepsTheView() {
        MainWindow window;
        window.setInteractive(false);
        window.show();
        QString path;
        OzdfDocumentEditor* editor = openOzdf(window, &path);
        QVERIFY(editor);
        DocumentView* view = window.currentView();
        editor->textEdit()->setPlainText(QStringLiteral("Typed before saving."));
        QVERIFY(view->document()->hasPendingText());

        window.save();
        DocumentView* after = reopened(window, view);
        QVERIFY(after);
        QVERIFY(ozdfFile(path, "a_doc.ozdf").contains(QStringLiteral("Typed before saving.")));
        // The editor tab, the document and the paragraph are shown again.
        auto* again = after->findChild<OzdfDocumentEditor*>();
        QVERIFY(again);
        QCOMPARE(after->centreTabs()->currentWidget(), again);
        auto* format = qobject_cast<model::OzdfEditor*>(after->document()->editor());
        QCOMPARE(again->documentIndex(), format->session().indexOf("a_doc.ozdf"));
        QCOMPARE(again->textEdit()->toPlainText(), QStringLiteral("Typed before saving."));
        const auto corpus = after->findChild<OzdfCorpusView*>();
        QVERIFY(corpus->table()->currentIndex().isValid());
        QVERIFY(!after->document()->hasPendingText());
    }

    void ozdfInvalidTextOnSaveAsks() {
        MainWindow window;
        window.show();
        QString path;
        OzdfDocumentEditor* editor = openOzdf(window, &path);
        QVERIFY(editor);
        const QString before = ozdfFile(path, "a_doc.ozdf");
        editor->textEdit()->setPlainText(QStringLiteral("#### not a paragraph"));
        QString question;
        answerNextBox(standard(QMessageBox::Cancel), &question);
        window.save();
        QVERIFY(question.contains(QStringLiteral("cannot be applied")));
        QVERIFY(window.waitUntilIdle(30000));
        QCOMPARE(ozdfFile(path, "a_doc.ozdf"), before);
        QCOMPARE(editor->textEdit()->toPlainText(), QStringLiteral("#### not a paragraph"));
    }

    // "Save Without It" promises to keep the text that cannot be applied: on Save it comes back
    // in the reopened view; on closing, the other edits are saved and the tab stays open with
    // the text (closing would drop it).
    void ozdfSaveWithoutItKeepsTheText() {
        MainWindow window;
        window.show();
        QString path;
        OzdfDocumentEditor* editor = openOzdf(window, &path);
        QVERIFY(editor);
        DocumentView* view = window.currentView();
        auto* format = qobject_cast<model::OzdfEditor*>(view->document()->editor());
        QString error;
        QVERIFY(model::addOzdfDocument(*view->document()->undoStack(), format->session(),
                                       QStringLiteral("added_first.ozdf"), false, &error));
        const QString typed = QStringLiteral("#### not a paragraph");
        editor->textEdit()->setPlainText(typed);

        answerBoxes({named(QStringLiteral("Save Without It"))});
        window.save();
        DocumentView* after = reopened(window, view);
        QVERIFY(after);
        QVERIFY(fs::exists(fs::path(path.toStdString()) / "added_first.ozdf"));
        auto* again = after->findChild<OzdfDocumentEditor*>();
        QTRY_COMPARE(again->textEdit()->toPlainText(), typed);
        QVERIFY(after->document()->hasPendingText());

        format = qobject_cast<model::OzdfEditor*>(after->document()->editor());
        QVERIFY(model::addOzdfDocument(*after->document()->undoStack(), format->session(),
                                       QStringLiteral("added_second.ozdf"), false, &error));
        QString informative;
        answerBoxes({standard(QMessageBox::Save), [&informative](QMessageBox* box) {
                         informative = box->informativeText();
                         return named(QStringLiteral("Save Without It"))(box);
                     }});
        QVERIFY(!window.closeTab(0));
        QVERIFY(informative.contains(QStringLiteral("tab open")));
        QVERIFY(fs::exists(fs::path(path.toStdString()) / "added_second.ozdf"));
        // The tab shows the saved files, with the text back in the editor.
        DocumentView* kept = reopened(window, after);
        QVERIFY(kept);
        QCOMPARE(window.documentCount(), 1);
        QTRY_COMPARE(kept->findChild<OzdfDocumentEditor*>()->textEdit()->toPlainText(), typed);
        QVERIFY(kept->document()->hasPendingText());
        QVERIFY(!kept->document()->isModified());
        QVERIFY(window.statusBar()->currentMessage().contains(QStringLiteral("stays open")));

        // Quitting keeps it the same way.
        answerBoxes({standard(QMessageBox::Save), named(QStringLiteral("Save Without It"))});
        QVERIFY(!window.close());
        kept = reopened(window, kept);
        QVERIFY(kept);
        QCOMPARE(window.documentCount(), 1);
        QTRY_COMPARE(kept->findChild<OzdfDocumentEditor*>()->textEdit()->toPlainText(), typed);
        answerNextBox(standard(QMessageBox::Discard));
        QVERIFY(window.closeTab(0));
    }

    void ozdfClosingAsksAboutTypedText() {
        MainWindow window;
        window.show();
        QString path;
        OzdfDocumentEditor* editor = openOzdf(window, &path);
        QVERIFY(editor);
        editor->textEdit()->setPlainText(QStringLiteral("Typed, then the window closes."));
        QString question;
        answerNextBox(standard(QMessageBox::Cancel), &question);
        QVERIFY(!window.close());
        QVERIFY(question.contains(QStringLiteral("did not apply")));
        QCOMPARE(window.documentCount(), 1);
        answerNextBox(standard(QMessageBox::Save));
        QVERIFY(window.closeTab(0));
        QVERIFY(ozdfFile(path, "a_doc.ozdf").contains(QStringLiteral("Typed, then the window")));
    }

    void ozdfDiscardOnCloseDropsOnlyWhenAsked() {
        MainWindow window;
        window.show();
        QString path;
        OzdfDocumentEditor* editor = openOzdf(window, &path);
        QVERIFY(editor);
        const QString before = ozdfFile(path, "a_doc.ozdf");
        editor->textEdit()->setPlainText(QStringLiteral("Thrown away on purpose."));
        answerNextBox(standard(QMessageBox::Discard));
        QVERIFY(window.closeTab(0));
        QCOMPARE(ozdfFile(path, "a_doc.ozdf"), before);
    }

    void ozdfMovingToAnotherParagraphApplies() {
        MainWindow window;
        window.setInteractive(false);
        window.show();
        QString path;
        OzdfDocumentEditor* editor = openOzdf(window, &path);
        QVERIFY(editor);
        DocumentView* view = window.currentView();
        editor->textEdit()->setPlainText(QStringLiteral("Applied by moving on."));
        editor->select({model::OzdfAddress::Kind::Element, 0, std::nullopt, 0});
        QTRY_VERIFY(view->document()->isModified());
        QVERIFY(!view->document()->hasPendingText());
        auto* format = qobject_cast<model::OzdfEditor*>(view->document()->editor());
        const auto& doc = format->session().document(format->session().indexOf("a_doc.ozdf"));
        QCOMPARE(doc.elements[0].paragraphs[0].text, std::string("Applied by moving on."));
        // Invalid text stays on its paragraph.
        editor->select(firstParagraph(0));
        editor->textEdit()->setPlainText(QStringLiteral("=== no"));
        editor->select({model::OzdfAddress::Kind::Element, 0, std::nullopt, 0});
        QTest::qWait(50);
        QTRY_COMPARE(editor->textEdit()->toPlainText(), QStringLiteral("=== no"));
        QVERIFY(!editor->errorLabel()->text().isEmpty());
        QVERIFY(view->document()->hasPendingText());
    }

    // Find and Replace searches the corpus as edited: typed text is applied first (and found);
    // text that cannot be applied stops the search and stays in the editor.
    void ozdfFindAndReplaceAppliesTypedTextFirst() {
        MainWindow window;
        window.setInteractive(false);
        window.show();
        QString path;
        OzdfDocumentEditor* editor = openOzdf(window, &path);
        QVERIFY(editor);
        DocumentView* view = window.currentView();
        auto* format = qobject_cast<model::OzdfEditor*>(view->document()->editor());
        editor->textEdit()->setPlainText(QStringLiteral("Typed marker zebra."));
        QVERIFY(view->document()->hasPendingText());
        OzdfFindDialog dialog(*view, *format);
        dialog.patternEdit()->setText(QStringLiteral("zebra"));
        dialog.replacementEdit()->setText(QStringLiteral("okapi"));
        dialog.startFind();
        QVERIFY(!view->document()->hasPendingText());
        QTRY_VERIFY(!dialog.searching());
        QTRY_COMPARE(dialog.resultCount(), 1);
        QVERIFY(dialog.applySelected());
        const auto& doc = format->session().document(format->session().indexOf("a_doc.ozdf"));
        QCOMPARE(doc.elements[0].paragraphs[0].text, std::string("Typed marker okapi."));

        editor->select(firstParagraph(0));
        editor->textEdit()->setPlainText(QStringLiteral("=== no"));
        dialog.startFind();
        QVERIFY(!dialog.searching());
        QCOMPARE(dialog.resultCount(), 0);
        QVERIFY(view->document()->hasPendingText());
        QTRY_COMPARE(editor->textEdit()->toPlainText(), QStringLiteral("=== no"));
    }

    // ---- zTensor attribute cells ----

    // A value typed into an attribute cell whose editor is still open is not lost: Save
    // commits and writes it; closing commits it and then asks about the unsaved edit.
    void ztTypedAttributeCellIsSavedOrAskedAbout() {
        for (const bool close : {false, true}) {
            const QString path = copy("ztensor/valid/attrs_extra_keys.zt");
            MainWindow window;
            window.setInteractive(close);
            window.show();
            QVERIFY(QTest::qWaitForWindowActive(&window));
            QVERIFY(window.openPath(path));
            QVERIFY(window.waitUntilIdle(30000));
            DocumentView* view = window.currentView();
            auto* manifest =
                view->centreTabs()->findChild<ZtManifestTab*>(QStringLiteral("ztManifestTab"));
            QVERIFY(manifest);
            view->centreTabs()->setCurrentWidget(manifest);
            QTableView* table = nullptr;
            for (QTableView* t : manifest->findChildren<QTableView*>()) {
                table = t->model() == manifest->attributesModel() ? t : table;
            }
            QVERIFY(table);
            const QModelIndex cell = table->model()->index(0, 1);
            table->setCurrentIndex(cell);
            table->edit(cell);
            auto* line = qobject_cast<QLineEdit*>(QApplication::focusWidget());
            QVERIFY(line && table->viewport()->isAncestorOf(line));
            line->setText(QStringLiteral("typed-in-cell"));
            QVERIFY(!view->document()->isModified());
            if (!close) {
                window.save();
                QTRY_VERIFY_WITH_TIMEOUT(
                    readAll(fs::path(path.toStdString())).contains(QStringLiteral("typed-in-cell")),
                    30000);
                QVERIFY(window.waitUntilIdle(30000));
                continue;
            }
            QString question;
            answerNextBox(standard(QMessageBox::Cancel), &question);
            QVERIFY(!window.closeTab(0));
            QVERIFY(question.contains(QStringLiteral("unsaved edits")));
            QVERIFY(view->document()->isModified());
            QCOMPARE(manifest->attributesModel()->index(0, 1).data().toString(),
                     QStringLiteral("typed-in-cell"));
            answerNextBox(standard(QMessageBox::Discard));
            QVERIFY(window.closeTab(0));
        }
    }
};

QTEST_MAIN(TypedTextTest)
#include "typed_text_test.moc"
