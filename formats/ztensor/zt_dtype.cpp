#include "zt_dtype.h"

#include <array>

namespace strata::ztensor {

namespace {

struct DTypeInfo {
    ZtDType dtype;
    std::string_view name;
    unsigned size;
    bool isFloat;
};

constexpr std::array<DTypeInfo, 13> kDTypes = {{
    {ZtDType::Float64, "float64", 8, true},
    {ZtDType::Float32, "float32", 4, true},
    {ZtDType::Float16, "float16", 2, true},
    {ZtDType::BFloat16, "bfloat16", 2, true},
    {ZtDType::Int64, "int64", 8, false},
    {ZtDType::Int32, "int32", 4, false},
    {ZtDType::Int16, "int16", 2, false},
    {ZtDType::Int8, "int8", 1, false},
    {ZtDType::UInt64, "uint64", 8, false},
    {ZtDType::UInt32, "uint32", 4, false},
    {ZtDType::UInt16, "uint16", 2, false},
    {ZtDType::UInt8, "uint8", 1, false},
    {ZtDType::Bool, "bool", 1, false},
}};

const DTypeInfo& info(ZtDType dtype) {
    return kDTypes[static_cast<std::size_t>(dtype)];
}

}  // namespace

std::optional<ZtDType> parseZtDType(std::string_view name) {
    for (const auto& entry : kDTypes) {
        if (entry.name == name) {
            return entry.dtype;
        }
    }
    return std::nullopt;
}

std::string_view ztDTypeName(ZtDType dtype) {
    return info(dtype).name;
}
unsigned ztDTypeSize(ZtDType dtype) {
    return info(dtype).size;
}
bool ztDTypeIsFloat(ZtDType dtype) {
    return info(dtype).isFloat;
}

}  // namespace strata::ztensor
