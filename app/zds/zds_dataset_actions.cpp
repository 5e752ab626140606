#include "zds_dataset_actions.h"

#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QPointer>

#include "app/widgets/document_view.h"
#include "model/core/document.h"
#include "model/core/job.h"
#include "model/core/job_runner.h"
#include "model/zds/zds_editor.h"

namespace strata::gui {

namespace {

ZdsJobTargetPicker& targetPicker() {
    static ZdsJobTargetPicker picker;
    return picker;
}

QString pickTarget(QWidget* parent, model::ZdsDatasetJob kind, const QString& path) {
    if (targetPicker()) {
        return targetPicker()(kind, path);
    }
    if (kind == model::ZdsDatasetJob::Pack) {
        return QFileDialog::getSaveFileName(parent, QObject::tr("Pack into"),
                                            path + QStringLiteral(".zds"),
                                            QObject::tr("ZDS archives (*.zds)"));
    }
    return QFileDialog::getExistingDirectory(parent, QObject::tr("Unpack into an empty folder"));
}

void startDatasetJob(DocumentView& view, model::ZdsDatasetJob kind, const QString& path) {
    using Kind = model::ZdsDatasetJob;
    const bool elsewhere = kind == Kind::Pack || kind == Kind::Unpack;
    QString dest;
    if (elsewhere) {
        dest = pickTarget(&view, kind, path);
        if (dest.isEmpty()) {
            return;
        }
    } else if (view.document()->isModified()) {
        QMessageBox::information(&view, model::zdsDatasetJobName(kind),
                                 QObject::tr("Save or undo your edits first: this job "
                                             "rewrites the dataset on disk."));
        return;
    }
    auto* editor = qobject_cast<model::ZdsEditor*>(view.document()->editor());
    const bool deflate = editor != nullptr && editor->deflateOnSave();
    model::Job* job = model::startZdsDatasetJob(*view.jobRunner(), kind, path, dest, {}, deflate);
    view.trackJob(job);
    QPointer<DocumentView> target(&view);
    QObject::connect(job, &model::Job::finished, &view, [target, job, elsewhere] {
        if (!target) {
            return;
        }
        if (job->state() == model::Job::State::Failed) {
            emit target->message(job->title() + QStringLiteral(": ") + job->errorText());
            return;
        }
        if (job->state() != model::Job::State::Finished) {
            return;
        }
        if (elsewhere) {
            emit target->message(QObject::tr("%1: %2.").arg(job->title(), job->statusText()));
            return;
        }
        // The files under the open document changed: show the new dataset.
        emit target->message(
            QObject::tr("%1: %2. Reopening the dataset.").arg(job->title(), job->statusText()));
        emit target->reloadRequested();
    });
}

}  // namespace

void setZdsJobTargetPicker(ZdsJobTargetPicker picker) {
    targetPicker() = std::move(picker);
}

void addZdsActions(QMenu* menu, DocumentView& view) {
    const QString path = view.document()->path();
    auto* editor = qobject_cast<model::ZdsEditor*>(view.document()->editor());
    const bool archive =
        editor != nullptr ? editor->dataset()->archive() != nullptr : QFileInfo(path).isFile();
    using Kind = model::ZdsDatasetJob;
    for (Kind kind :
         {Kind::Reindex, Kind::Compact, Kind::ToJsonl, Kind::ToDocs, Kind::Pack, Kind::Unpack}) {
        if (!model::zdsDatasetJobApplies(kind, archive)) {
            continue;
        }
        QPointer<DocumentView> target(&view);
        QAction* action =
            menu->addAction(model::zdsDatasetJobName(kind), menu, [target, kind, path] {
                if (target) {
                    startDatasetJob(*target, kind, path);
                }
            });
        action->setData(static_cast<int>(kind));
    }
    if (editor != nullptr) {
        menu->addSeparator();
        QAction* deflate = menu->addAction(QObject::tr("DEFLATE archive members"));
        deflate->setObjectName(QStringLiteral("zdsDeflate"));
        deflate->setToolTip(QObject::tr(
            "Save, Pack and Compact compress the archive members they write. STORE'd members "
            "(the default) can be read in place; DEFLATE'd ones must be inflated to be read."));
        deflate->setCheckable(true);
        deflate->setChecked(editor->deflateOnSave());
        QObject::connect(deflate, &QAction::toggled, editor,
                         [editor](bool on) { editor->setDeflateOnSave(on); });
    }
}

}  // namespace strata::gui
