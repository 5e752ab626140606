// The structure tree of a ZDS dataset: dataset → zds.json, collections → manifest, ZDX index
// (header and entries, in index.bin), documents (lines of data.jsonl or docs/ files), archive
// members. Children of indexes, document lists and member lists are built on demand.
#pragma once

#include <memory>

#include "formats/common/node.h"
#include "zds_reader.h"

namespace strata::zds {

std::unique_ptr<Node> buildZdsTree(std::shared_ptr<const ZdsDataset> dataset);

// Node kinds: zds.dataset, zds.metadata (zds.json), zds.collection, zds.manifest, zds.zdx,
// zds.zdx.header, zds.zdx.entry, zds.data, zds.document, zds.docs, zds.file (order.ids,
// doc_index.jsonl), zds.zip.members, zds.zip.member.

}  // namespace strata::zds
