// What the file map and the hex view colour: byte ranges of a file labelled with node kinds,
// collected from the already-available top of the Node tree without enumerating big lists.
#pragma once

#include <QColor>
#include <QList>
#include <QString>

#include "formats/common/diagnostic.h"
#include "formats/common/node.h"

namespace strata::gui {

struct MapSegment {
    quint64 offset = 0;
    quint64 length = 0;
    const strata::Node* node = nullptr;
    int depth = 0;
};

struct MapSegmentOptions {
    // Nodes with more children than this are coloured as a whole (a list of a million records
    // is one band, not a million).
    quint64 maxChildrenPerNode = 4096;
    // Descend into a child only when it covers at least this fraction of the file.
    double minDescendFraction = 1.0 / 64;
    int maxDepth = 4;
    // Upper bound on nodes visited in all.
    int maxNodes = 20000;
};

// Segments for the bytes of `source` under `fileNode`, parents before children (so painting in
// order puts the finer detail on top). Regions in other sources are skipped.
QList<MapSegment> collectMapSegments(const strata::Node* fileNode, const strata::ByteSource* source,
                                     const MapSegmentOptions& options = {});

// A diagnostic reduced to what the file map draws and says.
struct MapMarker {
    quint64 offset = 0;
    quint64 length = 0;
    strata::Severity severity = strata::Severity::Info;
    QString text;
};

}  // namespace strata::gui
