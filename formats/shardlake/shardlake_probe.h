// Recognises Shardlake artifacts: binary files by magic, JSON documents by their keys, and
// storage roots and index folders by their layout, so a damaged root is still recognised.
#pragma once

#include <optional>
#include <string_view>

#include "formats/registry/format_handler.h"

namespace strata {

inline constexpr std::string_view kShardMagic{"SLKIDX\0\0", 8};
inline constexpr std::string_view kCoarseQuantizerMagic{"SLKIVF\0\0", 8};
inline constexpr std::string_view kPqCodebookMagic{"SLKPQCB\0", 8};

enum class ShardlakeKind {
    Shard,            // .sidx by magic
    CoarseQuantizer,  // coarse_quantizer.cq by magic
    PqCodebook,       // pq_codebook.bin by magic
    BadMagicFile,     // a .sidx / .cq / pq_codebook.bin without its magic
    Manifest,         // JSON with "manifest_version"
    Alias,            // JSON with "alias" and "index_version"
    DatasetInfo,      // JSON with "dataset_version" and "vectors_key"
    StorageRoot,      // datasets/, indexes/, aliases/
    IndexFolder,      // indexes/<version>/
    ShardsFolder,     // a folder of .sidx files
    DatasetFolder,    // datasets/<version>/ with info.json
    None,
};

struct ShardlakeProbe {
    ShardlakeKind kind = ShardlakeKind::None;
    Detection detection;
};

ShardlakeProbe classifyShardlake(const ProbeInput& input);

// Magic → 100; storage root with a readable index manifest → 90, by layout alone → 60; index
// folder with a manifest → 80, by layout → 40..50; dataset folder → 60; manifest, alias and dataset
// JSON → 40..70; a Shardlake file name without its magic → 20.
std::optional<Detection> probeShardlake(const ProbeInput& input);

}  // namespace strata
