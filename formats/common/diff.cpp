#include "diff.h"

#include <algorithm>

namespace strata {

std::string_view diffKindName(DiffKind kind) {
    switch (kind) {
        case DiffKind::Added:
            return "added";
        case DiffKind::Removed:
            return "removed";
        case DiffKind::Changed:
            return "changed";
        case DiffKind::Moved:
            return "moved";
        case DiffKind::Encoding:
            return "encoding";
    }
    return "changed";
}

void DiffSummary::count(DiffKind kind) {
    switch (kind) {
        case DiffKind::Added:
            ++added;
            break;
        case DiffKind::Removed:
            ++removed;
            break;
        case DiffKind::Changed:
            ++changed;
            break;
        case DiffKind::Moved:
            ++moved;
            break;
        case DiffKind::Encoding:
            ++encoding;
            break;
    }
}

std::string diffValueText(std::string_view text, std::size_t maxChars) {
    std::string out;
    out.reserve(std::min(text.size(), maxChars) + 3);
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (out.size() >= maxChars) {
            // Do not cut a UTF-8 sequence in two.
            while (!out.empty() && (static_cast<unsigned char>(out.back()) & 0xC0) == 0x80) {
                out.pop_back();
            }
            if (!out.empty() && static_cast<unsigned char>(out.back()) >= 0xC0) {
                out.pop_back();
            }
            return out + "…";
        }
        const char c = text[i];
        out += c == '\n' || c == '\r' || c == '\t' ? ' ' : c;
    }
    return out;
}

}  // namespace strata
