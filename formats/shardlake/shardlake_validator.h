// The Shardlake validator: every check the reference's `validate-manifest` makes, plus what it
// misses (trailing bytes, dims and counts against file lengths, shard ids, key escapes, aliases,
// duplicate ids, non-finite vectors, PQ codebooks). Codes are listed in docs/formats-shardlake.md.
#pragma once

#include <memory>
#include <string>

#include "formats/common/validator.h"
#include "shardlake_store.h"

namespace strata::shardlake {

enum class ValidationScope {
    Root,             // every dataset, index and alias under the root
    Index,            // indexes/<name>
    Dataset,          // datasets/<name>
    Alias,            // aliases/<name>.json (name without .json)
    Shard,            // one .sidx file on its own
    CoarseQuantizer,  // one .cq file on its own
    Codebook,         // one pq_codebook.bin on its own
    Manifest,         // one manifest.json outside a storage root
};

struct ValidationTarget {
    ValidationScope scope = ValidationScope::Root;
    std::string name;
    // The file for the single-file scopes.
    ByteSourcePtr file;
};

std::unique_ptr<Validator> makeShardlakeValidator(std::shared_ptr<const Store> store,
                                                  ValidationTarget target);

}  // namespace strata::shardlake
