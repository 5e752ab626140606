// Sparse zTensor tensors (sparse_csr, sparse_coo): loading their components, checking that they
// describe a consistent matrix, and expanding them to dense bytes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "zt_decode.h"
#include "zt_file.h"

namespace strata::ztensor {

struct ZtSparseIssue {
    std::string message;
    // The bytes at fault: one index entry when the component is raw, else the whole component.
    Region region;
};

struct ZtSparseData {
    // Set when the components could not all be loaded; nothing was checked then.
    std::string loadError;
    ZtBytes values, indices, indptr, coords;
    // Entries stored (values bytes / dtype size).
    std::uint64_t nnz = 0;
    // Structural problems, at most a few of each kind.
    std::vector<ZtSparseIssue> issues;
};

// Loads the components of a sparse tensor (decoding zstd ones, each at most maxBytes) and checks
// the spec's rules: element and index sizes, indptr length, monotone and ending at nnz, column
// indices and coordinates inside the shape.
ZtSparseData ztLoadSparse(const ZtFile& file, const ZtTensor& tensor, std::uint64_t maxBytes);

// Row-major dense bytes of a sparse tensor whose ztLoadSparse() found no issues.
std::vector<std::uint8_t> ztDensify(const ZtTensor& tensor, const ZtSparseData& sparse);

}  // namespace strata::ztensor
