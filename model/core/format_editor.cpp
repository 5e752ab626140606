#include "format_editor.h"

#include "document.h"

namespace strata::model {

FormatEditor::FormatEditor(Document& document) : QObject(&document), document_(document) {}

FormatEditor::~FormatEditor() = default;

}  // namespace strata::model
