#include "repair_controller.h"

#include <QFileInfo>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QStatusBar>

#include <map>

#include "app/widgets/document_view.h"
#include "compare_controller.h"
#include "formats/registry/format_registry.h"
#include "main_window.h"
#include "model/compare/comparison.h"
#include "model/core/document.h"
#include "open_controller.h"

namespace strata::gui {
namespace {

// Steps of a repair plan shown in its preview before "Show Details".
constexpr std::size_t kPreviewSteps = 25;

}  // namespace

RepairController::RepairController(MainWindow& window) : QObject(&window), window_(window) {}

model::Job* RepairController::repairCurrent(const QString& output, model::RepairChoices choices) {
    DocumentView* view = window_.currentView();
    if (view == nullptr) {
        window_.showError(tr("Open a damaged file first."));
        return nullptr;
    }
    const model::Document* doc = view->document();
    if (doc->isRemote()) {
        window_.showError(tr("Repair reads and writes local files: save a local copy of %1 "
                             "first (File > Save a Local Copy…).")
                              .arg(doc->displayName()));
        return nullptr;
    }
    const FormatRegistry& formats = window_.formats();
    if (!formats.handler(doc->format()).canRepair()) {
        QString why = QString::fromStdString(formats.repairUnsupportedText(doc->format()));
        why[0] = why[0].toUpper();
        window_.showError(why + QLatin1Char('.'));
        return nullptr;
    }
    const QString input = doc->path();
    const QString target = output.isEmpty() ? model::suggestedRepairPath(input, &formats) : output;
    // Digests are recomputed only when asked, and only in a format whose repair offers it.
    const QString digestsText = QString::fromStdString(
        formats.handler(doc->format()).repairChoiceText(RepairChoice::RecomputeDigests));
    choices.recomputeDigests = choices.recomputeDigests && !digestsText.isEmpty();
    QPointer<RepairController> self(this);
    const FormatId format = doc->format();
    return model::startRepair(
        *window_.jobRunner(), formats, format, input, target, true,
        [self, format, input, target, choices, digestsText](
            std::shared_ptr<const RepairReport> plan, const QString& error) {
            if (!self) {
                return;
            }
            if (plan) {
                self->reviewPlan(*plan, format, input, target, choices);
                return;
            }
            self->window_.showError(tr("Cannot repair %1: %2").arg(input, error));
            if (!digestsText.isEmpty() && !choices.recomputeDigests &&
                self->window_.isInteractive() && self->askToRecomputeDigests(error, digestsText)) {
                self->repairCurrent(target, {true, choices.keepSuperseded});
            }
        },
        choices);
}

void RepairController::reviewPlan(const RepairReport& plan, FormatId format, const QString& input,
                                  const QString& target, model::RepairChoices choices) {
    if (!window_.isInteractive()) {
        runRepair(format, input, target, choices);
        return;
    }
    QMessageBox ask(QMessageBox::Question, tr("Repair"),
                    tr("Write the repaired copy to %1?").arg(target), QMessageBox::Cancel,
                    &window_);
    // A long report (thousands of dropped lines) would outgrow the screen: the first steps
    // here, all of them under Show Details (which scrolls).
    ask.setInformativeText(model::repairReportText(plan, kPreviewSteps));
    if (plan.losses.size() + plan.actions.size() > kPreviewSteps) {
        ask.setDetailedText(model::repairReportText(plan));
    }
    ask.addButton(tr("&Repair"), QMessageBox::AcceptRole);
    std::map<QAbstractButton*, model::RepairChoices> replans;
    for (const model::RepairReplan replan : model::repairReplans(plan, choices)) {
        model::RepairChoices other = choices;
        QString label;
        if (replan == model::RepairReplan::RecomputeDigests) {
            other.recomputeDigests = true;
            label = tr("Plan Again, Recomputing &Digests");
        } else {
            other.keepSuperseded = true;
            label = tr("Plan Again, Keeping &Superseded Lines");
        }
        replans[ask.addButton(label, QMessageBox::ActionRole)] = other;
    }
    if (ask.exec() == QMessageBox::Cancel) {
        return;
    }
    const auto replan = replans.find(ask.clickedButton());
    if (replan != replans.end()) {
        repairCurrent(target, replan->second);
        return;
    }
    runRepair(format, input, target, choices);
}

bool RepairController::askToRecomputeDigests(const QString& why, const QString& whatItKeeps) {
    QMessageBox ask(QMessageBox::Question, tr("Repair"),
                    tr("Nothing can be saved with the digests as they are."), QMessageBox::Cancel,
                    &window_);
    ask.setInformativeText(why + QStringLiteral("\n\n") + whatItKeeps);
    QPushButton* replan =
        ask.addButton(tr("Plan Again, Recomputing &Digests"), QMessageBox::AcceptRole);
    ask.exec();
    return ask.clickedButton() == replan;
}

void RepairController::runRepair(FormatId format, const QString& input, const QString& target,
                                 model::RepairChoices choices) {
    QPointer<RepairController> self(this);
    model::startRepair(
        *window_.jobRunner(), window_.formats(), format, input, target, false,
        [self, input, target](std::shared_ptr<const RepairReport> done, const QString& why) {
            if (!self) {
                return;
            }
            MainWindow& window = self->window_;
            if (!done) {
                window.showError(tr("The repair failed: %1").arg(why));
                return;
            }
            window.statusBar()->showMessage(
                tr("Repaired copy written: %1")
                    .arg(model::repairReportText(*done).section(QLatin1Char('\n'), 0, 0)),
                10000);
            window.opener().openPath(target);
            // Both files are open in tabs now (the input unless its tab was closed): the
            // comparison shares what they read. Formats without a differ get no comparison.
            const auto side = [&window](const QString& path) {
                const int tab = window.opener().tabShowing(path);
                return tab >= 0 ? model::ComparisonSide(*window.viewAt(tab)->document())
                                : model::ComparisonSide(path);
            };
            window.comparisons().compareQuietly(
                side(input), side(target),
                tr("Repair of %1: the damaged file (A) and the repaired copy (B)")
                    .arg(QFileInfo(input).fileName()));
        },
        choices);
}

}  // namespace strata::gui
