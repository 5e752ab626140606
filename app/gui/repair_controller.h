// Tools > Repair… from the main window: plans the repair of the current document as a job,
// shows every action and loss and asks (with the format's offers to plan again), writes the
// repaired copy as a job, then opens it and compares it with the damaged input. The planning
// and writing are model/repair's; this holds the questions.
#pragma once

#include <QObject>
#include <QString>

#include "model/repair/repair_job.h"

namespace strata::model {
class Job;
}

namespace strata::gui {

class MainWindow;

class RepairController : public QObject {
    Q_OBJECT
public:
    explicit RepairController(MainWindow& window);

    // See MainWindow::repairCurrent.
    model::Job* repairCurrent(const QString& output = {}, model::RepairChoices choices = {});

private:
    // The plan was made: asks whether to write it (or plan again with other choices).
    void reviewPlan(const RepairReport& plan, FormatId format, const QString& input,
                    const QString& target, model::RepairChoices choices);
    // The repair itself, after its plan was accepted; the copy then opens beside the input.
    void runRepair(FormatId format, const QString& input, const QString& target,
                   model::RepairChoices choices);
    // After a plan that saves nothing: whether to plan again recomputing digests.
    // `whatItKeeps`: the format's own words for it (FormatHandler::recomputeDigestsText).
    bool askToRecomputeDigests(const QString& why, const QString& whatItKeeps);

    MainWindow& window_;
};

}  // namespace strata::gui
