#include "zds_editor.h"

#include <QPointer>

#include <algorithm>

#include "model/core/document.h"
#include "model/core/job.h"
#include "model/core/job_runner.h"
#include "model/core/remote_access.h"
#include "zds_table_model.h"

namespace strata::model {

ZdsEditor::ZdsEditor(Document& document, std::shared_ptr<const zds::ZdsDataset> dataset)
    : FormatEditor(document), dataset_(std::move(dataset)) {
    for (std::size_t i = 0; i < dataset_->collections.size(); ++i) {
        tables_.push_back(new ZdsTableModel(dataset_, i, this));
    }
}

ZdsEditor::~ZdsEditor() = default;

ZdsTableModel* ZdsEditor::table(int collection) const {
    return collection >= 0 && collection < collectionCount()
               ? tables_[static_cast<std::size_t>(collection)]
               : nullptr;
}

QList<Job*> ZdsEditor::startLoading(JobRunner& runner) {
    QList<Job*> jobs;
    for (ZdsTableModel* t : tables_) {
        t->setRunner(&runner);
        jobs << t->startLoading(runner);
    }
    return jobs;
}

bool ZdsEditor::loaded() const {
    return std::all_of(tables_.begin(), tables_.end(),
                       [](const ZdsTableModel* t) { return t->loaded(); });
}

bool ZdsEditor::collectionChanged(int collection) const {
    const ZdsTableModel* t = table(collection);
    return t != nullptr && t->isEdited();
}

zds::ZdsCollectionWrite ZdsEditor::collectionWrite(int collection) const {
    const ZdsTableModel* t = table(collection);
    zds::ZdsCollectionWrite write;
    write.name = t->collection().name();
    write.source = &t->collection();
    write.layout = t->collection().mode() == zds::ZdsStorageMode::Docs ? zds::ZdsLayout::Docs
                                                                       : zds::ZdsLayout::Jsonl;
    write.documents.reserve(t->rows().size());
    for (const ZdsRow& row : t->rows()) {
        if (row.changed()) {
            write.documents.push_back(zds::ZdsWriteDoc::text(row.text->json));
        } else {
            write.documents.push_back(
                zds::ZdsWriteDoc::original(static_cast<std::uint64_t>(row.original)));
        }
    }
    // A save keeps the collection's superseded and deleted lines (Compact drops them).
    return zds::keepingHistory(std::move(write));
}

Job* ZdsEditor::startSave(JobRunner& runner, const QString& path, QString* error) {
    return startWrite(runner, path, error, true);
}

Job* ZdsEditor::startWriteCopy(JobRunner& runner, const QString& path, QString* error) {
    return startWrite(runner, path, error, false);
}

Job* ZdsEditor::startWrite(JobRunner& runner, const QString& path, QString* error, bool markSaved) {
    if (isRemoteUrl(path)) {
        if (error != nullptr) {
            *error = tr("%1 is a URL: Strata writes local files only (save a local copy first).")
                         .arg(path);
        }
        return nullptr;
    }
    if (!loaded()) {
        if (error != nullptr) {
            *error = tr("The documents are still being listed; save again when that is done.");
        }
        return nullptr;
    }
    auto writes = std::make_shared<std::vector<zds::ZdsCollectionWrite>>();
    for (int i = 0; i < collectionCount(); ++i) {
        if (collectionChanged(i)) {
            writes->push_back(collectionWrite(i));
        }
    }
    const int undoIndex = document().undoStack()->index();
    QPointer<Document> doc(&document());
    auto dataset = dataset_;
    const std::filesystem::path target = path.toStdString();
    const bool deflate = deflate_;
    const QString title = markSaved ? tr("Saving %1").arg(path) : tr("Writing changes to review");
    return runner.start(title, [writes, dataset, target, undoIndex, doc, path, deflate,
                                markSaved](JobContext& context) {
        zds::ZdsWriteOptions options;
        options.cancel = &context.cancelToken();
        options.progress = context.progressCallback();
        options.deflate = deflate;
        try {
            const zds::ZdsWriteResult result =
                zds::writeZdsDataset(dataset.get(), *writes, target, options);
            if (result.cancelled) {
                return;
            }
            QString summary = tr("%1 documents saved").arg(result.documents);
            for (const std::string& note : result.notes) {
                summary += QStringLiteral("; ") + QString::fromStdString(note);
            }
            context.setProgress(1.0, summary);
        } catch (const std::exception& e) {
            context.fail(QString::fromStdString(e.what()));
            return;
        }
        if (!markSaved) {
            return;
        }
        context.post([doc, undoIndex, path] {
            if (doc) {
                doc->markSaved(undoIndex, path);
            }
        });
    });
}

bool ZdsEditor::savesToFolder() const {
    return dataset_->archive() == nullptr;
}

}  // namespace strata::model
