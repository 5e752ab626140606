// Parses what the user types into "Go to offset": "0x1F40", "8000", "+0x10", "-16".
#pragma once

#include <QString>

#include <cstdint>
#include <optional>

namespace strata::gui {

struct OffsetParseResult {
    std::optional<std::uint64_t> offset;  // set on success
    QString error;                        // why not, for the dialog
};

// Absolute ("0x..." hex or decimal) or relative to `current` ("+n", "-n"). The target must lie
// inside a source of `size` bytes (offset `size` itself is accepted only for an empty source).
OffsetParseResult parseOffsetExpression(const QString& text, std::uint64_t current,
                                        std::uint64_t size);

}  // namespace strata::gui
