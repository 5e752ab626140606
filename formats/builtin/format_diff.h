// Picks the differ for two opened documents of one format (formats/common/diff.h).
#pragma once

#include <memory>

#include "formats/common/diff.h"
#include "formats/registry/format_handler.h"

namespace strata {

// Throws DiffError when the two are of different formats, or when the format cannot be compared
// yet (the message says which).
std::unique_ptr<Differ> makeDiffer(const OpenedDocument& a, const OpenedDocument& b);

}  // namespace strata
