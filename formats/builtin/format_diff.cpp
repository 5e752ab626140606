#include "format_diff.h"

#include "builtin_formats.h"

namespace strata {

std::unique_ptr<Differ> makeDiffer(const OpenedDocument& a, const OpenedDocument& b) {
    if (a.format != b.format) {
        throw DiffError("cannot compare a " + std::string(formatName(a.format)) + " with a " +
                        std::string(formatName(b.format)) + ": both sides must be one format");
    }
    return builtinFormats().handler(a.format).makeDiffer(a, b);
}

}  // namespace strata
