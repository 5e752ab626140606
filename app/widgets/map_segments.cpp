#include "map_segments.h"

#include <deque>

namespace strata::gui {

QList<MapSegment> collectMapSegments(const strata::Node* fileNode, const strata::ByteSource* source,
                                     const MapSegmentOptions& options) {
    QList<MapSegment> out;
    if (fileNode == nullptr || source == nullptr) {
        return out;
    }
    const quint64 size = source->size();
    const double minDescend = options.minDescendFraction * static_cast<double>(size);
    struct Pending {
        const strata::Node* node;
        int depth;
    };
    std::deque<Pending> queue{{fileNode, 0}};
    int visited = 0;
    while (!queue.empty() && visited < options.maxNodes) {
        const Pending item = queue.front();
        queue.pop_front();
        ++visited;
        const strata::Region region = item.node->region().clipped();
        const bool here = region.source == source && region.length > 0;
        if (here && item.depth > 0) {
            out.append({region.offset, region.length, item.node, item.depth});
        }
        if (item.depth >= options.maxDepth || !item.node->hasChildren()) {
            continue;
        }
        // The file node always opens; below it only nodes that cover a visible share.
        const bool big = item.depth == 0 || static_cast<double>(region.length) >= minDescend;
        if (!big) {
            continue;
        }
        const quint64 count = item.node->childCount();
        if (count > options.maxChildrenPerNode) {
            continue;
        }
        for (quint64 i = 0; i < count; ++i) {
            if (const strata::Node* child = item.node->child(i)) {
                queue.push_back({child, item.depth + 1});
            }
        }
    }
    return out;
}

}  // namespace strata::gui
