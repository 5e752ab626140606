#include "selection_location.h"

#include <algorithm>

#include "model/core/document.h"

namespace strata::model {
namespace {

QString qstr(const std::string& s) {
    return QString::fromStdString(s);
}

// The node at `rows` below the root, if it is still the one recorded there.
const strata::Node* nodeAtRows(const Document& document, const SelectionLocation& location) {
    const strata::Node* node = document.root();
    for (const quint64 row : location.nodeRows) {
        if (node == nullptr || (document.isRemote() && !node->childrenBuilt(row + 1)) ||
            row >= node->childCount()) {
            return nullptr;
        }
        node = node->child(row);
    }
    if (node == nullptr || qstr(node->kind()) != location.nodeKind ||
        qstr(node->label()) != location.nodeLabel) {
        return nullptr;
    }
    return node;
}

// `offset` moved as far as a node moved from `from` to `to`, stopping at 0.
quint64 movedWith(quint64 offset, quint64 from, quint64 to) {
    return to >= from ? offset + (to - from) : offset - std::min(offset, from - to);
}

ByteOverlay* fileNamed(const Document& document, const QString& name) {
    const QList<ByteOverlay*> files = document.files();
    const auto found = std::find_if(files.begin(), files.end(), [&name](ByteOverlay* file) {
        return qstr(file->source().name()) == name;
    });
    return found == files.end() ? nullptr : *found;
}

}  // namespace

SelectionLocation locationOf(const strata::ByteSource& file, quint64 offset, quint64 length,
                             const strata::Node* node) {
    SelectionLocation location;
    location.file = qstr(file.name());
    location.offset = offset;
    location.length = length;
    if (node != nullptr) {
        location.hasNode = true;
        for (const strata::Node* n = node; n->parent() != nullptr; n = n->parent()) {
            location.nodeRows.prepend(n->row());
        }
        location.nodeKind = qstr(node->kind());
        location.nodeLabel = qstr(node->label());
        location.nodeOffset = node->region().offset;
    }
    return location;
}

std::optional<ResolvedLocation> resolveLocation(const Document& document,
                                                const SelectionLocation& location) {
    ResolvedLocation resolved;
    resolved.offset = location.offset;
    resolved.length = location.length;
    resolved.node = location.hasNode ? nodeAtRows(document, location) : nullptr;
    const strata::Region nodeRegion = resolved.node ? resolved.node->region() : strata::Region{};
    if (nodeRegion.valid() && qstr(nodeRegion.source->name()) == location.file) {
        // The node may have moved (the files were written again): the selection moves with it.
        resolved.file = document.overlayFor(nodeRegion.source);
        resolved.offset = movedWith(location.offset, location.nodeOffset, nodeRegion.offset);
    }
    if (resolved.file == nullptr) {
        resolved.file = fileNamed(document, location.file);
    }
    if (resolved.file == nullptr) {
        return std::nullopt;
    }
    const quint64 size = resolved.file->size();
    resolved.offset = size == 0 ? 0 : std::min(resolved.offset, size - 1);
    resolved.length = std::min(resolved.length, size - resolved.offset);
    return resolved;
}

}  // namespace strata::model
