// What `strata` runs besides the ordinary window, as functions tests can call: `--compare A B`
// (the compare window alone) and `--screenshot` (a PNG of the window or the compare view).
#pragma once

#include <QSize>
#include <QString>
#include <QStringList>

namespace strata::model {
class Job;
}

namespace strata::gui {

class MainWindow;

// The tab `--screenshot` shows when no `--tab` is given: Hex, where the file map, the
// validator's marks and the structure meet the bytes (a format opens on its own tab otherwise).
inline constexpr const char* kScreenshotDefaultTab = "Hex";

// Shows the centre tab called `name` ("Hex", "Records"; case and & ignored) of the window's
// current document; false when there is no such tab.
bool showTab(MainWindow& window, const QString& name);

// `strata --compare A B`: opens both as a job in `window`, which stays hidden, and shows the
// comparison in its own window, the only one on screen (closing it quits). When either side
// cannot be opened the reason goes to stderr and the event loop ends with exit code 1.
model::Job* startCompareOnly(MainWindow& window, const QString& a, const QString& b);

// The size of `--screenshot` pictures unless --screenshot-size says otherwise.
inline constexpr QSize kScreenshotDefaultSize(1440, 900);

// "1366x768" as a size; an invalid QSize when it is not two positive numbers.
QSize parseScreenshotSize(const QString& text);

// Opens `paths` in `window` and shows the tab `tab` of the last (empty: kScreenshotDefaultTab);
// false with the reason in `error` when a path cannot be opened or has no such tab.
bool prepareScreenshot(MainWindow& window, const QStringList& paths, const QString& tab,
                       QString* error);
// `strata --screenshot OUT PATH...`: opens the paths in a window of `size`, shows the tab `tab`
// (empty: kScreenshotDefaultTab), waits for jobs and writes the PNG. No path: the start page; a
// plain folder: the Browser once its scan finished. Returns the exit code; problems go to
// stderr.
int runScreenshot(const QString& output, const QStringList& paths, const QString& tab,
                  int timeoutMs, QSize size = kScreenshotDefaultSize);
// `strata --compare A B --screenshot OUT`: the compare view once the comparison has finished,
// on its first difference.
int runCompareScreenshot(const QString& output, const QString& a, const QString& b, int timeoutMs,
                         QSize size = kScreenshotDefaultSize);
// `strata --repair PATH --screenshot OUT`: repairs PATH into a temporary folder as Repair…
// does (without its questions) and pictures the comparison of the damaged file with the
// repaired copy, on its first difference.
int runRepairScreenshot(const QString& output, const QString& path, int timeoutMs,
                        QSize size = kScreenshotDefaultSize);

}  // namespace strata::gui
