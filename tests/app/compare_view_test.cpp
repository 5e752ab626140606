// The compare view: two datasets written here are compared as a job, the differences arrive in
// the table with their counts, F7 / Shift+F7 step through them, each step shows both sides'
// bytes in the hex views and selects the node there in the trees, and the kind filters hide
// rows. A side that cannot be opened, or two formats, give a clear error.

// Before any Qt header: its `emit` macro would swallow ZtWriter::emit.
#include "formats/ztensor/zt_writer.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QFile>
#include <QLabel>
#include <QPointer>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

#include "app/compare/compare_view.h"
#include "app/gui/launch.h"
#include "app/gui/main_window.h"
#include "app/widgets/document_view.h"
#include "app/widgets/hex_view.h"
#include "mnemonic_check.h"
#include "model/compare/comparison.h"
#include "model/core/document.h"
#include "model/core/structure_model.h"
#include "model/zds/zds_edit_commands.h"
#include "model/zds/zds_editor.h"
#include "model/zds/zds_table_model.h"

using namespace strata;
using namespace strata::gui;

namespace {

// A zTensor file of float32 tensors (name, shape, values), in that order.
void writeTensors(
    const QString& path,
    const std::vector<std::tuple<std::string, std::vector<std::uint64_t>, std::vector<float>>>&
        tensors) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    ztensor::ZtWriter writer([&f](std::span<const std::uint8_t> b) {
        f.write(reinterpret_cast<const char*>(b.data()), qint64(b.size()));
    });
    for (const auto& [name, shape, values] : tensors) {
        ztensor::ZtWriterTensor t;
        t.name = name;
        t.shape = shape;
        t.components.push_back({"data",
                                std::span(reinterpret_cast<const std::uint8_t*>(values.data()),
                                          values.size() * sizeof(float)),
                                ztensor::ZtEncoding::Raw, std::nullopt});
        writer.add(t);
    }
    writer.finish();
}

void writeFile(const QString& path, const QByteArray& bytes) {
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes);
}

// Waits for the comparison's job and the batches it posted.
void finish(MainWindow& window) {
    QVERIFY(window.waitUntilIdle(60000));
    QCoreApplication::processEvents();
}

// Opens A and B as the window does (a job) and returns the compare view shown, or nullptr.
CompareView* compare(MainWindow& window, const QString& a, const QString& b) {
    CompareView* shown = nullptr;
    const QMetaObject::Connection c =
        QObject::connect(&window.comparisons(), &CompareController::shown,
                         [&shown](CompareView* view) { shown = view; });
    window.compareFiles(a, b);
    finish(window);
    QObject::disconnect(c);
    return shown;
}

}  // namespace

class CompareViewTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("StrataTest"));
        QCoreApplication::setApplicationName(QStringLiteral("compare_view_test"));
        QVERIFY(dir_.isValid());
        writeFile(dir_.filePath("a/collections/c/meta/data.jsonl"),
                  "{\"_id\":\"x\",\"v\":1}\n{\"_id\":\"y\",\"v\":2}\n{\"_id\":\"w\",\"v\":0}\n");
        writeFile(dir_.filePath("b/collections/c/meta/data.jsonl"),
                  "{\"_id\":\"x\",\"v\":1}\n{\"_id\":\"y\",\"v\":3}\n{\"_id\":\"z\",\"v\":4}\n");
        writeFile(dir_.filePath("raw.bin"), "not a dataset");
    }

    void differencesArriveAndStepping() {
        MainWindow window;
        window.setInteractive(false);
        CompareView* view = compare(window, dir_.filePath("a"), dir_.filePath("b"));
        QVERIFY(view != nullptr);
        finish(window);
        QCOMPARE(view->comparison()->state(), model::Comparison::State::Completed);
        auto* differences = view->comparison()->differences();
        QCOMPARE(differences->rowCount(), 3);  // y changed, w removed, z added
        QCOMPARE(differences->count(DiffKind::Changed), 1);
        QCOMPARE(differences->count(DiffKind::Removed), 1);
        QCOMPARE(differences->count(DiffKind::Added), 1);
        QVERIFY(view->statusLabel()->text().contains(QStringLiteral("content differs")));

        // The view selects the first difference by itself; F7 goes on, Shift+F7 goes back.
        QCOMPARE(view->differencesView()->currentIndex().row(), 0);
        view->show();
        QVERIFY(QTest::qWaitForWindowExposed(view));
        view->differencesView()->setFocus();
        QTest::keyClick(view->differencesView(), Qt::Key_F7);
        QCOMPARE(view->differencesView()->currentIndex().row(), 1);
        QTest::keyClick(view->differencesView(), Qt::Key_F7, Qt::ShiftModifier);
        QCOMPARE(view->differencesView()->currentIndex().row(), 0);

        // Each difference shows its bytes on the side(s) that hold it.
        for (int row = 0; row < 3; ++row) {
            view->differencesView()->setCurrentIndex(view->filter()->index(row, 0));
            const Difference& d = differences->difference(
                view->filter()->mapToSource(view->filter()->index(row, 0)).row());
            for (int side = 0; side < 2; ++side) {
                const DiffSide& s = side == 0 ? d.a : d.b;
                if (!s.region.valid()) {
                    continue;
                }
                QCOMPARE(view->hexView(side)->cursorOffset(), quint64(s.region.offset));
                const QModelIndex node = view->treeView(side)->currentIndex();
                QVERIFY(node.isValid());
                const quint64 nodeOffset =
                    node.data(model::StructureModel::OffsetRole).toULongLong();
                const quint64 nodeLength =
                    node.data(model::StructureModel::LengthRole).toULongLong();
                QVERIFY(nodeOffset <= s.region.offset);
                QVERIFY(s.region.offset < nodeOffset + std::max<quint64>(1, nodeLength));
            }
        }
    }

    // An empty tensor's bytes start where the next tensor's do: stepping onto it selects its
    // own node in the trees, not the other tensor's.
    void anEmptyTensorSelectsItsOwnNode() {
        writeTensors(dir_.filePath("empty-a.zt"), {{"a_empty", {0}, {}}, {"w", {4}, {1, 2, 3, 4}}});
        writeTensors(dir_.filePath("empty-b.zt"),
                     {{"a_empty", {0, 3}, {}}, {"w", {4}, {1, 2, 3, 4}}});
        MainWindow window;
        window.setInteractive(false);
        CompareView* view =
            compare(window, dir_.filePath("empty-a.zt"), dir_.filePath("empty-b.zt"));
        QVERIFY(view != nullptr);
        finish(window);
        auto* differences = view->comparison()->differences();
        int row = -1;
        for (int r = 0; r < view->filter()->rowCount(); ++r) {
            const Difference& d = differences->difference(
                view->filter()->mapToSource(view->filter()->index(r, 0)).row());
            if (d.path == "tensor/a_empty") {
                row = r;
                QCOMPARE(d.a.region.length, std::uint64_t{0});
            }
        }
        QVERIFY(row >= 0);
        view->differencesView()->setCurrentIndex(view->filter()->index(row, 0));
        for (int side = 0; side < 2; ++side) {
            const QString label = view->treeView(side)->currentIndex().data().toString();
            QVERIFY2(label.contains(QStringLiteral("a_empty")), qPrintable(label));
            QVERIFY2(!label.contains(QStringLiteral("w/")), qPrintable(label));
        }
    }

    // `strata --compare A B`: the compare window is the only window on screen.
    void compareOnlyShowsOneWindow() {
        MainWindow window;
        QPointer<CompareView> shown;
        QObject::connect(&window.comparisons(), &CompareController::shown,
                         [&shown](CompareView* view) { shown = view; });
        QVERIFY(startCompareOnly(window, dir_.filePath("a"), dir_.filePath("b")) != nullptr);
        finish(window);
        QVERIFY(shown != nullptr);
        QVERIFY(QTest::qWaitForWindowExposed(shown));
        QWidgetList visible;
        for (QWidget* w : QApplication::topLevelWidgets()) {
            if (w->isVisible() && w->isWindow()) {
                visible << w;
            }
        }
        QCOMPARE(visible.size(), 1);
        QCOMPARE(visible.front(), static_cast<QWidget*>(shown.data()));
        QVERIFY(!window.isVisible());
        shown->close();
    }

    // Alt+letter in the compare window reaches one control, and its menus (none today) one entry.
    void mnemonicsAreUnique() {
        MainWindow window;
        window.setInteractive(false);
        CompareView* view = compare(window, dir_.filePath("a"), dir_.filePath("b"));
        QVERIFY(view != nullptr);
        finish(window);
        const QStringList clashes = strata::test::mnemonicClashes(*view);
        QVERIFY2(clashes.isEmpty(), qPrintable(clashes.join(QLatin1Char('\n'))));
    }

    void kindFiltersHideRows() {
        MainWindow window;
        window.setInteractive(false);
        CompareView* view = compare(window, dir_.filePath("a"), dir_.filePath("b"));
        QVERIFY(view != nullptr);
        finish(window);
        view->kindFilter(int(DiffKind::Added))->setChecked(false);
        view->kindFilter(int(DiffKind::Removed))->setChecked(false);
        QCOMPARE(view->filter()->rowCount(), 1);
        QCOMPARE(view->filter()->index(0, 1).data().toString(), QStringLiteral("c/y"));
    }

    void theSameDatasetHasNoDifferences() {
        MainWindow window;
        window.setInteractive(false);
        CompareView* view = compare(window, dir_.filePath("a"), dir_.filePath("a"));
        QVERIFY(view != nullptr);
        finish(window);
        QCOMPARE(view->comparison()->differences()->rowCount(), 0);
        QVERIFY(view->statusLabel()->text().contains(QStringLiteral("same content")));
    }

    void sidesThatCannotBeComparedSaySo() {
        MainWindow window;
        window.setInteractive(false);
        QVERIFY(compare(window, dir_.filePath("a"), dir_.filePath("missing")) == nullptr);
        QVERIFY(window.lastError().contains(QStringLiteral("missing")));
        CompareView* view = compare(window, dir_.filePath("a"), dir_.filePath("raw.bin"));
        QVERIFY(view != nullptr);
        finish(window);
        QCOMPARE(view->comparison()->state(), model::Comparison::State::Failed);
        QVERIFY(view->statusLabel()->text().contains(QStringLiteral("cannot compare")));
    }

    // Review Changes: what Save would write against the files on disk, before saving.
    void reviewChangesShowsWhatSaveWouldWrite() {
        const QString path = dir_.filePath("review");
        writeFile(path + "/collections/c/meta/data.jsonl",
                  "{\"_id\":\"x\",\"v\":1}\n{\"_id\":\"y\",\"v\":2}\n");
        const QByteArray before = [&] {
            QFile f(path + "/collections/c/meta/data.jsonl");
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        }();
        MainWindow window;
        window.setInteractive(false);
        QVERIFY(window.openPath(path));
        QVERIFY(window.waitUntilIdle(30000));
        model::Document* document = window.currentView()->document();
        auto* editor = qobject_cast<model::ZdsEditor*>(document->editor());
        QVERIFY(editor != nullptr);
        QVERIFY(editor->loaded());
        model::ZdsTableModel* table = editor->table(0);
        QCOMPARE(
            model::replaceZdsDocument(document->undoStack(), table, 1, "{\"_id\":\"y\",\"v\":20}"),
            QString());
        QCOMPARE(model::deleteZdsDocuments(document->undoStack(), table, {0}), QString());

        QVERIFY(window.reviewChanges() != nullptr);
        QVERIFY(window.waitUntilIdle(30000));
        QVERIFY(window.waitUntilIdle(30000));  // the comparison the review started
        QCoreApplication::processEvents();
        const auto views = window.findChildren<CompareView*>();
        QCOMPARE(views.size(), 1);
        CompareView* view = views.front();
        QVERIFY(view->windowTitle().contains(QStringLiteral("Review changes")));
        // The side on disk is what the tab read, shared, not read again.
        QCOMPARE(view->comparison()->a()->opened(), document->opened());
        auto* differences = view->comparison()->differences();
        // How Save stores the collection (an index it adds) may show as stored differently.
        QCOMPARE(differences->rowCount() - differences->count(DiffKind::Encoding), 2);
        QCOMPARE(differences->count(DiffKind::Changed), 1);
        QCOMPARE(differences->count(DiffKind::Removed), 1);
        // Nothing was saved: the files and the document's state are as they were.
        QFile f(path + "/collections/c/meta/data.jsonl");
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), before);
        QVERIFY(document->isModified());
    }

    // Compare With… from a tab: A is the tab's document, shared (the same parsed state and
    // sources, nothing read again); B is opened by the job. Closing the tab leaves the
    // comparison's side whole.
    void theOpenTabIsSharedNotReadAgain() {
        MainWindow window;
        window.setInteractive(false);
        QVERIFY(window.openPath(dir_.filePath("a")));
        model::Document* tab = window.currentView()->document();
        const std::shared_ptr<const strata::OpenedDocument> opened = tab->opened();
        CompareView* shown = nullptr;
        const QMetaObject::Connection c =
            QObject::connect(&window.comparisons(), &CompareController::shown,
                             [&shown](CompareView* view) { shown = view; });
        window.comparisons().compareFiles(*tab, dir_.filePath("b"), {});
        finish(window);
        QObject::disconnect(c);
        QVERIFY(shown != nullptr);
        QCOMPARE(shown->comparison()->a()->opened(), opened);
        QVERIFY(shown->comparison()->a() != tab);
        QVERIFY(shown->comparison()->b()->opened() != opened);
        QCOMPARE(shown->comparison()->state(), model::Comparison::State::Completed);
        QVERIFY(shown->comparison()->summary().total() > 0);
        QVERIFY(window.closeTab(0));
        QCOMPARE(window.documentCount(), 0);
        QCOMPARE(shown->comparison()->a()->displayName(), QStringLiteral("a"));
        QVERIFY(shown->comparison()->a()->root() != nullptr);
    }

    void reviewWithoutAnEditorSaysSo() {
        MainWindow window;
        window.setInteractive(false);
        QVERIFY(window.openPath(dir_.filePath("raw.bin")));
        QVERIFY(window.reviewChanges() == nullptr);
        QVERIFY(window.lastError().contains(QStringLiteral("no editor")));
    }

private:
    QTemporaryDir dir_;
};

QTEST_MAIN(CompareViewTest)
#include "compare_view_test.moc"
