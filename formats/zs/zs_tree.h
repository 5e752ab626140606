// The lazy structure tree of a ZS file:
//
//   zs.file                      the whole file
//     zs.magic                   8 bytes
//     zs.header                  length, fields (zs.header.field children), CRC
//     zs.index_block "root index"  the index tree, by reference: each entry's child is the block
//       zs.index_block / zs.data_block / zs.extension_block    it points to (built on expansion)
//         zs.record              a data block's records (decoded on expansion)
//     zs.blocks "blocks"         every block in file order (framing scanned on expansion)
//
// Building the tree reads the header and the root index block only. A data block is read,
// CRC-checked and decoded when it is expanded; its status turns to error then if it is damaged.
#pragma once

#include <memory>
#include <string>

#include "formats/common/node.h"
#include "zs_block.h"
#include "zs_reader.h"

namespace strata::zs {

inline constexpr const char* kHeaderLabel = "header";
inline constexpr const char* kMagicLabel = "magic";
inline constexpr const char* kRootLabel = "root index";
inline constexpr const char* kBlocksLabel = "blocks";

// "data block @134", "index block @162", "extension block @525".
std::string blockLabel(BlockKind kind, std::uint64_t offset);

std::unique_ptr<Node> buildZsTree(std::shared_ptr<const ZsFile> file);

}  // namespace strata::zs
