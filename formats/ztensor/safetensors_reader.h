// safetensors files: an 8-byte little-endian header size N, N bytes of JSON header, then the
// data. The header maps tensor names to {"dtype", "shape", "data_offsets": [begin, end]}
// (offsets relative to the end of the header) and may hold "__metadata__", a map of strings.
//
// Accepted dtypes: F64 F32 F16 BF16 I64 I32 I16 I8 U64 U32 U16 U8 BOOL (the zTensor ones); others
// (F8_*, complex) are rejected. Checks: N at most 100 MB and inside the file, the header a JSON
// object, every tensor's byte range inside the data and exactly dtype × shape bytes. Tensors are
// views of the mapped file, in the order of their offsets.
#pragma once

#include <cstdint>
#include <filesystem>

#include "../common/byte_source.h"
#include "zt_import_set.h"

namespace strata::ztensor {

inline constexpr std::uint64_t kSafetensorsMaxHeader = 100'000'000;

// Throws ZtImportError.
ZtImportSet readSafetensors(const ByteSourcePtr& source);
ZtImportSet readSafetensorsFile(const std::filesystem::path& path);

}  // namespace strata::ztensor
