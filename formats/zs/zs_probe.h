// Recognises ZS files by their magic, and names the ways the magic can be wrong.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "formats/registry/format_handler.h"

namespace strata {

inline constexpr std::string_view kZsMagic{
    "\xab"
    "ZSfiLe\x01",
    8};
// Written while `zs make` runs and replaced by kZsMagic at the very end: a file that still has
// it was never finished.
inline constexpr std::string_view kZsPartialMagic{
    "\xab"
    "ZStoBe\x01",
    8};

enum class ZsMagicKind {
    Complete,        // kZsMagic
    Incomplete,      // kZsPartialMagic
    UnknownVersion,  // "\xabZSfiLe" followed by a version byte other than 1
    Truncated,       // shorter than 8 bytes, and a prefix of one of the magics
    None,            // anything else
};

ZsMagicKind classifyZsMagic(std::span<const std::uint8_t> head);

// Magic → 100 ("ZS file", "incomplete ZS file"); a future version byte → 70; a file cut inside
// the magic → 50; a `.zs` name without the magic → 20, so validation can report it.
std::optional<Detection> probeZs(const ProbeInput& input);

}  // namespace strata
