// Selections as history locations and back: what a view records when the user goes somewhere,
// and where that is in a document now, which may be another opening of the same files whose
// tree has changed (a node removed by an edit and a save).
#pragma once

#include <optional>

#include "formats/common/node.h"
#include "model/core/selection_history.h"

namespace strata::model {

class ByteOverlay;
class Document;

// `length` bytes at `offset` of `file` selected, and `node` (may be null) in the tree.
SelectionLocation locationOf(const strata::ByteSource& file, quint64 offset, quint64 length,
                             const strata::Node* node);

struct ResolvedLocation {
    ByteOverlay* file = nullptr;
    quint64 offset = 0;
    quint64 length = 0;
    // Null when the node recorded is no longer there (or none was): the view picks the deepest
    // node at the bytes.
    const strata::Node* node = nullptr;
};

// The location in `document`: its node found again by its rows when it is still the node
// recorded (same kind and label), with the selection kept at its place in the node; otherwise
// the bytes alone, clamped to the file's size. Nothing when the file is not in the document.
// A remote document's nodes are looked for only among those built already: finding others
// would wait for the server.
std::optional<ResolvedLocation> resolveLocation(const Document& document,
                                                const SelectionLocation& location);

}  // namespace strata::model
