// How the ZDS JSON editor's typed text (a TextDraft) is applied: it replaces the document it was
// loaded from, found again by its `_id` because rows may have moved since, as one undo step.
#pragma once

#include <string>

#include "model/core/text_draft.h"

class QUndoStack;

namespace strata::model {

class ZdsTableModel;

// The stored position of the document whose `_id` is `id`, trying `hint` first; -1 when none.
int findZdsDocument(const ZdsTableModel& model, const std::string& id, int hint);

TextDraft::Applier zdsDraftApplier(QUndoStack* stack, ZdsTableModel* model, std::string id,
                                   int storedHint);

// The key a restored view finds the draft's document by: the collection and the `_id`.
QString zdsDraftKey(const ZdsTableModel& model, const std::string& id);

}  // namespace strata::model
