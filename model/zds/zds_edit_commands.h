// The edits of a ZDS collection, each one QUndoCommand on the document's undo stack: add,
// duplicate, delete, replace a document's JSON, rename its id, set one field on many rows.
// Each function checks its input first and returns an error text (nothing pushed) or "".
// Rows are addressed by stored position (ZdsTableModel::storedIndex).
#pragma once

#include <QString>
#include <QUndoCommand>

#include <string>
#include <utility>
#include <vector>

#include "zds_table_model.h"

class QUndoStack;

namespace strata::model {

// Inserts rows at a stored position.
class ZdsInsertRowsCommand : public QUndoCommand {
public:
    ZdsInsertRowsCommand(ZdsTableModel* model, int at, std::vector<ZdsRow> rows,
                         const QString& text);
    void redo() override;
    void undo() override;

private:
    ZdsTableModel* model_;
    int at_;
    std::vector<ZdsRow> rows_;
};

// Removes rows at stored positions (any order, no repeats).
class ZdsRemoveRowsCommand : public QUndoCommand {
public:
    ZdsRemoveRowsCommand(ZdsTableModel* model, std::vector<int> positions, const QString& text);
    void redo() override;
    void undo() override;

private:
    ZdsTableModel* model_;
    std::vector<std::pair<int, ZdsRow>> removed_;  // ascending positions
};

// Replaces rows at stored positions with new ones.
class ZdsSetRowsCommand : public QUndoCommand {
public:
    ZdsSetRowsCommand(ZdsTableModel* model, std::vector<std::pair<int, ZdsRow>> rows,
                      const QString& text);
    void redo() override;
    void undo() override;

private:
    ZdsTableModel* model_;
    std::vector<std::pair<int, ZdsRow>> after_;
    std::vector<std::pair<int, ZdsRow>> before_;
};

// A row holding `json` compacted to one line (a JSONL line cannot span several).
ZdsRow makeTextRow(const std::string& json, const std::string& id);

QString addZdsDocument(QUndoStack* stack, ZdsTableModel* model, const std::string& json, int at);
QString duplicateZdsDocuments(QUndoStack* stack, ZdsTableModel* model, std::vector<int> positions);
QString deleteZdsDocuments(QUndoStack* stack, ZdsTableModel* model, std::vector<int> positions);
QString replaceZdsDocument(QUndoStack* stack, ZdsTableModel* model, int position,
                           const std::string& json);
QString renameZdsDocument(QUndoStack* stack, ZdsTableModel* model, int position,
                          const std::string& newId);
// Sets the value at `pointer` (JSON pointer or top-level key) to `valueJson` on every row.
QString setZdsField(QUndoStack* stack, ZdsTableModel* model, std::vector<int> positions,
                    const std::string& pointer, const std::string& valueJson);

}  // namespace strata::model
