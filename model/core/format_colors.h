// Colours shared by the hex view, the file map and the tree: a stable colour per node kind and
// fixed colours per status and severity.
#pragma once

#include <QColor>

#include <string_view>

#include "formats/common/diagnostic.h"
#include "formats/common/node.h"

namespace strata::model {

// A pleasant light background for a node kind ("zs.header"), the same in every run (the hash
// is FNV-1a, not Qt's seeded qHash). `dark` gives a darker variant for dark themes.
QColor colorForKind(std::string_view kind, bool dark = false);
// colorForKind, shaded by the node's "level" field when it has one (ZS index blocks): each level
// of a tree structure gets its own shade of the kind's colour in the file map and hex view.
QColor colorForNode(const strata::Node& node, bool dark = false);
// Ok gives an invalid QColor (no tint); Info blue, Warning amber, Error red.
QColor colorForStatus(strata::Status status);
QColor colorForSeverity(strata::Severity severity);
// Foreground text colour readable on `background`.
QColor textColorOn(const QColor& background);

}  // namespace strata::model
