#include "ozdf_commands.h"

#include "formats/ozdf/ozdf_edit.h"
#include "formats/ozdf/ozdf_json.h"
#include "formats/ozdf/ozdf_writer.h"

namespace strata::model {

namespace {

bool fail(QString* error, const QString& text) {
    if (error != nullptr) {
        *error = text;
    }
    return false;
}

bool sameContent(const ozdf::Document& a, const ozdf::Document& b) {
    return ozdf::documentJson(a) == ozdf::documentJson(b);
}

// A file name a corpus reads back as the same kind of document.
bool checkFileName(const OzdfSession& session, const std::string& name, bool directory, int self,
                   QString* error) {
    if (name.empty() || name == "." || name == ".." || name.find('/') != std::string::npos ||
        name.find('\0') != std::string::npos) {
        return fail(
            error,
            QStringLiteral("'%1' is not a usable file name").arg(QString::fromStdString(name)));
    }
    if (!directory && !name.ends_with(".ozdf")) {
        return fail(error, QStringLiteral("a standalone document's name must end in .ozdf"));
    }
    const int other = session.indexOf(name);
    if (other >= 0 && other != self) {
        return fail(error, QStringLiteral("the corpus already has a document named '%1'")
                               .arg(QString::fromStdString(name)));
    }
    return true;
}

// Keeps the corpus in the order the reader gives: sorted by name.
int sortedPosition(const OzdfSession& session, const std::string& name) {
    int at = 0;
    while (at < session.documentCount() && session.document(at).filename < name) {
        ++at;
    }
    return at;
}

}  // namespace

OzdfDocumentsCommand::OzdfDocumentsCommand(OzdfSession& session, std::vector<Change> changes,
                                           const QString& text)
    : QUndoCommand(text), session_(session), changes_(std::move(changes)) {}

void OzdfDocumentsCommand::undo() {
    for (auto it = changes_.rbegin(); it != changes_.rend(); ++it) {
        session_.replaceDocument(it->index, it->before);
    }
}

void OzdfDocumentsCommand::redo() {
    for (const Change& change : changes_) {
        session_.replaceDocument(change.index, change.after);
    }
}

OzdfInsertDocumentCommand::OzdfInsertDocumentCommand(OzdfSession& session, int index,
                                                     ozdf::Document document, bool remove,
                                                     const QString& text)
    : QUndoCommand(text),
      session_(session),
      index_(index),
      document_(std::move(document)),
      remove_(remove) {}

void OzdfInsertDocumentCommand::insert() {
    session_.insertDocument(index_, document_);
}

void OzdfInsertDocumentCommand::erase() {
    session_.removeDocument(index_);
}

void OzdfInsertDocumentCommand::undo() {
    remove_ ? insert() : erase();
}

void OzdfInsertDocumentCommand::redo() {
    remove_ ? erase() : insert();
}

bool applyOzdfEdit(QUndoStack& stack, OzdfSession& session, int index, const QString& text,
                   const std::function<void(ozdf::Document&)>& edit, QString* error) {
    if (index < 0 || index >= session.documentCount()) {
        return fail(error, QStringLiteral("no such document"));
    }
    ozdf::Document after = session.document(index);
    try {
        edit(after);
        // Refuse now what the save would refuse later.
        (void)ozdf::writeDocumentText(after);
    } catch (const std::exception& e) {
        return fail(error, QString::fromStdString(e.what()));
    }
    if (sameContent(after, session.document(index))) {
        return fail(error, QStringLiteral("nothing changed"));
    }
    std::vector<OzdfDocumentsCommand::Change> changes;
    changes.push_back({index, session.document(index), std::move(after)});
    stack.push(new OzdfDocumentsCommand(session, std::move(changes), text));
    return true;
}

bool addOzdfDocument(QUndoStack& stack, OzdfSession& session, const QString& filename,
                     bool directory, QString* error) {
    if (!session.isCorpus()) {
        return fail(error, QStringLiteral("open the corpus folder to add documents"));
    }
    const std::string name = filename.trimmed().toStdString();
    if (!checkFileName(session, name, directory, -1, error)) {
        return false;
    }
    ozdf::Document document;
    document.filename = name;
    document.isDirectory = directory;
    document.path = session.folder() / name;
    stack.push(new OzdfInsertDocumentCommand(session, sortedPosition(session, name),
                                             std::move(document), false,
                                             QStringLiteral("Add document %1").arg(filename)));
    return true;
}

bool removeOzdfDocument(QUndoStack& stack, OzdfSession& session, int index, QString* error) {
    if (!session.isCorpus()) {
        return fail(error, QStringLiteral("open the corpus folder to remove documents"));
    }
    if (index < 0 || index >= session.documentCount()) {
        return fail(error, QStringLiteral("no such document"));
    }
    const QString name = QString::fromStdString(session.document(index).filename);
    stack.push(new OzdfInsertDocumentCommand(session, index, session.document(index), true,
                                             QStringLiteral("Remove document %1").arg(name)));
    return true;
}

bool renameOzdfDocument(QUndoStack& stack, OzdfSession& session, int index, const QString& filename,
                        QString* error) {
    if (!session.isCorpus()) {
        return fail(error, QStringLiteral("open the corpus folder to rename documents"));
    }
    if (index < 0 || index >= session.documentCount()) {
        return fail(error, QStringLiteral("no such document"));
    }
    const std::string name = filename.trimmed().toStdString();
    if (!checkFileName(session, name, session.document(index).isDirectory, index, error)) {
        return false;
    }
    return applyOzdfEdit(
        stack, session, index, QStringLiteral("Rename document to %1").arg(filename),
        [&](ozdf::Document& d) { d.filename = name; }, error);
}

bool toggleOzdfDocumentKind(QUndoStack& stack, OzdfSession& session, int index, QString* error) {
    if (!session.isCorpus()) {
        return fail(error, QStringLiteral("open the corpus folder to change a document's kind"));
    }
    if (index < 0 || index >= session.documentCount()) {
        return fail(error, QStringLiteral("no such document"));
    }
    const ozdf::Document& document = session.document(index);
    const std::string name = ozdf::toggledFileName(document);
    if (!checkFileName(session, name, !document.isDirectory, index, error)) {
        return false;
    }
    const QString text = document.isDirectory ? QStringLiteral("Make %1 a standalone document")
                                              : QStringLiteral("Make %1 a directory document");
    return applyOzdfEdit(
        stack, session, index, text.arg(QString::fromStdString(document.filename)),
        [](ozdf::Document& d) { ozdf::toggleDirectoryDocument(d); }, error);
}

}  // namespace strata::model
