// Strata's entry point: command line, single-instance hand-over, and --screenshot for
// headless runs (QT_QPA_PLATFORM=offscreen).
#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QIcon>
#include <QPixmap>
#include <QPointer>
#include <QTabWidget>
#include <QTextStream>

#include <cstdio>

#include "app/compare/compare_view.h"
#include "app/widgets/document_view.h"
#include "main_window.h"
#include "model/core/job.h"
#include "single_instance.h"

namespace {

// Shows the centre tab called `name` ("Records", "Tensors") of the current document.
bool showTab(strata::gui::MainWindow& window, const QString& name) {
    strata::gui::DocumentView* view = window.currentView();
    if (view == nullptr) {
        return false;
    }
    QTabWidget* tabs = view->centreTabs();
    for (int i = 0; i < tabs->count(); ++i) {
        if (tabs->tabText(i).remove(QLatin1Char('&')).compare(name, Qt::CaseInsensitive) == 0) {
            tabs->setCurrentIndex(i);
            return true;
        }
    }
    return false;
}

int runScreenshot(const QString& output, const QStringList& paths, const QString& tab,
                  int timeoutMs) {
    strata::gui::MainWindow window;
    window.setInteractive(false);
    window.resize(1440, 900);
    window.show();
    for (const QString& path : paths) {
        if (!window.openPath(path)) {
            std::fprintf(stderr, "strata: %s\n", qPrintable(window.lastError()));
            return 1;
        }
    }
    if (!tab.isEmpty() && !showTab(window, tab)) {
        std::fprintf(stderr, "strata: no tab called \"%s\"\n", qPrintable(tab));
        return 1;
    }
    // Showing a tab can start its jobs (a chart, statistics): wait for them too.
    if (!window.waitUntilIdle(timeoutMs)) {
        std::fprintf(stderr, "strata: jobs still running after %d ms; taking the shot anyway\n",
                     timeoutMs);
    }
    const QPixmap shot = window.grab();
    if (shot.isNull() || !shot.save(output, "PNG")) {
        std::fprintf(stderr, "strata: could not write %s\n", qPrintable(output));
        return 1;
    }
    return 0;
}

// --compare A B --screenshot FILE: the compare view once the comparison has finished, on its
// first difference.
int runCompareScreenshot(const QString& output, const QString& a, const QString& b, int timeoutMs) {
    strata::gui::MainWindow window;
    window.setInteractive(false);
    QPointer<strata::gui::CompareView> view;
    QObject::connect(&window.comparisons(), &strata::gui::CompareController::shown,
                     [&view](strata::gui::CompareView* shown) { view = shown; });
    window.compareFiles(a, b);
    if (!window.waitUntilIdle(timeoutMs) && view != nullptr) {
        std::fprintf(stderr, "strata: still comparing after %d ms; taking the shot anyway\n",
                     timeoutMs);
    }
    if (view == nullptr) {
        std::fprintf(stderr, "strata: %s\n", qPrintable(window.lastError()));
        return 1;
    }
    view->resize(1440, 900);
    QCoreApplication::processEvents();
    QCoreApplication::processEvents();
    view->nextDifference();
    QCoreApplication::processEvents();
    const QPixmap shot = view->grab();
    if (shot.isNull() || !shot.save(output, "PNG")) {
        std::fprintf(stderr, "strata: could not write %s\n", qPrintable(output));
        return 1;
    }
    return 0;
}

}  // namespace

int main(int argc, char* argv[]) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Strata"));
    QApplication::setApplicationName(QStringLiteral("Strata"));
    QApplication::setApplicationVersion(QStringLiteral(STRATA_VERSION));
    QApplication::setDesktopFileName(QStringLiteral(STRATA_APP_ID));
    // The installed theme icon when there is one, else the copy compiled into the binary.
    QApplication::setWindowIcon(
        QIcon::fromTheme(QStringLiteral(STRATA_APP_ID), QIcon(QStringLiteral(STRATA_APP_ICON))));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QApplication::translate("main",
                                "Inspector and editor for ZS, ZDS, Shardlake, OZDF and "
                                "zTensor files."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(
        QStringLiteral("paths"),
        QApplication::translate("main",
                                "Files or folders to open, or http://, https:// and s3:// URLs "
                                "of files (opened read-only)."),
        QStringLiteral("[paths or URLs...]"));
    const QCommandLineOption newInstance(
        QStringLiteral("new-instance"),
        QApplication::translate("main", "Open a new window even when Strata is running."));
    const QCommandLineOption screenshot(
        QStringLiteral("screenshot"),
        QApplication::translate("main",
                                "Open the paths, wait for loading and jobs, save a PNG of the "
                                "window to <file> and exit."),
        QStringLiteral("file"));
    const QCommandLineOption timeout(
        QStringLiteral("screenshot-timeout"),
        QApplication::translate("main", "Longest wait for jobs before the screenshot (ms)."),
        QStringLiteral("ms"), QStringLiteral("60000"));
    const QCommandLineOption tab(
        QStringLiteral("tab"),
        QApplication::translate("main",
                                "With --screenshot: show the document's tab called <name> "
                                "(Hex, Records, Tensors, …) first."),
        QStringLiteral("name"));
    const QCommandLineOption compare(
        QStringLiteral("compare"),
        QApplication::translate("main",
                                "Compare the two paths given (files or folders of one format) "
                                "in a compare view."));
    parser.addOptions({newInstance, screenshot, timeout, tab, compare});
    parser.process(app);
    const QStringList paths = parser.positionalArguments();
    if (parser.isSet(compare) && paths.size() != 2) {
        std::fprintf(stderr, "strata: --compare takes two paths, A and B\n");
        return 2;
    }
    if (parser.isSet(compare) && parser.isSet(screenshot)) {
        return runCompareScreenshot(parser.value(screenshot), paths[0], paths[1],
                                    parser.value(timeout).toInt());
    }

    if (parser.isSet(screenshot)) {
        return runScreenshot(parser.value(screenshot), paths, parser.value(tab),
                             parser.value(timeout).toInt());
    }

    if (parser.isSet(compare)) {
        // A comparison opens in this process, in its own window (the main window stays hidden:
        // the comparison is the one window shown, and closing it quits).
        strata::gui::MainWindow window;
        const QPointer<strata::model::Job> opening = window.compareFiles(paths[0], paths[1]);
        QObject::connect(opening, &strata::model::Job::finished, [opening] {
            if (opening && opening->state() != strata::model::Job::State::Finished) {
                std::fprintf(stderr, "strata: %s\n", qPrintable(opening->errorText()));
                QApplication::exit(1);  // the reason was shown
            }
        });
        return QApplication::exec();
    }

    strata::gui::SingleInstance instance;
    if (!parser.isSet(newInstance)) {
        if (instance.sendToRunning(paths)) {
            return 0;  // the running window opens them
        }
        instance.listen();
    }

    strata::gui::MainWindow window;
    window.show();
    QObject::connect(&instance, &strata::gui::SingleInstance::pathsReceived, &window,
                     [&window](const QStringList& received) {
                         window.openPaths(received);
                         window.raiseWindow();
                     });
    window.openPaths(paths);
    return QApplication::exec();
}
