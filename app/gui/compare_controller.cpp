#include "compare_controller.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QPointer>

#include "app/compare/compare_view.h"
#include "app/widgets/document_view.h"
#include "app/widgets/screen_fit.h"
#include "formats/registry/format_registry.h"
#include "main_window.h"
#include "model/compare/change_review.h"
#include "model/compare/comparison.h"
#include "model/core/document.h"
#include "model/core/remote_access.h"

namespace strata::gui {

CompareController::CompareController(MainWindow& window) : QObject(&window), window_(window) {}

void CompareController::compareWithDialog() {
    DocumentView* view = window_.currentView();
    if (view == nullptr) {
        window_.showError(tr("Open a file or folder first, then compare it with another."));
        return;
    }
    const model::Document* doc = view->document();
    const QString title = tr("Compare %1 With").arg(doc->path());
    const QString b =
        !doc->isRemote() && QFileInfo(doc->path()).isDir()
            ? QFileDialog::getExistingDirectory(&window_, title)
            : QFileDialog::getOpenFileName(
                  &window_, title,
                  doc->isRemote() ? QString() : QFileInfo(doc->path()).absolutePath());
    if (b.isEmpty()) {
        return;
    }
    // The tab's side is shared, not read again; a remote B opens with the settings a remote A
    // was opened with.
    compareFiles(*doc, b,
                 doc->isRemote() ? doc->remoteSettings() : model::RemoteOpenSettings::load());
}

model::Job* CompareController::compareFiles(const model::ComparisonSide& a,
                                            const model::ComparisonSide& b,
                                            const model::RemoteOpenSettings& settings) {
    QPointer<CompareController> self(this);
    return model::startOpenComparison(
        *window_.jobRunner(), a, b, settings,
        [self](std::unique_ptr<model::Comparison> comparison, const QString& error) {
            if (!self) {
                return;
            }
            if (!comparison) {
                self->window_.showError(tr("Cannot compare: %1").arg(error));
                return;
            }
            self->showComparison(std::move(comparison), {});
        },
        &window_.formats());
}

void CompareController::compareQuietly(const model::ComparisonSide& a,
                                       const model::ComparisonSide& b, const QString& title) {
    QPointer<CompareController> self(this);
    model::startOpenComparison(
        *window_.jobRunner(), a, b, {},
        [self, title](std::unique_ptr<model::Comparison> comparison, const QString&) {
            if (self && comparison) {
                self->showComparison(std::move(comparison), title);
            }
        },
        &window_.formats());
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
    // The main window's size when it is on screen, else (strata --compare) the usual first size.
    view->placeAsWindow(window_.isVisible() ? window_.size() : QSize(1440, 900));
    view->start({});
    view->show();
    clampToScreen(view);  // now with its frame
    emit shown(view);
    return view;
}

}  // namespace strata::gui
