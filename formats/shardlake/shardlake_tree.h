// The Shardlake structure tree. Kinds: shardlake.root, shardlake.datasets, shardlake.dataset,
// shardlake.dataset_info, shardlake.vectors, shardlake.indexes, shardlake.index,
// shardlake.manifest, shardlake.manifest.shard, shardlake.shard, shardlake.shard.header,
// shardlake.centroids, shardlake.centroid, shardlake.records, shardlake.record,
// shardlake.trailing, shardlake.coarse_quantizer, shardlake.pq_codebook, shardlake.codeword,
// shardlake.aliases, shardlake.alias, shardlake.json, shardlake.file, shardlake.missing.
// Every node's region lies in the ByteSource of the file it describes; records, centroids and
// codewords are made only when looked at, each at an offset computed from its index.
#pragma once

#include <memory>
#include <string>

#include "formats/common/node.h"
#include "shardlake_store.h"

namespace strata::shardlake {

// A single artifact, opened on its own.
std::unique_ptr<Node> makeShardNode(ByteSourcePtr source, std::string label);
std::unique_ptr<Node> makeCoarseQuantizerNode(ByteSourcePtr source, std::string label);
std::unique_ptr<Node> makeCodebookNode(ByteSourcePtr source, std::string label);
// `kind` is shardlake.manifest, shardlake.alias, shardlake.dataset_info or shardlake.json.
std::unique_ptr<Node> makeJsonNode(ByteSourcePtr source, std::string kind, std::string label);

// Folders of a storage root; files are mapped through (and kept alive by) the store.
std::unique_ptr<Node> makeIndexNode(const Store& store, const std::string& version);
std::unique_ptr<Node> makeDatasetNode(const Store& store, const std::string& version);
std::unique_ptr<Node> makeRootNode(const Store& store);

}  // namespace strata::shardlake
