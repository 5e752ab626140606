// Compares two zTensor files: tensors matched by name. A tensor only in A is removed, only in B
// added; in both, a change of dtype, shape or format is reported with both values, and tensors
// that agree on those are compared value by value (streamed, both sides decoded at once): the
// count of differing elements, the first one, the largest absolute and relative difference and
// the RMS difference. The same values stored another way (raw against zstd, other offsets, a
// digest added) and file-level layout or generator differences are encoding differences.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "formats/common/diff.h"
#include "zt_file.h"

namespace strata::ztensor {

// Element-by-element comparison of two equally long runs of one dtype.
struct ZtValueDiff {
    std::uint64_t elements = 0;   // compared
    std::uint64_t differing = 0;  // elements whose bytes differ (+0 and -0 differ)
    std::optional<std::uint64_t> firstDiffering;
    // Over the pairs where both values are finite.
    double maxAbs = 0, maxRel = 0, sumSquares = 0;
    // Pairs that differ where one side is NaN or infinite (no distance is defined).
    std::uint64_t nonFinite = 0;

    void merge(const ZtValueDiff& other);
    // Root of the mean squared difference over every element compared (equal ones count 0).
    double rms() const;
    bool identical() const { return differing == 0; }
};

// Compares `elementCount` elements starting at `firstElement`; both spans hold whole elements.
void ztCompareElements(ZtDType dtype, const std::uint8_t* a, const std::uint8_t* b,
                       std::uint64_t elementCount, std::uint64_t firstElement, ZtValueDiff& out);

struct ZtValueComparison {
    bool ok = false;
    bool cancelled = false;
    std::string error;  // names the side and component that could not be read
    ZtValueDiff diff;
};

// Streams the decoded bytes of component `ca` of A and `cb` of B (any encodings) and compares
// them as `dtype` elements. Raw components on both sides are compared in place, split over
// `threads` workers; otherwise each side is decoded on its own thread.
ZtValueComparison ztCompareComponents(const ZtFile& a, const ZtComponent& ca, const ZtFile& b,
                                      const ZtComponent& cb, ZtDType dtype,
                                      const CancelToken* cancel, unsigned threads);

std::unique_ptr<Differ> makeZtDiffer(std::shared_ptr<const ZtFile> a,
                                     std::shared_ptr<const ZtFile> b);

}  // namespace strata::ztensor
