// MainWindow: opening files (twice opens one tab), the undo group following the active tab,
// Save As through the window, bad paths, and the docks following the current document.
#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QUndoGroup>
#include <QUndoStack>

#include "app/gui/main_window.h"
#include "app/gui/save_controller.h"
#include "app/widgets/bookmarks_panel.h"
#include "app/widgets/diagnostics_panel.h"
#include "app/widgets/document_view.h"
#include "app/widgets/file_map.h"
#include "app/widgets/hex_view.h"
#include "app/widgets/jobs_panel.h"
#include "app/ztensor/zt_manifest_tab.h"
#include "mnemonic_check.h"
#include "model/core/diagnostics_model.h"
#include "model/core/document.h"
#include "model/core/job_runner.h"
#include "model/ztensor/zt_manifest_models.h"
#include "test_corpus.h"

using namespace strata::gui;

class MainWindowTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("StrataTest"));
        QCoreApplication::setApplicationName(QStringLiteral("main_window_test"));
        QSettings().clear();
        QVERIFY(dir_.isValid());
        a_ = writeFile(QStringLiteral("a.bin"), QByteArray(4096, 'a'));
        b_ = writeFile(QStringLiteral("b.bin"), QByteArray(100, 'b'));
    }

    void opensFilesOnceEach() {
        MainWindow window;
        window.setInteractive(false);
        window.show();
        QVERIFY(window.openPath(a_));
        QVERIFY(window.openPath(b_));
        QCOMPARE(window.documentCount(), 2);
        QVERIFY(window.openPath(a_));  // already open: switches to it
        QCOMPARE(window.documentCount(), 2);
        QCOMPARE(window.currentView()->document()->displayName(), QStringLiteral("a.bin"));
        QVERIFY(!window.openPath(dir_.filePath(QStringLiteral("missing.bin"))));
        QVERIFY(!window.lastError().isEmpty());
        QCOMPARE(window.documentCount(), 2);
        QCOMPARE(window.recentFiles().first(), QFileInfo(b_).absoluteFilePath());
        QVERIFY(window.waitUntilIdle(30000));
        QVERIFY(window.closeTab(0));
        QCOMPARE(window.documentCount(), 1);
    }

    void undoGroupFollowsTabs() {
        MainWindow window;
        window.setInteractive(false);
        window.show();
        QVERIFY(window.openPath(a_));
        QVERIFY(window.openPath(b_));
        DocumentView* b = window.currentView();
        QCOMPARE(window.undoGroup()->activeStack(), b->document()->undoStack());
        window.tabs()->setCurrentIndex(0);
        DocumentView* a = window.currentView();
        QCOMPARE(window.undoGroup()->activeStack(), a->document()->undoStack());
        QCOMPARE(window.diagnosticsPanel()->document(), a->document());

        a->hexView()->setEditable(true);
        a->hexView()->setFocus();
        QTest::keyClicks(a->hexView(), QStringLiteral("00"));
        QVERIFY(a->document()->isModified());
        QVERIFY(window.tabs()->tabText(0).endsWith(QLatin1Char('*')));
        window.undoGroup()->undo();
        window.undoGroup()->undo();
        QVERIFY(!a->document()->isModified());
        QCOMPARE(a->document()->primaryFile()->read(0, 1), QByteArray("a"));
        QVERIFY(!b->document()->isModified());
        window.waitUntilIdle(30000);
    }

    void saveAsWritesEdits() {
        MainWindow window;
        window.setInteractive(false);
        QVERIFY(window.openPath(b_));
        DocumentView* view = window.currentView();
        view->document()->overwrite(view->document()->primaryFile(), 10, QByteArray("XYZ"));
        const QString out = dir_.filePath(QStringLiteral("b-edited.bin"));
        QCOMPARE(window.saveCurrentAs(out), QString());
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QByteArray expected(100, 'b');
        expected.replace(10, 3, "XYZ");
        QCOMPARE(f.readAll(), expected);
        QVERIFY(!window.tabs()->tabText(0).endsWith(QLatin1Char('*')));
        window.waitUntilIdle(30000);
    }

    void bookmarksAndJobs() {
        MainWindow window;
        window.setInteractive(false);
        window.setAutoValidate(true);
        QVERIFY(window.openPath(a_));
        DocumentView* view = window.currentView();
        view->hexView()->setSelection(100, 8);
        window.addBookmark();
        QCOMPARE(view->document()->bookmarks().size(), 1);
        QCOMPARE(view->document()->bookmarks().first().offset, quint64{100});
        view->hexView()->goToOffset(0);
        view->goToBookmark(0);
        QCOMPARE(view->hexView()->selectionStart(), quint64{100});
        QVERIFY(window.waitUntilIdle(30000));
        // Validation and entropy ran for the raw binary and show in the Jobs dock.
        QVERIFY(window.jobsPanel()->rowCount() >= 1);
    }

    void diagnosticsSelectTheirBytes() {
        STRATA_QSKIP_WITHOUT_CORPUS();
        const QString damaged = QString::fromStdString(strata::test::corpusRoot().string()) +
                                QStringLiteral("/zs/corrupt/block-length-plus1.zs");
        MainWindow window;
        window.setInteractive(false);
        window.setAutoValidate(true);
        window.resize(1400, 900);
        window.show();
        QVERIFY(window.openPath(damaged));
        QVERIFY(window.waitUntilIdle(60000));
        DocumentView* view = window.currentView();
        const auto* diagnostics = view->document()->diagnostics();
        QVERIFY(diagnostics->countOf(strata::Severity::Error) > 0);
        // The file map shows them.
        QVERIFY(!view->fileMap()->markers().isEmpty());

        DiagnosticsPanel* panel = window.diagnosticsPanel();
        panel->setMinimumSeverity(strata::Severity::Error);
        QTableView* table = panel->table();
        QVERIFY(table->model()->rowCount() > 0);
        const QModelIndex first = table->model()->index(0, 0);
        const QModelIndex source = panel->filterModel()->mapToSource(first);
        const strata::Diagnostic& d = diagnostics->diagnostic(source.row());
        QVERIFY(!d.regions.empty());
        table->scrollTo(first);
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(first).center());
        QCOMPARE(view->hexView()->selectionStart(), d.regions.front().offset);
        const strata::Node* node = view->currentNode();
        QVERIFY(node != nullptr);
        QVERIFY(node->region().contains(d.regions.front().offset));

        // Filtering by code hides the others.
        panel->setMinimumSeverity(strata::Severity::Info);
        panel->setCodeFilter(QStringLiteral("no-such-code"));
        QCOMPARE(table->model()->rowCount(), 0);

        // Export writes every diagnostic.
        const QString out = dir_.filePath(QStringLiteral("diagnostics.json"));
        QCOMPARE(panel->exportTo(out, true), QString());
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.readAll().contains(QByteArray::fromStdString(d.code)));
    }

    // A temporary file a killed save left beside the file is reported, and the panel removes it
    // after asking, then validates again.
    void leftoversAreReportedAndRemovedAfterAsking() {
        QFile source(QString::fromStdString(
            (strata::test::corpusRoot() / "ztensor/valid/dense_raw.zt").string()));
        if (!source.open(QIODevice::ReadOnly)) {
            QSKIP("corpus not available");
        }
        const QString input = writeFile(QStringLiteral("leftover.zt"), source.readAll());
        const QString stale = writeFile(QStringLiteral(".leftover.zt.strata-abc123def456"),
                                        QByteArray("half a save"));
        MainWindow window;
        window.setInteractive(false);
        window.setAutoValidate(true);
        window.show();
        QVERIFY(window.openPath(input));
        QVERIFY(window.waitUntilIdle(60000));
        DiagnosticsPanel* panel = window.diagnosticsPanel();
        const auto* diagnostics = window.currentView()->document()->diagnostics();
        const auto leftoverRows = [diagnostics] {
            int rows = 0;
            for (int row = 0; row < diagnostics->size(); ++row) {
                rows += diagnostics->diagnostic(row).code == "ZT-LEFTOVER-TEMP" ? 1 : 0;
            }
            return rows;
        };
        QCOMPARE(leftoverRows(), 1);
        QVERIFY(panel->removeLeftoversButton()->isEnabled());

        QString asked;
        panel->setConfirmation([&](const QString& text, bool canAccept) {
            asked = text;
            return !canAccept;  // "No" first: nothing is removed
        });
        QTest::mouseClick(panel->removeLeftoversButton(), Qt::LeftButton);
        QVERIFY(asked.contains(stale));
        QVERIFY(QFile::exists(stale));

        panel->setConfirmation([](const QString&, bool canAccept) { return canAccept; });
        QTest::mouseClick(panel->removeLeftoversButton(), Qt::LeftButton);
        QVERIFY(!QFile::exists(stale));
        QVERIFY(QFile::exists(input));
        QVERIFY(window.waitUntilIdle(60000));
        QTRY_COMPARE_WITH_TIMEOUT(leftoverRows(), 0, 30000);
        QVERIFY(!panel->removeLeftoversButton()->isEnabled());
    }

    // A folder of OZDF part files whose _metadata.ozdf is gone opens as that directory document,
    // and the Diagnostics dock says what happened.
    void ozdfPartsWithoutMetadataShowTheirError() {
        const QString folder = dir_.filePath(QStringLiteral("lost-book"));
        QVERIFY(QDir().mkpath(folder));
        writeFile(QStringLiteral("lost-book/BOOK-01.ozdp"), QByteArray("#### DATA\nOne.\n"));
        writeFile(QStringLiteral("lost-book/BOOK-02.ozdp"), QByteArray("#### DATA\nTwo.\n"));
        MainWindow window;
        window.setInteractive(false);
        window.setAutoValidate(true);
        window.show();
        QVERIFY(window.openPath(folder));
        QVERIFY(window.waitUntilIdle(60000));
        DiagnosticsPanel* panel = window.diagnosticsPanel();
        panel->setMinimumSeverity(strata::Severity::Error);
        QTableView* table = panel->table();
        QCOMPARE(table->model()->rowCount(), 1);
        QCOMPARE(
            table->model()->index(0, strata::model::DiagnosticsModel::CodeColumn).data().toString(),
            QStringLiteral("OZDF-PARTS-WITHOUT-METADATA"));
    }

    // Save As through a format editor writes the new file, then the tab shows it, clean; the
    // original stays as it was.
    void editorSaveAsMovesTheTabToTheNewFile() {
        STRATA_QSKIP_WITHOUT_CORPUS();
        QFile source(QString::fromStdString(
            (strata::test::corpusRoot() / "ztensor/valid/attrs_extra_keys.zt").string()));
        QVERIFY(source.open(QIODevice::ReadOnly));
        const QByteArray original = source.readAll();
        const QString input = writeFile(QStringLiteral("attrs.zt"), original);
        const QString output = dir_.filePath(QStringLiteral("attrs-edited.zt"));
        MainWindow window;
        window.setInteractive(false);
        window.show();
        QVERIFY(window.openPath(input));
        DocumentView* view = window.currentView();
        auto* manifest = view->centreTabs()->findChild<strata::gui::ZtManifestTab*>(
            QStringLiteral("ztManifestTab"));
        QVERIFY(manifest);
        auto* attributes = manifest->attributesModel();
        QVERIFY(attributes->setData(attributes->index(0, 1), QStringLiteral("edited")));
        QVERIFY(view->document()->isModified());

        window.startEditorSave(view, output);
        QTRY_COMPARE_WITH_TIMEOUT(window.currentView()->document()->path(),
                                  QFileInfo(output).absoluteFilePath(), 30000);
        QVERIFY(!window.currentView()->document()->isModified());
        QCOMPARE(window.documentCount(), 1);
        QFile kept(input);
        QVERIFY(kept.open(QIODevice::ReadOnly));
        QCOMPARE(kept.readAll(), original);
        QFile written(output);
        QVERIFY(written.open(QIODevice::ReadOnly));
        QVERIFY(written.readAll().contains("edited"));
        QVERIFY(window.waitUntilIdle(30000));
    }

    // A key bound to two actions triggers neither (Qt reports it ambiguous).
    void noTwoActionsShareAShortcut() {
        MainWindow window;
        QHash<QKeySequence, QString> owner;
        for (const QAction* action : window.findChildren<QAction*>()) {
            for (const QKeySequence& key : action->shortcuts()) {
                if (key.isEmpty()) {
                    continue;
                }
                QVERIFY2(!owner.contains(key),
                         qPrintable(key.toString() + QStringLiteral(": ") + owner.value(key) +
                                    QStringLiteral(", ") + action->text()));
                owner.insert(key, action->text());
            }
        }
        QVERIFY(owner.size() > 10);
    }

    // Alt+letter in a menu reaches one entry: no two entries of a menu share a mnemonic (File
    // had Compare With… and Close Tab on C, Save a Local Copy and Reload on L).
    void menusHaveUniqueMnemonics() {
        MainWindow window;
        window.show();
        QVERIFY(window.openPath(a_));  // a document: every entry enabled and shown
        const QStringList clashes = strata::test::mnemonicClashes(window);
        QVERIFY2(clashes.isEmpty(), qPrintable(clashes.join(QLatin1Char('\n'))));
        QVERIFY(window.waitUntilIdle(30000));
    }

    // F5 asks about unsaved edits as a reload, not as a close.
    void reloadAsksAboutReloadingNotClosing() {
        const QString question = SaveController::discardQuestion(QStringLiteral("a.bin"), true, {},
                                                                 SaveController::Ending::Reloading);
        QVERIFY2(question.contains(QStringLiteral("reload")), qPrintable(question));
        QVERIFY2(!question.contains(QStringLiteral("closing")), qPrintable(question));
        const QString typed =
            SaveController::discardQuestion(QStringLiteral("d"), false, {QStringLiteral("doc 1")},
                                            SaveController::Ending::Reloading);
        QVERIFY2(typed.contains(QStringLiteral("before reloading")), qPrintable(typed));
        QVERIFY(SaveController::discardQuestion(QStringLiteral("a.bin"), true, {},
                                                SaveController::Ending::Closing)
                    .contains(QStringLiteral("before closing")));

        // The question F5 really asks, in an interactive window.
        MainWindow window;
        window.show();
        QVERIFY(window.openPath(b_));
        QVERIFY(window.waitUntilIdle(30000));
        DocumentView* view = window.currentView();
        view->document()->overwrite(view->document()->primaryFile(), 0, QByteArray("Z"));
        QString asked;
        QTimer::singleShot(0, &window, [&asked] {
            auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
            if (box != nullptr) {
                asked = box->text();
                box->button(QMessageBox::Cancel)->click();
            }
        });
        QVERIFY(!window.reloadView(view));  // cancelled: the edits stay
        QVERIFY2(asked.contains(QStringLiteral("reloading")), qPrintable(asked));
        QVERIFY(view->document()->isModified());
        view->document()->undoStack()->undo();
        QVERIFY(!view->document()->isModified());
    }

private:
    QString writeFile(const QString& name, const QByteArray& bytes) {
        const QString path = dir_.filePath(name);
        QFile f(path);
        if (f.open(QIODevice::WriteOnly)) {
            f.write(bytes);
        }
        return path;
    }

    QTemporaryDir dir_;
    QString a_;
    QString b_;
};

QTEST_MAIN(MainWindowTest)
#include "main_window_test.moc"
