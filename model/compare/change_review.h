// "Review Changes…": what Save would write, compared with the files on disk. The document's
// editor writes its edited content to a scratch folder exactly as Save would (the same writer,
// typed text applied first), then a Comparison of the files on disk (A) with that copy (B) is
// handed over; the scratch folder lives as long as the comparison.
#pragma once

#include <QString>

#include <functional>
#include <memory>

#include "comparison.h"

namespace strata::model {

// Called on the GUI thread: a comparison ready to start, or nullptr and the reason.
using ChangeReviewReady = std::function<void(std::unique_ptr<Comparison>, const QString& error)>;

// Starts writing the copy; nullptr (with *error) when the document has no editor, its typed
// text cannot be applied, or its editor cannot write a copy.
Job* startChangeReview(JobRunner& runner, Document& document, ChangeReviewReady ready,
                       QString* error);

}  // namespace strata::model
