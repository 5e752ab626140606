// Undoable OZDF content edits. Each command swaps whole documents (the one edited, or every
// document a find-and-replace touched), so undo and redo restore exactly what was there.
#pragma once

#include <QString>
#include <QUndoCommand>
#include <QUndoStack>
#include <functional>
#include <utility>
#include <vector>

#include "formats/ozdf/ozdf_document.h"
#include "model/ozdf/ozdf_session.h"

namespace strata::model {

// Replaces documents of the session: `after` on redo, `before` on undo.
class OzdfDocumentsCommand : public QUndoCommand {
public:
    struct Change {
        int index = 0;
        ozdf::Document before;
        ozdf::Document after;
    };
    OzdfDocumentsCommand(OzdfSession& session, std::vector<Change> changes, const QString& text);
    void undo() override;
    void redo() override;

private:
    OzdfSession& session_;
    std::vector<Change> changes_;
};

// Adds a document at `index` (redo) or removes it (undo); `remove` swaps the two.
class OzdfInsertDocumentCommand : public QUndoCommand {
public:
    OzdfInsertDocumentCommand(OzdfSession& session, int index, ozdf::Document document, bool remove,
                              const QString& text);
    void undo() override;
    void redo() override;

private:
    void insert();
    void erase();
    OzdfSession& session_;
    int index_;
    ozdf::Document document_;
    bool remove_;
};

// Runs `edit` on a copy of document `index` and pushes the result as one undo step. Returns
// false with *error set (and nothing pushed) when the edit throws (ozdf::EditError,
// ozdf::WriteError) or changes nothing.
bool applyOzdfEdit(QUndoStack& stack, OzdfSession& session, int index, const QString& text,
                   const std::function<void(ozdf::Document&)>& edit, QString* error);

// Document-level edits of a corpus session: a new empty document, a removal, a rename, and a
// standalone ↔ directory conversion (refused when the new name is taken, or for a single
// document opened on its own).
bool addOzdfDocument(QUndoStack& stack, OzdfSession& session, const QString& filename,
                     bool directory, QString* error);
bool removeOzdfDocument(QUndoStack& stack, OzdfSession& session, int index, QString* error);
bool renameOzdfDocument(QUndoStack& stack, OzdfSession& session, int index, const QString& filename,
                        QString* error);
bool toggleOzdfDocumentKind(QUndoStack& stack, OzdfSession& session, int index, QString* error);

}  // namespace strata::model
