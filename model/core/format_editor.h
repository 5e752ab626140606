// A format-aware editor of a document's content: an OZDF corpus, a ZDS dataset, a zTensor
// manifest. It pushes its edits as QUndoCommands onto the document's undo stack (so the window's
// Undo/Redo and the dirty marker cover them) and saves through the format's writer instead of
// writing the edited bytes.
#pragma once

#include <QObject>
#include <QString>

namespace strata::model {

class Document;
class Job;
class JobRunner;

class FormatEditor : public QObject {
    Q_OBJECT
public:
    explicit FormatEditor(Document& document);
    ~FormatEditor() override;

    Document& document() const { return document_; }

    // Writes the edited content to `path` (the document's own path saves in place) as a
    // background job. When it succeeds the job calls document().markSaved(undoIndex, path) with
    // the undo index it started at. Returns nullptr after setting *error when it cannot start.
    virtual Job* startSave(JobRunner& runner, const QString& path, QString* error) = 0;
    // Writes what Save would write to `path` (a new file or folder in a scratch place) without
    // marking anything saved, so "Review Changes…" can compare it with the files on disk.
    // Editors that cannot set *error and return nullptr (the default).
    virtual Job* startWriteCopy(JobRunner& runner, const QString& path, QString* error);
    // Save As picks a folder (OZDF corpus, ZDS folder) or a file (.zt, .zds, .ozdf).
    virtual bool savesToFolder() const = 0;

private:
    Document& document_;
};

}  // namespace strata::model
