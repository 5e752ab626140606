#include "zs_probe.h"
#include "zs_format.h"

#include <algorithm>
#include <string>

namespace strata {

namespace {

bool startsWith(std::span<const std::uint8_t> bytes, std::string_view prefix) {
    return bytes.size() >= prefix.size() &&
           std::equal(prefix.begin(), prefix.end(), bytes.begin(),
                      [](char a, std::uint8_t b) { return static_cast<std::uint8_t>(a) == b; });
}

// Whether all of `bytes` (fewer than the magic's length) could be the start of `magic`.
bool isPrefixOf(std::span<const std::uint8_t> bytes, std::string_view magic) {
    return bytes.size() < magic.size() && startsWith(bytes, magic.substr(0, bytes.size()));
}

}  // namespace

ZsMagicKind classifyZsMagic(std::span<const std::uint8_t> head) {
    if (startsWith(head, kZsMagic)) {
        return ZsMagicKind::Complete;
    }
    if (startsWith(head, kZsPartialMagic)) {
        return ZsMagicKind::Incomplete;
    }
    if (head.size() >= kZsMagic.size() && startsWith(head, kZsMagic.substr(0, 7))) {
        return ZsMagicKind::UnknownVersion;
    }
    // Three bytes ("\xabZS") are needed before a cut-off file counts as ZS at all.
    if (head.size() >= 3 && (isPrefixOf(head, kZsMagic) || isPrefixOf(head, kZsPartialMagic))) {
        return ZsMagicKind::Truncated;
    }
    return ZsMagicKind::None;
}

std::optional<Detection> probeZs(const ProbeInput& input) {
    if (input.isDirectory) {
        return std::nullopt;
    }
    switch (classifyZsMagic(input.head)) {
        case ZsMagicKind::Complete:
            return Detection{kZsFormat, 100, "ZS file"};
        case ZsMagicKind::Incomplete:
            return Detection{kZsFormat, 100, "incomplete ZS file"};
        case ZsMagicKind::UnknownVersion:
            return Detection{kZsFormat, 70,
                             "ZS file of unknown version " + std::to_string(input.head[7])};
        case ZsMagicKind::Truncated:
            return Detection{kZsFormat, 50, "ZS file cut off inside its magic"};
        case ZsMagicKind::None:
            break;
    }
    if (input.extension == ".zs") {
        return Detection{kZsFormat, 20, "file named .zs without the ZS magic"};
    }
    return std::nullopt;
}

}  // namespace strata
