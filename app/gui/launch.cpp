#include "launch.h"

#include <QApplication>
#include <QFileInfo>
#include <QPixmap>
#include <QPointer>
#include <QRegularExpression>
#include <QTabWidget>
#include <QTemporaryDir>

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

QSize parseScreenshotSize(const QString& text) {
    static const QRegularExpression pattern(
        QStringLiteral("^\\s*(\\d{2,5})\\s*[xX×]\\s*(\\d{2,5})\\s*$"));
    const QRegularExpressionMatch match = pattern.match(text);
    return match.hasMatch() ? QSize(match.captured(1).toInt(), match.captured(2).toInt()) : QSize();
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

namespace {

// Shows `window` at exactly `size`, the size of the pictures in the docs, whatever the screen:
// resized after it is shown, since showing fits a window to its screen (the offscreen
// platform's is 800×600).
void showAtSize(QWidget& window, QSize size) {
    window.resize(size);
    window.show();
    QCoreApplication::processEvents();
    window.resize(size);
}

bool savePicture(QWidget& widget, const QString& output) {
    const QPixmap shot = widget.grab();
    if (shot.isNull() || !shot.save(output, "PNG")) {
        std::fprintf(stderr, "strata: could not write %s\n", qPrintable(output));
        return false;
    }
    return true;
}

// The compare view `window` showed last, sized, on its first difference, saved to `output`.
int saveComparison(const QPointer<CompareView>& view, MainWindow& window, const QString& output,
                   QSize size) {
    if (view == nullptr) {
        std::fprintf(stderr, "strata: %s\n", qPrintable(window.lastError()));
        return 1;
    }
    showAtSize(*view, size);
    QCoreApplication::processEvents();
    QCoreApplication::processEvents();
    view->nextDifference();
    QCoreApplication::processEvents();
    return savePicture(*view, output) ? 0 : 1;
}

}  // namespace

int runScreenshot(const QString& output, const QStringList& paths, const QString& tab,
                  int timeoutMs, QSize size) {
    MainWindow window;
    window.setInteractive(false);
    showAtSize(window, size);
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
    return savePicture(window, output) ? 0 : 1;
}

int runCompareScreenshot(const QString& output, const QString& a, const QString& b, int timeoutMs,
                         QSize size) {
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
    return saveComparison(view, window, output, size);
}

int runRepairScreenshot(const QString& output, const QString& path, int timeoutMs, QSize size) {
    MainWindow window;
    window.setInteractive(false);  // the plan is written without asking
    showAtSize(window, size);
    QPointer<CompareView> view;
    QObject::connect(&window.comparisons(), &CompareController::shown,
                     [&view](CompareView* shown) { view = shown; });
    const QTemporaryDir scratch;
    if (!window.openPath(path) || window.currentView() == nullptr) {
        std::fprintf(stderr, "strata: %s\n", qPrintable(window.lastError()));
        return 1;
    }
    const QString target =
        scratch.filePath(QStringLiteral("repaired-") + QFileInfo(path).fileName());
    if (window.repairCurrent(target) == nullptr) {
        std::fprintf(stderr, "strata: %s\n", qPrintable(window.lastError()));
        return 1;
    }
    // The plan, the repair, the copy's open and the comparison run one after another.
    if (!window.waitUntilIdle(timeoutMs)) {
        std::fprintf(stderr, "strata: still repairing after %d ms; taking the shot anyway\n",
                     timeoutMs);
    }
    return saveComparison(view, window, output, size);
}

}  // namespace strata::gui
