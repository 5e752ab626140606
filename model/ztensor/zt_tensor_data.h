// A tensor's values, loaded for viewing: dense raw tensors are a view of the mapped file (no
// copy), zstd ones are decoded with the declared size as the bound, sparse ones keep their
// components and are densified only when small.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "formats/ztensor/zt_decode.h"
#include "formats/ztensor/zt_file.h"
#include "formats/ztensor/zt_sparse.h"

namespace strata::model {

// Sparse tensors with at most this many elements are also shown densified.
inline constexpr std::uint64_t kZtDensifyLimit = 1'000'000;

struct ZtTensorData {
    std::string name;
    strata::ztensor::ZtDType dtype = strata::ztensor::ZtDType::Float32;
    std::vector<std::uint64_t> shape;
    bool sparse = false;
    // Row-major little-endian bytes of every element, when hasDense.
    strata::ByteView dense;
    // Instead of `dense`, for raw data in a remote file: where those bytes are in the file, so
    // a view reads only the elements it shows (never the whole tensor, never waiting).
    strata::Region denseRegion;
    bool hasDense = false;
    // The loaded components of a sparse tensor (checked: no structural issues).
    std::shared_ptr<const strata::ztensor::ZtSparseData> sparseData;
    // Why nothing (or only part) could be loaded.
    std::string error;

    bool ok() const { return error.empty(); }
    std::uint64_t elementCount() const;
};

// Loads what the views show. Never decodes more than `maxDecoded` bytes of any component.
ZtTensorData ztLoadTensorData(const strata::ztensor::ZtFile& file,
                              const strata::ztensor::ZtTensor& tensor,
                              std::uint64_t maxDecoded = strata::ztensor::kZtDefaultLoadLimit);

// True when loading only maps bytes (a raw dense tensor), so it may run on the GUI thread.
bool ztLoadIsCheap(const strata::ztensor::ZtFile& file, const strata::ztensor::ZtTensor& tensor);

// The coordinate of sparse entry `entry` along `axis` (CSR: axis 0 is the row, found by binary
// search of indptr; axis 1 the column index).
std::uint64_t ztSparseCoordinate(const ZtTensorData& data, std::uint64_t entry, std::size_t axis);

}  // namespace strata::model
