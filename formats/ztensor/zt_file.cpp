#include "zt_file.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstring>
#include <map>

#include "../common/bounds.h"
#include "../common/le_reader.h"
#include "formats/common/json_error.h"
#include "zt_cbor_scan.h"
#include "zt_digest.h"
#include "zt_opener.h"

namespace strata::ztensor {

std::string_view ztLayoutName(ZtLayout layout) {
    switch (layout) {
        case ZtLayout::V1_0:
            return "zTensor v1.0";
        case ZtLayout::V1_1:
            return "zTensor v1.1+";
        case ZtLayout::V0_1:
            return "zTensor v0.1";
        case ZtLayout::V2:
            return "zTensor v2";
        case ZtLayout::NotZTensor:
            return "not zTensor";
        case ZtLayout::TooShort:
            return "too short";
    }
    return "unknown";
}

const ZtTensor* ZtFile::findTensor(std::string_view name) const {
    const auto it = tensorIndex_.find(name);
    return it == tensorIndex_.end() ? nullptr : &tensors_[it->second];
}

const ZtComponent* ZtFile::component(const ZtTensor& tensor, std::string_view role) const {
    for (std::size_t index : tensor.components) {
        if (components_[index].role == role) {
            return &components_[index];
        }
    }
    return nullptr;
}

std::string ZtFile::tensorPath(const ZtTensor& tensor) {
    return "tensors/" + tensor.name;
}

std::string ZtFile::componentPath(const ZtComponent& component) const {
    return tensorPath(tensors_[component.tensor]) + "/components/" + component.role;
}

Region ZtFile::manifestRegion(std::uint64_t start, std::uint64_t length) const {
    return {source_.get(), manifest_.offset + start, length};
}

std::shared_ptr<const ZtFile> ZtFile::open(ByteSourcePtr source) {
    return ZtOpener(std::move(source)).run();
}

bool ztIsReadRootKey(std::string_view key) {
    return key == "version" || key == "generator" || key == "attributes" || key == "tensors";
}

bool ztIsReadTensorKey(std::string_view key) {
    return key == "dtype" || key == "shape" || key == "format" || key == "components";
}

bool ztIsReadComponentKey(std::string_view key) {
    return key == "offset" || key == "length" || key == "encoding" || key == "digest";
}

namespace {

nlohmann::json unusedMembers(const nlohmann::json& object, bool (*isRead)(std::string_view)) {
    nlohmann::json out = nlohmann::json::object();
    for (auto it = object.begin(); object.is_object() && it != object.end(); ++it) {
        if (!isRead(it.key())) {
            out[it.key()] = *it;
        }
    }
    return out;
}

}  // namespace

nlohmann::json ztUnusedManifestKeys(const ZtFile& file) {
    const nlohmann::json& m = file.manifestJson();
    nlohmann::json out = {{"top", unusedMembers(m, ztIsReadRootKey)},
                          {"tensors", nlohmann::json::object()}};
    if (!m.is_object() || !m.contains("tensors") || !m["tensors"].is_object()) {
        return out;
    }
    for (auto t = m["tensors"].begin(); t != m["tensors"].end(); ++t) {
        nlohmann::json tensor = unusedMembers(*t, ztIsReadTensorKey);
        if (t->is_object() && t->contains("components") && (*t)["components"].is_object()) {
            for (auto c = (*t)["components"].begin(); c != (*t)["components"].end(); ++c) {
                nlohmann::json role = unusedMembers(*c, ztIsReadComponentKey);
                if (!role.empty()) {
                    tensor["components"][c.key()] = std::move(role);
                }
            }
        }
        if (!tensor.empty()) {
            out["tensors"][t.key()] = std::move(tensor);
        }
    }
    return out;
}

}  // namespace strata::ztensor
