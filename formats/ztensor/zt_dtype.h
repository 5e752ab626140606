// zTensor element types: the thirteen dtypes of the v1.0 spec, all little-endian.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace strata::ztensor {

enum class ZtDType : std::uint8_t {
    Float64,
    Float32,
    Float16,
    BFloat16,
    Int64,
    Int32,
    Int16,
    Int8,
    UInt64,
    UInt32,
    UInt16,
    UInt8,
    Bool,
};

// Exact, case-sensitive names as the spec lists them ("float32", never "FLOAT32").
std::optional<ZtDType> parseZtDType(std::string_view name);
std::string_view ztDTypeName(ZtDType dtype);
// Bytes per element (bool is one byte).
unsigned ztDTypeSize(ZtDType dtype);
bool ztDTypeIsFloat(ZtDType dtype);

}  // namespace strata::ztensor
