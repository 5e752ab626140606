// Sparse-aware value comparison of two zTensor tensors of one dtype and shape, at least one of
// them sparse_csr or sparse_coo (the other sparse or dense): elements are matched by their
// row-major coordinates, an entry a sparse tensor does not store counting as zero. The same
// values at the same coordinates compare equal whatever the order of the stored entries, the
// sparse layout, or a dense side.
//
// Memory: each sparse side's components are decoded whole (at most `maxBytes` each) and a table
// of (row-major index, entry) pairs sorted by index is built, 16 bytes per stored entry; a dense
// side is streamed.
#pragma once

#include <cstdint>

#include "zt_diff.h"
#include "zt_file.h"

namespace strata::ztensor {

// Per component, the most a sparse side may decode for the comparison.
inline constexpr std::uint64_t kZtSparseCompareLimit = 1ull << 30;

// `diff.elements` is the tensor's element count (implicit zeros included, so the RMS is over
// every logical element); `diff.firstDiffering` is a row-major index. Fails (ok = false, error
// saying why) when a side is not dense or sparse, a sparse side cannot be loaded or breaks the
// spec's rules (ztLoadSparse), stores one coordinate twice, or when dtype or shape differ.
ZtValueComparison ztCompareByCoordinates(const ZtFile& a, const ZtTensor& ta, const ZtFile& b,
                                         const ZtTensor& tb, const CancelToken* cancel,
                                         std::uint64_t maxBytes = kZtSparseCompareLimit);

}  // namespace strata::ztensor
