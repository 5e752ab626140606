// What the tensor importers (NumPy .npy/.npz, safetensors) hand to the zTensor writer: named
// dense tensors with little-endian, row-major bytes, plus the input's string metadata.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "../common/byte_source.h"
#include "zt_dtype.h"

namespace strata::ztensor {

struct ZtImportTensor {
    std::string name;
    ZtDType dtype = ZtDType::Float32;
    std::vector<std::uint64_t> shape;
    // Exactly dtype size × element count bytes: a view of the input when it is already
    // little-endian and row-major, a converted copy otherwise.
    ByteView data;
};

struct ZtImportSet {
    // "npy", "npz" or "safetensors".
    std::string kind;
    std::vector<ZtImportTensor> tensors;
    // safetensors `__metadata__` entries (the zTensor writer sorts them by key).
    std::vector<std::pair<std::string, std::string>> attributes;
    // What was skipped (npz members that are not .npy files, say).
    std::vector<std::string> notes;
};

// Why an input cannot be imported; what() names the input and the problem.
class ZtImportError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace strata::ztensor
