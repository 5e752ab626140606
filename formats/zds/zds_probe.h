// Recognises ZDS datasets: folders by their layout, `.zds` ZIP archives, and lone ZDX indexes.
#pragma once

#include <optional>
#include <string_view>

#include "formats/registry/format_handler.h"

namespace strata::zds {

// The ZDX magic as it is on disk: the spec's "ZDSI" written as a little-endian u32.
inline constexpr std::string_view kZdxMagic{"ISDZ", 4};

enum class ZdsKind {
    DatasetFolder,        // zds.json and/or collections/
    CollectionFolder,     // a collection itself: meta/ with a known file, or docs/
    NoCollectionsFolder,  // collection folders one level too deep under another name
    Archive,              // a ZIP named .zds, or a ZIP whose members are a dataset
    NotAZip,              // named .zds but not a ZIP
    ZdxIndex,             // index.bin by magic
    None,
};

struct ZdsProbe {
    ZdsKind kind = ZdsKind::None;
    Detection detection;
};

ZdsProbe classifyZds(const ProbeInput& input);

// ZDX magic, or a ZIP named .zds → 100; a dataset folder with zds.json or collections → 90
// (50 when collections/ holds none); a collection folder → 80; a ZIP of another name whose
// first members are a dataset → 60; collections under another folder name → 30; a `.zds` that
// is not a ZIP → 20.
std::optional<Detection> probeZds(const ProbeInput& input);

}  // namespace strata::zds
