#include "save_controller.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QEventLoop>
#include <QFileDialog>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QStatusBar>
#include <QTabWidget>

#include "app/widgets/document_view.h"
#include "main_window.h"
#include "model/core/document.h"
#include "model/core/format_editor.h"
#include "model/core/job_runner.h"
#include "model/core/save_job.h"
#include "model/core/text_draft.h"
#include "open_controller.h"

namespace strata::gui {

SaveController::SaveController(MainWindow& window) : QObject(&window), window_(window) {}

void SaveController::commitOpenCellEditor() {
    QWidget* focus = QApplication::focusWidget();
    for (QWidget* w = focus; w != nullptr; w = w->parentWidget()) {
        auto* itemView = qobject_cast<QAbstractItemView*>(w);
        if (itemView != nullptr) {
            // A cell editor is a child of the view's viewport.
            if (focus != itemView->viewport() && itemView->viewport()->isAncestorOf(focus)) {
                focus->clearFocus();  // the delegate commits on focus out
            }
            return;
        }
    }
}

QString SaveController::discardQuestion(const QString& name, bool edits,
                                        const QStringList& typedTargets, Ending ending) {
    const QString typed = typedTargets.join(QStringLiteral(", "));
    if (ending == Ending::Reloading) {
        return typedTargets.isEmpty()
                   ? tr("%1 has unsaved edits. Save them before reloading it from disk?").arg(name)
               : edits ? tr("%1 has unsaved edits, and text you typed for %2 is not applied yet. "
                            "Apply and save them before reloading it from disk?")
                             .arg(name, typed)
                       : tr("You typed text for %2 in %1 and did not apply it. Apply and save it "
                            "before reloading it from disk?")
                             .arg(name, typed);
    }
    return typedTargets.isEmpty() ? tr("%1 has unsaved edits. Save them before closing?").arg(name)
           : edits ? tr("%1 has unsaved edits, and text you typed for %2 is not applied yet. Apply "
                        "and save them before closing?")
                         .arg(name, typed)
                   : tr("You typed text for %2 in %1 and did not apply it. Apply and save it "
                        "before closing?")
                         .arg(name, typed);
}

bool SaveController::confirmDiscard(DocumentView* view, bool askAboutText, Ending ending) {
    commitOpenCellEditor();
    model::Document* doc = view->document();
    const bool edits = doc->isModified();
    const QList<model::TextDraft*> drafts =
        askAboutText ? doc->pendingDrafts() : QList<model::TextDraft*>{};
    if ((!edits && drafts.isEmpty()) || !window_.isInteractive()) {
        return true;
    }
    window_.tabs()->setCurrentWidget(view);
    QStringList targets;
    for (model::TextDraft* draft : drafts) {
        targets << draft->target();
    }
    if (!drafts.isEmpty()) {
        drafts.front()->requestShow();
    }
    const QString text = discardQuestion(doc->displayName(), edits, targets, ending);
    const auto answer = QMessageBox::question(
        &window_, tr("Unsaved Changes"), text,
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Save) {
        return saveBeforeClosing(view);
    }
    if (answer == QMessageBox::Discard) {
        for (model::TextDraft* draft : drafts) {
            draft->discard();
        }
        return true;
    }
    return false;
}

bool SaveController::saveBeforeClosing(DocumentView* view) {
    model::Document* doc = view->document();
    if (doc->editor() == nullptr) {
        saveAsDialog();  // byte edits: where to write them is the user's choice
        return !doc->isModified();
    }
    // In place, like Save, and wait: the tab goes away once the files are written.
    QPointer<model::Job> job = startFormatSave(view, doc->path(), false);
    if (job.isNull()) {
        return false;
    }
    if (job->isRunning()) {
        QEventLoop loop;
        connect(job, &model::Job::finished, &loop, &QEventLoop::quit);
        loop.exec();
    }
    const bool saved =
        !job.isNull() && job->state() == model::Job::State::Finished && !doc->isModified();
    if (saved && doc->hasPendingText()) {
        keepOpenWithText(view);
        return false;
    }
    return saved;
}

void SaveController::keepOpenWithText(DocumentView* view) {
    QStringList targets;
    for (model::TextDraft* draft : view->document()->pendingDrafts()) {
        targets << draft->target();
    }
    const QString message =
        tr("Saved the other edits. %1 stays open with the text you typed "
           "for %2, which is not applied.")
            .arg(view->document()->displayName(), targets.join(QStringLiteral(", ")));
    // As after any save, the tab shows the saved files; the text comes back in its editor.
    QPointer<DocumentView> guard(view);
    QMetaObject::invokeMethod(
        this,
        [this, guard, message] {
            if (guard && window_.opener().reopenView(guard, {}, true)) {
                window_.statusBar()->showMessage(message);
            }
        },
        Qt::QueuedConnection);
}

bool SaveController::applyPendingText(DocumentView* view, bool closing) {
    for (model::TextDraft* draft : view->document()->pendingDrafts()) {
        const QString error = draft->apply();
        if (error.isEmpty()) {
            continue;
        }
        window_.tabs()->setCurrentWidget(view);
        draft->requestShow();
        const QString problem =
            tr("The text you typed for %1 cannot be applied: %2").arg(draft->target(), error);
        if (!window_.isInteractive()) {
            window_.showError(tr("Not saved. %1").arg(problem));
            return false;
        }
        QMessageBox box(QMessageBox::Warning, tr("Text Not Applied"), problem,
                        QMessageBox::NoButton, &window_);
        box.setInformativeText(
            closing ? tr("Fix the text and save again, or save the other edits and keep this tab "
                         "open with the text, to fix it later.")
                    : tr("Fix the text and save again, or save the other edits and keep the text "
                         "to fix later."));
        QPushButton* fix = box.addButton(tr("&Fix the Text"), QMessageBox::RejectRole);
        QPushButton* without = box.addButton(tr("&Save Without It"), QMessageBox::AcceptRole);
        box.addButton(QMessageBox::Cancel);
        box.setDefaultButton(fix);
        box.exec();
        if (box.clickedButton() != without) {
            return false;
        }
    }
    return true;
}

QString SaveController::saveCurrentAs(const QString& path) {
    DocumentView* view = window_.currentView();
    if (view == nullptr || view->currentFile() == nullptr) {
        return tr("No file is open.");
    }
    model::Document* doc = view->document();
    model::ByteOverlay* file = view->currentFile();
    const QString error =
        file == doc->primaryFile() ? doc->saveAs(path) : doc->saveFileAs(file, path);
    if (error.isEmpty()) {
        window_.statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)), 5000);
        window_.updateTabTitle(view);
    }
    return error;
}

model::Job* SaveController::startEditorSave(DocumentView* view, const QString& path) {
    return startFormatSave(view, path, true);
}

model::Job* SaveController::startFormatSave(DocumentView* view, const QString& path, bool reopen) {
    if (!applyPendingText(view, !reopen)) {
        return nullptr;
    }
    model::FormatEditor* editor = view->document()->editor();
    QString error;
    model::Job* job = editor->startSave(*window_.jobRunner(), path, &error);
    if (job == nullptr) {
        window_.showError(tr("Could not save %1: %2").arg(QDir::toNativeSeparators(path), error));
        return nullptr;
    }
    view->trackJob(job);
    const bool inPlace = canonicalLocation(path) == canonicalLocation(view->document()->path());
    QPointer<DocumentView> guard(view);
    connect(job, &model::Job::stateChanged, this,
            [this, path, inPlace, guard, reopen](model::Job::State state) {
                if (state != model::Job::State::Finished) {
                    return;
                }
                window_.statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)),
                                                 5000);
                if (!guard || !reopen) {
                    return;
                }
                // The views still show the old mapped files: open the saved content. After a
                // Save As the tab moves to the new file, as in any editor; the edits now live
                // there, so the old document has nothing left to lose.
                if (!inPlace) {
                    guard->document()->undoStack()->setClean();
                }
                const QString reopenPath = inPlace ? QString() : path;
                QMetaObject::invokeMethod(
                    this,
                    [this, guard, reopenPath] {
                        if (guard) {
                            window_.opener().reopenView(guard, reopenPath, true);
                        }
                    },
                    Qt::QueuedConnection);
            });
    return job;
}

bool SaveController::confirmOverwrite(const QString& target, const QString& formatName) {
    if (!window_.isInteractive()) {
        return false;  // never overwrite a format file in place without asking
    }
    QMessageBox box(QMessageBox::Warning, tr("Overwrite %1?").arg(formatName),
                    tr("Saving writes your edits over %1 in place. Edited bytes can make a "
                       "%2 file invalid; Save As keeps the original.")
                        .arg(QDir::toNativeSeparators(target), formatName),
                    QMessageBox::NoButton, &window_);
    QPushButton* saveAs = box.addButton(tr("Save &As…"), QMessageBox::AcceptRole);
    QPushButton* overwrite = box.addButton(tr("&Overwrite"), QMessageBox::DestructiveRole);
    box.addButton(QMessageBox::Cancel);
    box.setDefaultButton(saveAs);
    box.exec();
    if (box.clickedButton() == saveAs) {
        saveAsDialog();
    }
    return box.clickedButton() == overwrite;
}

void SaveController::save() {
    commitOpenCellEditor();
    DocumentView* view = window_.currentView();
    if (view != nullptr && view->document()->isReadOnly()) {
        saveLocalCopyDialog();  // nothing is written back to a server
        return;
    }
    if (view != nullptr && view->document()->editor() != nullptr) {
        // The format's writer saves the content it understands, in place and atomically.
        startEditorSave(view, view->document()->path());
        return;
    }
    if (view == nullptr || view->currentFile() == nullptr) {
        return;
    }
    model::Document* doc = view->document();
    const QString target = QString::fromStdString(view->currentFile()->source().name());
    if (doc->hasStructure() && !confirmOverwrite(target, doc->formatName())) {
        return;
    }
    const QString error = saveCurrentAs(target);
    if (!error.isEmpty()) {
        window_.showError(tr("Could not save %1: %2").arg(target, error));
    }
}

model::Job* SaveController::saveLocalCopy(const QString& path) {
    DocumentView* view = window_.currentView();
    if (view == nullptr || path.isEmpty()) {
        return nullptr;
    }
    model::Job* job = model::startLocalCopy(*window_.jobRunner(), *view->document(), path);
    if (job == nullptr) {
        window_.showError(tr("%1 has no file to save.").arg(view->document()->displayName()));
        return nullptr;
    }
    view->trackJob(job);
    window_.showJobs();
    QPointer<MainWindow> window(&window_);
    connect(job, &model::Job::finished, this, [window, job, path] {
        if (!window) {
            return;
        }
        const QString shown = QDir::toNativeSeparators(path);
        if (job->state() == model::Job::State::Finished) {
            window->statusBar()->showMessage(tr("Saved a local copy: %1").arg(shown), 8000);
        } else if (job->state() == model::Job::State::Failed) {
            window->showError(
                tr("Could not save a local copy to %1: %2").arg(shown, job->errorText()));
        } else {
            window->statusBar()->showMessage(
                tr("Local copy cancelled; %1 was not written.").arg(shown), 8000);
        }
    });
    return job;
}

void SaveController::saveLocalCopyDialog() {
    DocumentView* view = window_.currentView();
    if (view == nullptr) {
        return;
    }
    const QString path = QFileDialog::getSaveFileName(&window_, tr("Save a Local Copy"),
                                                      view->document()->displayName());
    if (!path.isEmpty()) {
        saveLocalCopy(path);
    }
}

void SaveController::saveAsDialog() {
    commitOpenCellEditor();
    DocumentView* view = window_.currentView();
    if (view != nullptr && view->document()->isReadOnly()) {
        saveLocalCopyDialog();
        return;
    }
    if (view != nullptr && view->document()->editor() != nullptr) {
        model::Document* doc = view->document();
        const QString path =
            doc->editor()->savesToFolder()
                ? QFileDialog::getExistingDirectory(&window_, tr("Save to Folder"), doc->path())
                : QFileDialog::getSaveFileName(&window_, tr("Save As"), doc->path());
        if (!path.isEmpty()) {
            startEditorSave(view, path);
        }
        return;
    }
    if (view == nullptr || view->currentFile() == nullptr) {
        return;
    }
    const QString current = QString::fromStdString(view->currentFile()->source().name());
    const QString path = QFileDialog::getSaveFileName(&window_, tr("Save As"), current);
    if (path.isEmpty()) {
        return;
    }
    const QString error = saveCurrentAs(path);
    if (!error.isEmpty()) {
        window_.showError(tr("Could not save %1: %2").arg(path, error));
    }
}

}  // namespace strata::gui
