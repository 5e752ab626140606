#include "save_job.h"

#include <QPointer>

#include "model/core/structure_model.h"

namespace strata::model {

Job* startSaveAs(JobRunner& runner, Document& document, const QString& path) {
    ByteOverlay* file = document.primaryFile();
    if (file == nullptr) {
        return nullptr;
    }
    ByteSourcePtr source = file->sourcePtr();
    ByteOverlay::EditMap edits = file->edits();
    const int undoIndex = document.undoStack()->index();
    QPointer<Document> guard(&document);
    const QString title = QObject::tr("Save %1").arg(path);
    return runner.start(
        title, [source, edits = std::move(edits), path, undoIndex, guard](JobContext& context) {
            const QString error = ByteOverlay::writeEdited(
                *source, edits, path, &context.cancelToken(),
                [&context](double fraction) { context.setProgress(fraction); });
            if (context.cancelled()) {
                return;
            }
            if (!error.isEmpty()) {
                context.fail(error);
                return;
            }
            context.post([guard, undoIndex, path] {
                if (guard) {
                    guard->markSaved(undoIndex, path);
                }
            });
        });
}

Job* startLocalCopy(JobRunner& runner, Document& document, const QString& path) {
    ByteOverlay* file = document.primaryFile();
    if (file == nullptr) {
        return nullptr;
    }
    ByteSourcePtr source = file->sourcePtr();
    ByteOverlay::EditMap edits = file->edits();
    const QString title = QObject::tr("Save a local copy of %1").arg(document.displayName());
    return runner.start(title, [source, edits = std::move(edits), path](JobContext& context) {
        const std::uint64_t total = source->size();
        const QString error = ByteOverlay::writeEdited(
            *source, edits, path, &context.cancelToken(), [&context, total](double fraction) {
                const auto done = static_cast<quint64>(fraction * static_cast<double>(total));
                context.setProgress(
                    fraction, QObject::tr("%1 of %2").arg(formatSize(done), formatSize(total)));
            });
        if (context.cancelled()) {
            return;
        }
        if (!error.isEmpty()) {
            context.fail(error);
        }
    });
}

}  // namespace strata::model
