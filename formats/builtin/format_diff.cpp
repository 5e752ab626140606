#include "format_diff.h"

#include "builtin_formats.h"

namespace strata {

std::unique_ptr<Differ> makeDiffer(const OpenedDocument& a, const OpenedDocument& b) {
    return builtinFormats().makeDiffer(a, b);
}

}  // namespace strata
