// The OZDF format editor: owns the session being edited and saves it safely (formats/ozdf
// ozdf_save.h). Saving to the opened path rewrites only what changed, in place; saving to
// another folder writes a new corpus (or document) and leaves the input untouched.
#pragma once

#include <memory>

#include "model/core/format_editor.h"
#include "model/ozdf/ozdf_session.h"

namespace strata::model {

class OzdfEditor : public FormatEditor {
    Q_OBJECT
public:
    // Edits a copy of what opening the document read (ozdf::OzdfState), or reads
    // its path again when nothing was kept; nullptr with *error when it cannot.
    static OzdfEditor* create(Document& document, QString* error);
    OzdfEditor(Document& document, std::unique_ptr<OzdfSession> session);
    ~OzdfEditor() override;

    OzdfSession& session() const { return *session_; }

    Job* startSave(JobRunner& runner, const QString& path, QString* error) override;
    Job* startWriteCopy(JobRunner& runner, const QString& path, QString* error) override;
    // Corpora and directory documents save to a folder, standalone documents to a file.
    bool savesToFolder() const override;

    // Reads the opened path again, dropping every edit and the undo history.
    bool reload(QString* error);
    // True while a save runs (and for a moment after), so a watcher can tell Strata's own
    // writes from external changes.
    bool isSaving() const { return saving_; }

signals:
    // A save finished; `inPlace` when it wrote the opened path.
    void savedTo(const QString& path, bool inPlace);

private:
    std::unique_ptr<OzdfSession> session_;
    bool saving_ = false;
};

}  // namespace strata::model
