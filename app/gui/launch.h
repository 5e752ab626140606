// What `strata` runs besides the ordinary window, as functions tests can call: `--compare A B`
// (the compare window alone) and `--screenshot` (a PNG of the window or the compare view).
#pragma once

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

// Opens `paths` in `window` and shows the tab `tab` of the last (empty: kScreenshotDefaultTab);
// false with the reason in `error` when a path cannot be opened or has no such tab.
bool prepareScreenshot(MainWindow& window, const QStringList& paths, const QString& tab,
                       QString* error);
// `strata --screenshot OUT PATH...`: opens the paths in a 1440×900 window, shows the tab `tab`
// (empty: kScreenshotDefaultTab), waits for jobs and writes the PNG. Returns the exit code;
// problems go to stderr.
int runScreenshot(const QString& output, const QStringList& paths, const QString& tab,
                  int timeoutMs);
// `strata --compare A B --screenshot OUT`: the compare view once the comparison has finished,
// on its first difference.
int runCompareScreenshot(const QString& output, const QString& a, const QString& b, int timeoutMs);

}  // namespace strata::gui
