// Comparisons from the main window: File > Compare With…, Review Changes… (the document on
// disk against what Save would write) and the comparison after a repair, each in a compare
// view, a window of its own.
#pragma once

#include <QObject>
#include <QString>

#include <memory>

namespace strata::model {
class Comparison;
class ComparisonSide;
class Job;
struct RemoteOpenSettings;
}  // namespace strata::model

namespace strata::gui {

class CompareView;
class MainWindow;

class CompareController : public QObject {
    Q_OBJECT
public:
    explicit CompareController(MainWindow& window);

    // "Compare With…": the current document against a file or folder the user picks.
    void compareWithDialog();
    // See MainWindow::compareFiles and reviewChanges.
    model::Job* compareFiles(const model::ComparisonSide& a, const model::ComparisonSide& b,
                             const model::RemoteOpenSettings& settings);
    model::Job* reviewChanges();
    // Compares A and B under `title` when both open as one format that can be compared; no
    // view and no error otherwise (after a repair: formats without a differ get none).
    void compareQuietly(const model::ComparisonSide& a, const model::ComparisonSide& b,
                        const QString& title);

signals:
    // A compare view was opened and its comparison started.
    void shown(strata::gui::CompareView* view);

private:
    CompareView* showComparison(std::unique_ptr<model::Comparison> comparison,
                                const QString& title);

    MainWindow& window_;
};

}  // namespace strata::gui
