// Compares two Shardlake storage roots: datasets, index versions and aliases matched by name
// (only in A removed, only in B added). Common JSON documents (a dataset's info.json and
// metadata.json, an index's manifest.json, an alias) are compared as JSON, field by field; the
// binary files of an index (shards, coarse quantizer, PQ codebook) by name and bytes; a
// dataset's vectors by id, a changed vector with the L2 distance between its two values.
#pragma once

#include <memory>

#include "formats/common/diff.h"
#include "shardlake_store.h"

namespace strata {

std::unique_ptr<Differ> makeShardlakeDiffer(std::shared_ptr<const shardlake::Store> a,
                                            std::shared_ptr<const shardlake::Store> b);

// Two index versions (two index folders, of one root or of two, named alike or not): their
// files as above (paths named by A's version), then their answers (recall@k).
std::unique_ptr<Differ> makeShardlakeIndexDiffer(const shardlake::StoreIndex& a,
                                                 const shardlake::StoreIndex& b);

// Two dataset folders (`ROOT/datasets/<version>`, named alike or not): their files as above
// (vectors.jsonl by id), paths named by A's dataset, nothing else of their roots.
std::unique_ptr<Differ> makeShardlakeDatasetDiffer(const shardlake::StoreDataset& a,
                                                   const shardlake::StoreDataset& b);

// Two single `.sidx` shards: the header field by field (`header`), the centroids (`centroids`,
// one difference counting those that differ) and the vectors by id (`vectors/<id>`: removed,
// added, changed with the L2 distance, or for PQ shards the count of codes that differ). Throws
// DiffError when either header cannot be read.
std::unique_ptr<Differ> makeShardlakeShardDiffer(const shardlake::ShardFile& a,
                                                 const shardlake::ShardFile& b);

}  // namespace strata
