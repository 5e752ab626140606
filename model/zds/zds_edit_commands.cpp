#include "zds_edit_commands.h"

#include <QObject>
#include <QUndoStack>

#include <algorithm>
#include <set>

#include "formats/zds/zds_validator.h"
#include "model/core/counted_text.h"
#include "zds_document_text.h"

namespace strata::model {

namespace {

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

bool validPositions(const ZdsTableModel* model, std::vector<int>& positions) {
    std::sort(positions.begin(), positions.end());
    positions.erase(std::unique(positions.begin(), positions.end()), positions.end());
    return !positions.empty() && positions.front() >= 0 &&
           positions.back() < model->documentCount();
}

std::string pointerOf(const std::string& field) {
    if (field.empty() || field.front() == '/') {
        return field;
    }
    std::string out = "/";
    for (char c : field) {
        out += c == '~' ? std::string("~0") : c == '/' ? std::string("~1") : std::string(1, c);
    }
    return out;
}

}  // namespace

ZdsInsertRowsCommand::ZdsInsertRowsCommand(ZdsTableModel* model, int at, std::vector<ZdsRow> rows,
                                           const QString& text)
    : QUndoCommand(text), model_(model), at_(at), rows_(std::move(rows)) {}

void ZdsInsertRowsCommand::redo() {
    model_->insertRows(at_, rows_);
}

void ZdsInsertRowsCommand::undo() {
    model_->removeStoredRows(at_, static_cast<int>(rows_.size()));
}

ZdsRemoveRowsCommand::ZdsRemoveRowsCommand(ZdsTableModel* model, std::vector<int> positions,
                                           const QString& text)
    : QUndoCommand(text), model_(model) {
    std::sort(positions.begin(), positions.end());
    for (int p : positions) {
        removed_.emplace_back(p, ZdsRow{});
    }
}

void ZdsRemoveRowsCommand::redo() {
    for (auto it = removed_.rbegin(); it != removed_.rend(); ++it) {
        it->second = model_->row(it->first);
        model_->removeStoredRows(it->first, 1);
    }
}

void ZdsRemoveRowsCommand::undo() {
    for (const auto& [at, row] : removed_) {
        model_->insertRows(at, {row});
    }
}

ZdsSetRowsCommand::ZdsSetRowsCommand(ZdsTableModel* model, std::vector<std::pair<int, ZdsRow>> rows,
                                     const QString& text)
    : QUndoCommand(text), model_(model), after_(std::move(rows)) {}

void ZdsSetRowsCommand::redo() {
    before_.clear();
    for (const auto& [at, row] : after_) {
        before_.emplace_back(at, model_->row(at));
        model_->setRow(at, row);
    }
}

void ZdsSetRowsCommand::undo() {
    for (auto it = before_.rbegin(); it != before_.rend(); ++it) {
        model_->setRow(it->first, it->second);
    }
}

ZdsRow makeTextRow(const std::string& json, const std::string& id) {
    auto text = std::make_shared<ZdsText>();
    text->json = compactJson(json).value_or(json);
    text->id = id;
    return ZdsRow{-1, std::move(text)};
}

QString addZdsDocument(QUndoStack* stack, ZdsTableModel* model, const std::string& json, int at) {
    std::string id;
    const std::string error = model->checkText(json, -1, &id);
    if (!error.empty()) {
        return q(error);
    }
    at = std::clamp(at, 0, model->documentCount());
    stack->push(new ZdsInsertRowsCommand(model, at, {makeTextRow(json, id)},
                                         QObject::tr("Add document %1").arg(q(id))));
    return {};
}

QString duplicateZdsDocuments(QUndoStack* stack, ZdsTableModel* model, std::vector<int> positions) {
    if (!validPositions(model, positions)) {
        return QObject::tr("no documents selected");
    }
    // Copies go right after the last selected row, each with a fresh id.
    std::set<std::string> taken;
    std::vector<ZdsRow> rows;
    for (int p : positions) {
        std::string id = model->freeId(model->id(p) + "_copy");
        for (int n = 2; taken.count(id) != 0; ++n) {
            id = model->freeId(model->id(p) + "_copy" + std::to_string(n));
        }
        const auto json = withId(model->text(p), id);
        if (!json) {
            return QObject::tr("document %1 is not a JSON object").arg(q(model->id(p)));
        }
        taken.insert(id);
        rows.push_back(makeTextRow(*json, id));
    }
    stack->push(new ZdsInsertRowsCommand(
        model, positions.back() + 1, std::move(rows),
        QObject::tr("Duplicate %1").arg(counted(positions.size(), QObject::tr("document")))));
    return {};
}

QString deleteZdsDocuments(QUndoStack* stack, ZdsTableModel* model, std::vector<int> positions) {
    if (!validPositions(model, positions)) {
        return QObject::tr("no documents selected");
    }
    const int n = static_cast<int>(positions.size());
    stack->push(new ZdsRemoveRowsCommand(
        model, std::move(positions),
        QObject::tr("Delete %1").arg(counted(n, QObject::tr("document")))));
    return {};
}

QString replaceZdsDocument(QUndoStack* stack, ZdsTableModel* model, int position,
                           const std::string& json) {
    if (position < 0 || position >= model->documentCount()) {
        return QObject::tr("no document selected");
    }
    std::string id;
    const std::string error = model->checkText(json, position, &id);
    if (!error.empty()) {
        return q(error);
    }
    stack->push(new ZdsSetRowsCommand(model, {{position, makeTextRow(json, id)}},
                                      QObject::tr("Edit document %1").arg(q(id))));
    return {};
}

QString renameZdsDocument(QUndoStack* stack, ZdsTableModel* model, int position,
                          const std::string& newId) {
    if (position < 0 || position >= model->documentCount()) {
        return QObject::tr("no document selected");
    }
    const std::string oldId = model->id(position);
    if (newId == oldId) {
        return {};
    }
    if (newId.empty() || newId.size() > 255 || !zds::zdsIdCharsOk(newId)) {
        return QObject::tr(
                   "\"%1\" is not a valid id: 1 to 255 bytes of letters, digits, '_', "
                   "'-' or '.'")
            .arg(q(newId));
    }
    if (model->idInUse(newId)) {
        return QObject::tr("another document already has the id \"%1\"").arg(q(newId));
    }
    const auto json = withId(model->text(position), newId);
    if (!json) {
        return QObject::tr("document %1 is not a JSON object").arg(q(oldId));
    }
    stack->push(new ZdsSetRowsCommand(model, {{position, makeTextRow(*json, newId)}},
                                      QObject::tr("Rename %1 to %2").arg(q(oldId), q(newId))));
    return {};
}

QString setZdsField(QUndoStack* stack, ZdsTableModel* model, std::vector<int> positions,
                    const std::string& field, const std::string& valueJson) {
    if (!validPositions(model, positions)) {
        return QObject::tr("no documents selected");
    }
    const std::string pointer = pointerOf(field);
    if (pointer.empty() || pointer == "/_id" || pointer.rfind("/_id/", 0) == 0) {
        return QObject::tr(
            "pick a field other than the whole document or _id (rename ids one "
            "by one)");
    }
    if (!compactJson(valueJson)) {
        return QObject::tr("the value must be JSON (strings in double quotes)");
    }
    std::vector<std::pair<int, ZdsRow>> rows;
    for (int p : positions) {
        const auto json = withField(model->text(p), pointer, valueJson);
        if (!json) {
            return QObject::tr("cannot set %1 in document %2").arg(q(pointer), q(model->id(p)));
        }
        rows.emplace_back(p, makeTextRow(*json, model->id(p)));
    }
    const int n = static_cast<int>(positions.size());
    stack->push(new ZdsSetRowsCommand(
        model, std::move(rows),
        QObject::tr("Set %1 on %2").arg(q(pointer), counted(n, QObject::tr("document")))));
    return {};
}

}  // namespace strata::model
