// Windows on a 1366×768 screen (the offscreen platform configured with one): the first main
// window takes at most 90% of the screen, centred; a saved geometry from a bigger screen comes
// back inside this one; the docks keep their size from one launch to the next; the compare
// window and the dialogs fit. The arithmetic of fitting is checked for other screens too.
#include <QApplication>
#include <QDockWidget>
#include <QFile>
#include <QHeaderView>
#include <QScreen>
#include <QSettings>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolBar>
#include <QToolButton>
#include <QTreeView>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "app/gui/launch.h"
#include "app/gui/main_window.h"
#include "app/gui/open_url_dialog.h"
#include "app/widgets/document_view.h"
#include "app/widgets/goto_offset_dialog.h"
#include "app/widgets/screen_fit.h"
#include "app/zds/zds_documents_tab.h"
#include "app/zs/new_zs_file_dialog.h"
#include "model/core/remote_access.h"
#include "small_screen.h"
#include "test_corpus.h"

using namespace strata::gui;

namespace {

constexpr QRect kScreen(0, 0, 1366, 768);

QString shown(const QRect& r) {
    return QStringLiteral("%1,%2 %3×%4").arg(r.x()).arg(r.y()).arg(r.width()).arg(r.height());
}

QDockWidget* dockNamed(MainWindow& window, const char* name) {
    return window.findChild<QDockWidget*>(QString::fromLatin1(name));
}

// One launch of the app: a window shown, `during` run, closed (which saves its settings).
template <typename F>
void launch(F during) {
    MainWindow window;
    window.setInteractive(false);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QCoreApplication::processEvents();
    during(window);
    QCoreApplication::processEvents();
    QVERIFY(window.close());
}

}  // namespace

class WindowGeometryTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("StrataTest"));
        QCoreApplication::setApplicationName(QStringLiteral("window_geometry_test"));
        QCOMPARE(QGuiApplication::primaryScreen()->availableGeometry(), kScreen);
    }

    void init() { QSettings().clear(); }

    void firstWindowTakesAtMostNinetyPercentCentred() {
        const QRect small = firstWindowGeometry(kScreen, QSize(1440, 900));
        QCOMPARE(small.size(), QSize(1229, 691));
        QCOMPARE(small.center(), kScreen.center());
        // A big screen gives the preferred size, centred.
        const QRect big(0, 0, 1920, 1080);
        const QRect onBig = firstWindowGeometry(big, QSize(1440, 900));
        QCOMPARE(onBig.size(), QSize(1440, 900));
        QCOMPARE(onBig.center(), big.center());
        // A second monitor to the right, with a panel on top.
        const QRect right(1920, 32, 1280, 992);
        const QRect onRight = firstWindowGeometry(right, QSize(1440, 900));
        QVERIFY(right.contains(onRight));
        QCOMPARE(onRight.width(), 1152);
        QCOMPARE(onRight.center(), right.center());
        // A minimum larger than 90% wins, and the window still starts on the screen.
        const QRect tight =
            firstWindowGeometry(QRect(0, 0, 800, 600), QSize(1440, 900), QSize(790, 590));
        QCOMPARE(tight.size(), QSize(790, 590));
        QVERIFY(QRect(0, 0, 800, 600).contains(tight));
    }

    void savedGeometryIsClampedToTheScreen() {
        // From a 1920×1080 monitor: shrunk and moved onto the laptop's screen.
        QCOMPARE(clampedToScreen(QRect(300, 100, 1600, 1000), kScreen), kScreen);
        const QRect moved = clampedToScreen(QRect(1200, 700, 800, 500), kScreen);
        QCOMPARE(moved.size(), QSize(800, 500));
        QVERIFY(kScreen.contains(moved));
        const QRect offLeft = clampedToScreen(QRect(-500, -40, 800, 500), kScreen);
        QCOMPARE(offLeft.topLeft(), QPoint(0, 0));
        // Already inside: left alone.
        QCOMPARE(clampedToScreen(QRect(10, 20, 600, 400), kScreen), QRect(10, 20, 600, 400));
    }

    void firstMainWindowFitsTheScreen() {
        MainWindow window;
        const QRect g = window.geometry();
        QVERIFY2(kScreen.contains(g), qPrintable(shown(g)));
        QVERIFY(g.width() <= 1229 && g.height() <= 691);
        QVERIFY(qAbs(g.center().x() - kScreen.center().x()) <= 1);
        QVERIFY(qAbs(g.center().y() - kScreen.center().y()) <= 1);
    }

    // Saved on a bigger screen, restored on this one: inside it, and the docks as they were.
    void restoredWindowComesBackInsideTheScreen() {
        launch([](MainWindow& window) {
            window.setGeometry(400, 300, 1800, 1000);  // as a 1920×1080 monitor allowed
        });
        MainWindow window;
        QVERIFY2(kScreen.contains(window.geometry()), qPrintable(shown(window.geometry())));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY2(kScreen.contains(window.frameGeometry()),
                 qPrintable(shown(window.frameGeometry())));
    }

    // The diagnostics dock grew by itself from one launch to the next; it keeps its height now.
    void docksKeepTheirSizeBetweenLaunches() {
        int set = 0;
        launch([&set](MainWindow& window) {
            QDockWidget* dock = dockNamed(window, "DiagnosticsDock");
            window.resizeDocks({dock}, {180}, Qt::Vertical);
            QCoreApplication::processEvents();
            set = dock->height();
        });
        QVERIFY(set > 0);
        int second = 0;
        int third = 0;
        launch([&second](MainWindow& window) {
            second = dockNamed(window, "DiagnosticsDock")->height();
        });
        launch([&third](MainWindow& window) {
            third = dockNamed(window, "DiagnosticsDock")->height();
        });
        QCOMPARE(second, set);
        QCOMPARE(third, set);
    }

    // The default window on this screen shows every action of the ZDS toolbar: none is behind
    // the toolbar's overflow button (it hid Index entry, Dataset and the document count).
    void zdsToolbarShowsEveryAction() {
        if (!std::filesystem::exists(strata::test::corpusRoot() / "zds")) {
            QSKIP("the conformance corpus is not there (set STRATA_CORPUS_DIR)");
        }
        MainWindow window;
        window.setInteractive(false);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const auto path = strata::test::corpusRoot() / "zds/valid/jsonl_two_collections";
        QVERIFY(window.openPath(QString::fromStdString(path.string())));
        auto* tab = window.currentView()->findChild<ZdsDocumentsTab*>();
        QVERIFY(tab != nullptr);
        window.currentView()->centreTabs()->setCurrentWidget(tab);
        QVERIFY(window.waitUntilIdle(30000));
        QToolBar* bar = tab->toolBar();
        QVERIFY(bar->isVisible());
        auto* overflow = bar->findChild<QToolButton*>(QStringLiteral("qt_toolbar_ext_button"));
        QVERIFY(overflow != nullptr);
        QVERIFY2(!overflow->isVisible(), qPrintable(QStringLiteral("toolbar %1 px wide, needs %2")
                                                        .arg(bar->width())
                                                        .arg(bar->sizeHint().width())));
        for (QAction* action : bar->actions()) {
            if (action->isSeparator() || !action->isVisible()) {
                continue;
            }
            QWidget* widget = bar->widgetForAction(action);
            QVERIFY2(widget != nullptr && widget->isVisible(), qPrintable(action->text()));
            QVERIFY2(bar->rect().contains(widget->geometry()), qPrintable(action->text()));
        }
    }

    // The Properties pane shows its Offset and Size columns whole in the default window.
    void propertiesShowOffsetAndSize() {
        if (!std::filesystem::exists(strata::test::corpusRoot() / "zs")) {
            QSKIP("the conformance corpus is not there (set STRATA_CORPUS_DIR)");
        }
        MainWindow window;
        window.setInteractive(false);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const auto path = strata::test::corpusRoot() / "zs/valid/codec-none.zs";
        QVERIFY(window.openPath(QString::fromStdString(path.string())));
        DocumentView* view = window.currentView();
        view->centreTabs()->setCurrentIndex(0);
        QTreeView* tree = view->findChild<QTreeView*>();
        QVERIFY(tree != nullptr);
        tree->setCurrentIndex(tree->model()->index(0, 0));  // the file: fields with bytes
        QVERIFY(window.waitUntilIdle(30000));
        QTableWidget* properties = view->propertiesTable();
        QVERIFY(properties->rowCount() > 0);
        const int visible = properties->viewport()->width();
        for (int column : {2, 3}) {
            const int left = properties->columnViewportPosition(column);
            const int right = left + properties->columnWidth(column);
            QVERIFY2(left >= 0 && right <= visible,
                     qPrintable(QStringLiteral("column %1 at %2..%3 of %4")
                                    .arg(properties->horizontalHeaderItem(column)->text())
                                    .arg(left)
                                    .arg(right)
                                    .arg(visible)));
            QVERIFY(properties->columnWidth(column) >=
                    properties->horizontalHeader()->sectionSizeHint(column) - 1);
        }
    }

    // strata --screenshot shows the Hex tab (a ZS file opens on Records), or the tab asked for.
    void screenshotShowsHexUnlessAskedOtherwise() {
        if (!std::filesystem::exists(strata::test::corpusRoot() / "zs")) {
            QSKIP("the conformance corpus is not there (set STRATA_CORPUS_DIR)");
        }
        const QString path = QString::fromStdString(
            (strata::test::corpusRoot() / "zs/valid/codec-none.zs").string());
        const auto currentTab = [](MainWindow& window) {
            QTabWidget* tabs = window.currentView()->centreTabs();
            return tabs->tabText(tabs->currentIndex()).remove(QLatin1Char('&'));
        };
        QString error;
        MainWindow plain;
        plain.setInteractive(false);
        QVERIFY2(prepareScreenshot(plain, {path}, {}, &error), qPrintable(error));
        QCOMPARE(currentTab(plain), QStringLiteral("Hex"));
        MainWindow records;
        records.setInteractive(false);
        QVERIFY2(prepareScreenshot(records, {path}, QStringLiteral("records"), &error),
                 qPrintable(error));
        QCOMPARE(currentTab(records), QStringLiteral("Records"));
        MainWindow unknown;
        unknown.setInteractive(false);
        QVERIFY(!prepareScreenshot(unknown, {path}, QStringLiteral("Nope"), &error));
        QVERIFY(error.contains(QStringLiteral("Nope")));
        QVERIFY(plain.waitUntilIdle(30000));
    }

    // Whatever was saved, the window can be made as small as a 1366×768 screen, and the
    // dialogs open no larger than it.
    void windowsAndDialogsFitTheSmallestScreen() {
        MainWindow window;
        const QSize minimum = window.minimumSizeHint();
        QVERIFY2(minimum.width() <= 1366 && minimum.height() <= 768,
                 qPrintable(QStringLiteral("%1×%2").arg(minimum.width()).arg(minimum.height())));
        GoToOffsetDialog goTo(0, 4096, &window);
        OpenUrlDialog openUrl({}, strata::model::RemoteOpenSettings{}, &window);
        NewZsFileDialog newZs(&window);
        for (QWidget* dialog : QList<QWidget*>{&goTo, &openUrl, &newZs}) {
            const QSize hint = dialog->sizeHint().expandedTo(dialog->minimumSizeHint());
            QVERIFY2(hint.width() <= 1366 && hint.height() <= 768,
                     qPrintable(QStringLiteral("%1: %2×%3")
                                    .arg(QString::fromLatin1(dialog->metaObject()->className()))
                                    .arg(hint.width())
                                    .arg(hint.height())));
        }
    }
};

// On one 1366×768 screen, set before the application starts.
int main(int argc, char* argv[]) {
    strata::test::useSmallOffscreenScreen("window-geometry");
    QApplication app(argc, argv);
    WindowGeometryTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "window_geometry_test.moc"
