// Salvages a damaged Shardlake storage root into a new root beside it (never in place, never over
// an existing path). Every index is rebuilt from what its files agree on: dims, compression and
// PQ settings by vote of the manifest, the shard headers, the quantizer and the codebook; each
// shard file is checked against them, its header fields mended when the file's length and the
// other sources agree on them, records that cannot be read (non-finite values, PQ codes out of
// range, ids stored twice) dropped one by one, and a shard is kept only when something vouches
// for its bytes: its manifest fingerprint (letter case aside), or, for raw shards, the dataset's
// vectors record by record, or `RepairOptions::recomputeDigests`. Kept shards are renumbered
// 0..n-1 when some were lost, the quantizer is rewritten from the agreed centroids, and a new
// manifest lists them with fresh fingerprints, counts and summary. Datasets are copied when they
// validate; otherwise vectors.jsonl is rebuilt from a raw index whose shards all match their
// fingerprints or keeps its usable lines, and metadata.json and info.json are rebuilt from the
// vectors. Aliases whose target is gone are repointed to the index that says it was published
// under that name (the newest, when several do), or removed. The output is validated with the
// Shardlake validator before it is given its name. Counted items are the vectors of the indexes
// (shard records). Details: docs/formats-shardlake.md.
#pragma once

#include <filesystem>

#include "formats/common/repair.h"

namespace strata {

// Throws RepairError when `input` is not a storage root (an index or dataset folder alone cannot
// be written as a valid root: its keys and its dataset live above it), when nothing could be
// recovered, when `output` exists or lies inside `input`, or when the output fails validation.
RepairReport repairShardlakeRoot(const std::filesystem::path& input,
                                 const std::filesystem::path& output,
                                 const RepairOptions& options = {});

}  // namespace strata
