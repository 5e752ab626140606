#include "zt_dtype.h"

#include <array>

#include "../common/le_reader.h"

namespace strata {

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

// Counts elements whose exponent bits are all ones, split by whether the mantissa is zero.
template <typename T>
void countIeee(const std::uint8_t* bytes, std::uint64_t size, T exponentMask, T mantissaMask,
               ZtNonFiniteCount& count) {
    const std::uint64_t n = size / sizeof(T);
    for (std::uint64_t i = 0; i < n; ++i) {
        const T bits = decodeLe<T>(bytes + i * sizeof(T));
        if ((bits & exponentMask) == exponentMask) {
            if ((bits & mantissaMask) != 0) {
                ++count.nan;
            } else {
                ++count.inf;
            }
        }
    }
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

void countNonFinite(ZtDType dtype, const std::uint8_t* bytes, std::uint64_t size,
                    ZtNonFiniteCount& count) {
    switch (dtype) {
        case ZtDType::Float64:
            countIeee<std::uint64_t>(bytes, size, 0x7FF0000000000000ull, 0x000FFFFFFFFFFFFFull,
                                     count);
            break;
        case ZtDType::Float32:
            countIeee<std::uint32_t>(bytes, size, 0x7F800000u, 0x007FFFFFu, count);
            break;
        case ZtDType::Float16:
            countIeee<std::uint16_t>(bytes, size, 0x7C00, 0x03FF, count);
            break;
        case ZtDType::BFloat16:
            countIeee<std::uint16_t>(bytes, size, 0x7F80, 0x007F, count);
            break;
        default:
            break;
    }
}

}  // namespace strata
