#include "launch.h"

#include <QApplication>
#include <QPixmap>
#include <QPointer>
#include <QTabWidget>

#include <cstdio>

#include "app/compare/compare_view.h"
#include "app/widgets/document_view.h"
#include "main_window.h"
#include "model/core/job.h"

namespace strata::gui {

bool showTab(MainWindow& window, const QString& name) {
    DocumentView* view = window.currentView();
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

model::Job* startCompareOnly(MainWindow& window, const QString& a, const QString& b) {
    // The main window is never shown: the comparison is the one window, and closing it quits.
    const QPointer<model::Job> opening = window.compareFiles(a, b);
    QObject::connect(opening, &model::Job::finished, [opening] {
        if (opening && opening->state() != model::Job::State::Finished) {
            std::fprintf(stderr, "strata: %s\n", qPrintable(opening->errorText()));
            QApplication::exit(1);  // the reason was shown
        }
    });
    return opening;
}

bool prepareScreenshot(MainWindow& window, const QStringList& paths, const QString& tab,
                       QString* error) {
    for (const QString& path : paths) {
        if (!window.openPath(path)) {
            *error = window.lastError();
            return false;
        }
    }
    const QString shown = tab.isEmpty() ? QString::fromLatin1(kScreenshotDefaultTab) : tab;
    if (window.currentView() != nullptr && !showTab(window, shown)) {
        *error = QStringLiteral("no tab called \"%1\"").arg(shown);
        return false;
    }
    return true;
}

int runScreenshot(const QString& output, const QStringList& paths, const QString& tab,
                  int timeoutMs) {
    MainWindow window;
    window.setInteractive(false);
    window.resize(1440, 900);  // the size of the pictures in the docs, whatever the screen
    window.show();
    QString error;
    if (!prepareScreenshot(window, paths, tab, &error)) {
        std::fprintf(stderr, "strata: %s\n", qPrintable(error));
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

int runCompareScreenshot(const QString& output, const QString& a, const QString& b, int timeoutMs) {
    MainWindow window;
    window.setInteractive(false);
    QPointer<CompareView> view;
    QObject::connect(&window.comparisons(), &CompareController::shown,
                     [&view](CompareView* shown) { view = shown; });
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

}  // namespace strata::gui
