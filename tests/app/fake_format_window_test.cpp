// A format registered from outside (tests/support/fake_format.h) in a main window of its own:
// it opens in a tab with its views, validates, offers its builder under File > New, compares,
// and is refused by Repair with the format named, all through the registries the window was
// given (no shared file names it).
#include <QAction>
#include <QCoreApplication>
#include <QFile>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include "app/compare/compare_view.h"
#include "app/gui/main_window.h"
#include "app/widgets/document_view.h"
#include "fake_format.h"
#include "formats/registry/format_registry.h"
#include "formats/registry/raw_binary_format.h"
#include "model/compare/comparison.h"
#include "model/core/diagnostics_model.h"
#include "model/core/document.h"

using namespace strata::gui;

namespace {

QAction* menuAction(QMenuBar* bar, const QString& menu, const QString& text) {
    for (QAction* top : bar->actions()) {
        if (top->text() != menu || top->menu() == nullptr) {
            continue;
        }
        for (QAction* action : top->menu()->actions()) {
            if (action->menu() == nullptr) {
                continue;
            }
            for (QAction* inner : action->menu()->actions()) {
                if (inner->text() == text) {
                    return inner;
                }
            }
        }
    }
    return nullptr;
}

}  // namespace

class FakeFormatWindowTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("StrataTest"));
        QCoreApplication::setApplicationName(QStringLiteral("fake_format_window_test"));
        QSettings().clear();
        QVERIFY(dir_.isValid());
        formats_.add(std::make_unique<strata::test::FakeFormat>());
        formats_.add(std::make_unique<strata::RawBinaryFormat>());
        views_.add(strata::test::kFakeFormat, [](DocumentView& view) {
            view.centreTabs()->addTab(new QLabel(QStringLiteral("fake records")),
                                      QStringLiteral("Records"));
        });
        views_.addNewFile(strata::test::kFakeFormat, QStringLiteral("&Fake File"),
                          [this](QWidget*, strata::model::JobRunner&,
                                 std::function<void(const QString&)> created) {
                              created(write(QStringLiteral("new.fake"), "FAKE\nok\nbad\n"));
                          });
    }

    void opensValidatesAndShowsItsViews() {
        MainWindow window(formats_, views_);
        window.setInteractive(false);
        window.setAutoValidate(true);
        QVERIFY(window.openPath(write(QStringLiteral("a.fake"), "FAKE\nok one\nbroken\n")));
        DocumentView* view = window.currentView();
        QCOMPARE(view->document()->formatName(), QStringLiteral("Fake"));
        QVERIFY(tabTexts(*view).contains(QStringLiteral("Records")));
        QVERIFY(window.waitUntilIdle(30000));
        QTRY_COMPARE(view->document()->diagnostics()->countOf(strata::Severity::Error), 1);
    }

    void itsBuilderIsUnderFileNew() {
        MainWindow window(formats_, views_);
        window.setInteractive(false);
        QAction* action =
            menuAction(window.menuBar(), QStringLiteral("&File"), QStringLiteral("&Fake File"));
        QVERIFY(action != nullptr);
        action->trigger();
        QCOMPARE(window.documentCount(), 1);
        QCOMPARE(window.currentView()->document()->displayName(), QStringLiteral("new.fake"));
        QCOMPARE(window.currentView()->document()->formatName(), QStringLiteral("Fake"));
    }

    void comparesWithItsDiffer() {
        MainWindow window(formats_, views_);
        window.setInteractive(false);
        const QString a = write(QStringLiteral("c.fake"), "FAKE\nok one\nok two\n");
        const QString b = write(QStringLiteral("d.fake"), "FAKE\nok one\nok 2\nok three\n");
        CompareView* compare = nullptr;
        connect(&window.comparisons(), &CompareController::shown,
                [&compare](CompareView* view) { compare = view; });
        window.compareFiles(a, b);
        QVERIFY(window.waitUntilIdle(30000));
        QVERIFY(compare != nullptr);
        QCOMPARE(compare->comparison()->state(), strata::model::Comparison::State::Completed);
        QCOMPARE(compare->comparison()->differences()->rowCount(), 2);  // changed, added
    }

    void repairIsRefusedNamingTheFormat() {
        MainWindow window(formats_, views_);
        window.setInteractive(false);
        QVERIFY(window.openPath(write(QStringLiteral("e.fake"), "FAKE\nbroken\n")));
        QVERIFY(window.repairCurrent() == nullptr);
        QVERIFY2(window.lastError().contains(QStringLiteral("Repairing Fake is not supported")),
                 qPrintable(window.lastError()));
    }

private:
    QString write(const QString& name, const QByteArray& bytes) {
        const QString path = dir_.filePath(name);
        QFile f(path);
        if (f.open(QIODevice::WriteOnly)) {
            f.write(bytes);
        }
        return path;
    }

    static QStringList tabTexts(DocumentView& view) {
        QStringList texts;
        for (int i = 0; i < view.centreTabs()->count(); ++i) {
            texts << view.centreTabs()->tabText(i);
        }
        return texts;
    }

    QTemporaryDir dir_;
    strata::FormatRegistry formats_;
    FormatViews views_;
};

QTEST_MAIN(FakeFormatWindowTest)
#include "fake_format_window_test.moc"
