#include "safetensors_reader.h"

#include <algorithm>
#include <map>

#include <nlohmann/json.hpp>

#include "../common/bounds.h"

namespace strata::ztensor {

namespace {

[[noreturn]] void fail(const ByteSource& source, const std::string& message) {
    throw ZtImportError(source.name() + ": " + message);
}

std::optional<ZtDType> safetensorsDType(const std::string& name) {
    static const std::map<std::string, ZtDType> kTypes = {
        {"F64", ZtDType::Float64},   {"F32", ZtDType::Float32}, {"F16", ZtDType::Float16},
        {"BF16", ZtDType::BFloat16}, {"I64", ZtDType::Int64},   {"I32", ZtDType::Int32},
        {"I16", ZtDType::Int16},     {"I8", ZtDType::Int8},     {"U64", ZtDType::UInt64},
        {"U32", ZtDType::UInt32},    {"U16", ZtDType::UInt16},  {"U8", ZtDType::UInt8},
        {"BOOL", ZtDType::Bool},
    };
    const auto it = kTypes.find(name);
    return it == kTypes.end() ? std::nullopt : std::optional(it->second);
}

std::uint64_t unsignedField(const ByteSource& source, const std::string& tensor,
                            const nlohmann::json& value, const char* what) {
    if (!value.is_number_unsigned()) {
        fail(source, "tensor '" + tensor + "': " + what + " must be non-negative integers");
    }
    return value.get<std::uint64_t>();
}

}  // namespace

ZtImportSet readSafetensors(const ByteSourcePtr& source) {
    std::uint8_t sizeBytes[8] = {};
    if (source->read(0, sizeBytes) != 8) {
        fail(*source, "too short for a safetensors header size");
    }
    std::uint64_t headerSize = 0;
    for (int i = 0; i < 8; ++i) {
        headerSize |= static_cast<std::uint64_t>(sizeBytes[i]) << (8 * i);
    }
    if (headerSize > kSafetensorsMaxHeader || !rangeFits(8, headerSize, source->size())) {
        fail(*source, "the header size " + std::to_string(headerSize) +
                          " does not fit in the file (or is over 100 MB)");
    }
    const ByteView headerBytes = source->view(8, headerSize);
    nlohmann::json header =
        nlohmann::json::parse(headerBytes.bytes.begin(), headerBytes.bytes.end(), nullptr, false);
    if (!header.is_object()) {
        fail(*source, "the header is not a JSON object");
    }
    const std::uint64_t dataStart = 8 + headerSize;
    const std::uint64_t dataSize = source->size() - dataStart;

    ZtImportSet set;
    set.kind = "safetensors";
    struct Placed {
        std::uint64_t begin;
        ZtImportTensor tensor;
    };
    std::vector<Placed> placed;
    for (const auto& [name, entry] : header.items()) {
        if (name == "__metadata__") {
            if (!entry.is_object()) {
                fail(*source, "__metadata__ is not a JSON object");
            }
            for (const auto& [key, value] : entry.items()) {
                if (!value.is_string()) {
                    fail(*source, "__metadata__ value of '" + key + "' is not a string");
                }
                set.attributes.emplace_back(key, value.get<std::string>());
            }
            continue;
        }
        if (!entry.is_object() || !entry.contains("dtype") || !entry["dtype"].is_string() ||
            !entry.contains("shape") || !entry["shape"].is_array() ||
            !entry.contains("data_offsets") || !entry["data_offsets"].is_array() ||
            entry["data_offsets"].size() != 2) {
            fail(*source, "tensor '" + name + "' needs dtype, shape and data_offsets [begin, end]");
        }
        const std::string dtypeName = entry["dtype"].get<std::string>();
        const auto dtype = safetensorsDType(dtypeName);
        if (!dtype) {
            fail(*source,
                 "tensor '" + name + "': dtype " + dtypeName + " has no zTensor equivalent");
        }
        ZtImportTensor tensor{name, *dtype, {}, {}};
        std::optional<std::uint64_t> bytes = ztDTypeSize(*dtype);
        for (const auto& dim : entry["shape"]) {
            tensor.shape.push_back(unsignedField(*source, name, dim, "shape entries"));
            bytes = bytes ? checkedMul(*bytes, tensor.shape.back()) : std::nullopt;
        }
        const std::uint64_t begin =
            unsignedField(*source, name, entry["data_offsets"][0], "data_offsets");
        const std::uint64_t end =
            unsignedField(*source, name, entry["data_offsets"][1], "data_offsets");
        if (end < begin || end > dataSize) {
            fail(*source, "tensor '" + name + "': data_offsets [" + std::to_string(begin) + ", " +
                              std::to_string(end) + "] lie outside the " +
                              std::to_string(dataSize) + " data bytes");
        }
        if (!bytes || *bytes != end - begin) {
            fail(*source, "tensor '" + name + "': " + std::to_string(end - begin) +
                              " data bytes do not match dtype × shape");
        }
        tensor.data = source->view(dataStart + begin, end - begin);
        if (tensor.data.size() != end - begin) {
            fail(*source, "tensor '" + name + "': the data cannot be read");
        }
        if (!tensor.data.keepAlive) {
            tensor.data.keepAlive = source;  // a mapped file's views live as long as the source
        }
        placed.push_back({begin, std::move(tensor)});
    }
    std::stable_sort(placed.begin(), placed.end(),
                     [](const Placed& a, const Placed& b) { return a.begin < b.begin; });
    for (auto& p : placed) {
        set.tensors.push_back(std::move(p.tensor));
    }
    return set;
}

ZtImportSet readSafetensorsFile(const std::filesystem::path& path) {
    return readSafetensors(openMappedFile(path));
}

}  // namespace strata::ztensor
