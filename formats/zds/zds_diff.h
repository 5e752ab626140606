// Compares two ZDS datasets (folders or `.zds` archives, in any combination): collections by
// name, then documents by `_id` through each side's live set (zds_live_set.h). A document only
// in A is removed, only in B added; in both with other bytes it is changed (with the JSON paths
// that differ and both values) unless the two parse to the same JSON value (then it is stored
// differently: an encoding difference). How a collection is stored (JSONL or docs/, index
// present or not, archive or folder, document order) is reported as encoding differences that
// do not change the documents.
#pragma once

#include <memory>

#include "formats/common/diff.h"
#include "zds_reader.h"

namespace strata::zds {

std::unique_ptr<Differ> makeZdsDiffer(std::shared_ptr<const ZdsDataset> a,
                                      std::shared_ptr<const ZdsDataset> b);

}  // namespace strata::zds
