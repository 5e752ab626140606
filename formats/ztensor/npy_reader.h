// NumPy arrays: the .npy format (versions 1.0, 2.0 and 3.0: magic "\x93NUMPY", version, header
// length, a Python-literal dict with 'descr', 'fortran_order' and 'shape', then the raw data) and
// .npz archives of them (ZIP, members STORE'd or DEFLATE'd, "<name>.npy" per array).
//
// Accepted dtypes: the zTensor ones, i.e. descr f8 f4 f2 i8 i4 i2 i1 u8 u4 u2 u1 b1 with '<',
// '>', '=' or '|' byte order. Big-endian and Fortran-order arrays are converted to little-endian
// row-major copies; all others are imported straight from the mapped bytes. Structured, object,
// string and complex arrays are rejected. Every size comes from the file and is bounds-checked.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "../common/byte_source.h"
#include "zt_import_set.h"

namespace strata::ztensor {

inline constexpr std::string_view kNpyMagic{"\x93NUMPY", 6};
// A header longer than this is refused (NumPy itself writes a few hundred bytes).
inline constexpr std::uint64_t kNpyMaxHeader = 1u << 20;

struct NpyHeader {
    std::uint8_t major = 0, minor = 0;
    std::string descr;
    ZtDType dtype = ZtDType::Float32;
    bool bigEndian = false;
    bool fortranOrder = false;
    std::vector<std::uint64_t> shape;
    // Where the data starts and how many bytes it holds.
    std::uint64_t dataOffset = 0;
    std::uint64_t dataSize = 0;
};

// Parses the header of the .npy in `source`. Throws ZtImportError.
NpyHeader parseNpyHeader(const ByteSource& source);

// The array in `source` as a tensor called `name`. Throws ZtImportError.
ZtImportTensor readNpy(const ByteSourcePtr& source, std::string name);

// A .npy file: one tensor named after the file's stem.
ZtImportSet readNpyFile(const std::filesystem::path& path);
// A .npz archive: one tensor per "*.npy" member, named without the suffix; other members are
// skipped with a note. Throws ZtImportError (ZIP damage included).
ZtImportSet readNpzFile(const std::filesystem::path& path);

}  // namespace strata::ztensor
