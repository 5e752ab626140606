#include "compare_controller.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QPointer>

#include "app/compare/compare_view.h"
#include "app/widgets/document_view.h"
#include "formats/registry/format_registry.h"
#include "main_window.h"
#include "model/compare/change_review.h"
#include "model/compare/comparison.h"
#include "model/core/document.h"

namespace strata::gui {

CompareController::CompareController(MainWindow& window) : QObject(&window), window_(window) {}

void CompareController::compareWithDialog() {
    DocumentView* view = window_.currentView();
    if (view == nullptr) {
        window_.showError(tr("Open a file or folder first, then compare it with another."));
        return;
    }
    const QString a = view->document()->path();
    const QString title = tr("Compare %1 With").arg(a);
    const QString b = QFileInfo(a).isDir() ? QFileDialog::getExistingDirectory(&window_, title)
                                           : QFileDialog::getOpenFileName(
                                                 &window_, title, QFileInfo(a).absolutePath());
    if (!b.isEmpty()) {
        compareFiles(a, b);
    }
}

CompareView* CompareController::compareFiles(const QString& a, const QString& b) {
    QString error;
    auto comparison = model::Comparison::open(a, b, &error, &window_.formats());
    if (!comparison) {
        window_.showError(tr("Cannot compare: %1").arg(error));
        return nullptr;
    }
    return showComparison(std::move(comparison), {});
}

void CompareController::compareQuietly(const QString& a, const QString& b, const QString& title) {
    if (auto comparison = model::Comparison::open(a, b, nullptr, &window_.formats())) {
        showComparison(std::move(comparison), title);
    }
}

model::Job* CompareController::reviewChanges() {
    DocumentView* view = window_.currentView();
    if (view == nullptr) {
        window_.showError(tr("Open a document and edit it first."));
        return nullptr;
    }
    const QString name = view->document()->displayName();
    QPointer<CompareController> self(this);
    QString error;
    model::Job* job = model::startChangeReview(
        *window_.jobRunner(), *view->document(),
        [self, name](std::unique_ptr<model::Comparison> comparison, const QString& why) {
            if (!self) {
                return;
            }
            if (!comparison) {
                self->window_.showError(tr("Cannot review the changes: %1").arg(why));
                return;
            }
            self->showComparison(std::move(comparison),
                                 tr("Review changes to %1: on disk (A) and as Save would write "
                                    "it (B)")
                                     .arg(name));
        },
        &error);
    if (job == nullptr) {
        window_.showError(tr("Cannot review the changes: %1").arg(error));
    }
    return job;
}

CompareView* CompareController::showComparison(std::unique_ptr<model::Comparison> comparison,
                                               const QString& title) {
    auto* view = new CompareView(std::move(comparison), *window_.jobRunner(), &window_);
    if (!title.isEmpty()) {
        view->setWindowTitle(title);
    }
    view->setWindowFlag(Qt::Window);
    view->setAttribute(Qt::WA_DeleteOnClose);
    view->resize(window_.size());
    view->start({});
    view->show();
    return view;
}

}  // namespace strata::gui
