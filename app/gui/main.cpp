// Strata's entry point: command line, single-instance hand-over, and --screenshot for
// headless runs (QT_QPA_PLATFORM=offscreen).
#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QIcon>

#include <cstdio>

#include "app/widgets/font_fallback.h"
#include "launch.h"
#include "main_window.h"
#include "single_instance.h"

int main(int argc, char* argv[]) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Strata"));
    QApplication::setApplicationName(QStringLiteral("Strata"));
    QApplication::setApplicationVersion(QStringLiteral(STRATA_VERSION));
    QApplication::setDesktopFileName(QStringLiteral(STRATA_APP_ID));
    strata::gui::installFontFallbacks();
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
                                "(Records, Tensors, …) instead of Hex."),
        QStringLiteral("name"));
    const QCommandLineOption compare(
        QStringLiteral("compare"),
        QApplication::translate("main",
                                "Compare the two paths given (files or folders of one format) "
                                "in a compare view."));
    const QCommandLineOption size(
        QStringLiteral("screenshot-size"),
        QApplication::translate("main", "With --screenshot: the window's size, as 1366x768."),
        QStringLiteral("WxH"), QStringLiteral("1440x900"));
    const QCommandLineOption repair(
        QStringLiteral("repair"),
        QApplication::translate("main",
                                "With --screenshot: repair the one path given into a temporary "
                                "folder and picture the damaged file beside the repaired copy."));
    parser.addOptions({newInstance, screenshot, timeout, tab, compare, size, repair});
    parser.process(app);
    const QStringList paths = parser.positionalArguments();
    const QSize shotSize = strata::gui::parseScreenshotSize(parser.value(size));
    if (!shotSize.isValid()) {
        std::fprintf(stderr, "strata: --screenshot-size takes WIDTHxHEIGHT, as 1366x768\n");
        return 2;
    }
    if (parser.isSet(repair) && (!parser.isSet(screenshot) || paths.size() != 1)) {
        std::fprintf(stderr, "strata: --repair takes --screenshot and one path\n");
        return 2;
    }
    if (parser.isSet(repair)) {
        return strata::gui::runRepairScreenshot(parser.value(screenshot), paths[0],
                                                parser.value(timeout).toInt(), shotSize);
    }
    if (parser.isSet(compare) && paths.size() != 2) {
        std::fprintf(stderr, "strata: --compare takes two paths, A and B\n");
        return 2;
    }
    if (parser.isSet(compare) && parser.isSet(screenshot)) {
        return strata::gui::runCompareScreenshot(parser.value(screenshot), paths[0], paths[1],
                                                 parser.value(timeout).toInt(), shotSize);
    }

    if (parser.isSet(screenshot)) {
        return strata::gui::runScreenshot(parser.value(screenshot), paths, parser.value(tab),
                                          parser.value(timeout).toInt(), shotSize);
    }

    if (parser.isSet(compare)) {
        // A comparison opens in this process, in its own window, the only one shown.
        strata::gui::MainWindow window;
        strata::gui::startCompareOnly(window, paths[0], paths[1]);
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
