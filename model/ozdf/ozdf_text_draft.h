// How the OZDF editor's typed text (a TextDraft) is applied: it sets the text of the paragraph
// or comment it was loaded from, in the document found again by its file name, as one undo
// step. Text that reads back as what is there already applies as nothing.
#pragma once

#include <QString>
#include <QUndoStack>

#include <string>

#include "model/core/text_draft.h"
#include "model/ozdf/ozdf_document_model.h"

namespace strata::model {

class OzdfSession;

TextDraft::Applier ozdfTextApplier(QUndoStack& stack, OzdfSession& session, std::string filename,
                                   OzdfAddress address);

// The key a restored view finds the paragraph or comment by, and its readable name.
QString ozdfDraftKey(const std::string& filename, const OzdfAddress& address);
QString ozdfDraftTarget(const OzdfSession& session, int document, const OzdfAddress& address);

bool sameOzdfAddress(const OzdfAddress& a, const OzdfAddress& b);

}  // namespace strata::model
