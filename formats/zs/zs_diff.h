// Compares two ZS files by what they hold: both record streams are sorted, so one merge walk
// over them (each side decoded on its own thread) finds the records only in A (removed) and only
// in B (added); equal records are the same whatever block holds them. Metadata is compared as
// JSON. A different codec or block layout with the same records is an encoding difference.
#pragma once

#include <memory>

#include "formats/common/diff.h"
#include "zs_reader.h"

namespace strata {

std::unique_ptr<Differ> makeZsDiffer(std::shared_ptr<const zs::ZsFile> a,
                                     std::shared_ptr<const zs::ZsFile> b);

}  // namespace strata
