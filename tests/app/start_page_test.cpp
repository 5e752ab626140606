// The empty window's start page and the main toolbar: the start page shows while no document is
// open and comes back when the last tab closes; it lists recent files (Remove from List takes
// one off) and the bundled samples, and activating an entry opens it; the toolbar carries the
// common actions, each with an icon, and fits a 1366-pixel-wide window.
#include <QAction>
#include <QListWidget>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QToolBar>

#include "app/gui/main_window.h"
#include "app/gui/start_page.h"
#include "app/widgets/document_view.h"
#include "model/core/document.h"

using namespace strata::gui;

namespace {

bool listHolds(const QListWidget* list, const QString& location) {
    for (int i = 0; i < list->count(); ++i) {
        if (list->item(i)->data(Qt::UserRole).toString() == location) {
            return true;
        }
    }
    return false;
}

}  // namespace

class StartPageTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("StrataTest"));
        QCoreApplication::setApplicationName(QStringLiteral("start_page_test"));
        QVERIFY(dir_.isValid());
        file_ = dir_.filePath(QStringLiteral("bytes.bin"));
        QFile f(file_);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("some bytes");
    }

    void showsWhileNothingIsOpen() {
        MainWindow window;
        window.setInteractive(false);
        window.show();
        auto* page = window.findChild<StartPage*>();
        QVERIFY(page != nullptr);
        QVERIFY(page->isVisible());
        QVERIFY(window.openPath(file_));
        QVERIFY(!page->isVisible());
        QVERIFY(window.closeTab(0));
        QVERIFY(page->isVisible());
    }

    void listsRecentFilesAndRemovesThem() {
        MainWindow window;
        window.setInteractive(false);
        QVERIFY(window.openPath(file_));
        auto* page = window.findChild<StartPage*>();
        const QString absolute = QFileInfo(file_).absoluteFilePath();
        QVERIFY(listHolds(page->recentList(), absolute));
        window.opener().forgetRecent(absolute);
        QVERIFY(!listHolds(page->recentList(), absolute));
        QVERIFY(!window.opener().recentFiles().contains(absolute));
    }

    void opensABundledSample() {
        const QStringList samples = StartPage::sampleFiles();
        QVERIFY(!samples.isEmpty());
        MainWindow window;
        window.setInteractive(false);
        auto* page = window.findChild<StartPage*>();
        QCOMPARE(page->sampleList()->count(), samples.size());
        QListWidgetItem* first = page->sampleList()->item(0);
        QVERIFY(!first->icon().isNull());
        emit page->sampleList()->itemActivated(first);
        QCOMPARE(window.documentCount(), 1);
        QCOMPARE(window.currentView()->document()->path(), samples.front());
    }

    void theToolbarCarriesTheCommonActions() {
        MainWindow window;
        window.resize(1366, 768);
        auto* bar = window.findChild<QToolBar*>(QStringLiteral("MainToolBar"));
        QVERIFY(bar != nullptr);
        QStringList texts;
        for (QAction* action : bar->actions()) {
            if (!action->isSeparator()) {
                QVERIFY2(!action->icon().isNull(), qPrintable(action->text()));
                texts << action->text();
            }
        }
        for (const char* wanted : {"&Open File…", "&Validate", "&Find…", "Go Bac&k"}) {
            QVERIFY2(texts.contains(QString::fromUtf8(wanted)), qPrintable(texts.join('|')));
        }
        QCOMPARE(texts.size(), 9);
        QVERIFY2(bar->sizeHint().width() <= 1366,
                 qPrintable(QString::number(bar->sizeHint().width())));
        // View > Main Toolbar hides and shows it.
        QVERIFY(bar->toggleViewAction() != nullptr);
    }

private:
    QTemporaryDir dir_;
    QString file_;
};

QTEST_MAIN(StartPageTest)
#include "start_page_test.moc"
