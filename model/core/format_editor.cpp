#include "format_editor.h"

#include "document.h"

namespace strata::model {

FormatEditor::FormatEditor(Document& document) : QObject(&document), document_(document) {}

FormatEditor::~FormatEditor() = default;

Job* FormatEditor::startWriteCopy(JobRunner&, const QString&, QString* error) {
    if (error != nullptr) {
        *error = tr("This kind of document cannot show its changes before saving.");
    }
    return nullptr;
}

}  // namespace strata::model
