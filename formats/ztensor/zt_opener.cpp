// ZtOpener's reading steps: the header, the manifest's size and bytes (salvaged when its
// declared place is damaged), its root, tensors and components.
#include "zt_opener.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstring>
#include <map>

#include "../common/bounds.h"
#include "../common/le_reader.h"
#include "formats/common/counted.h"
#include "formats/common/json_error.h"
#include "zt_cbor_scan.h"
#include "zt_digest.h"

namespace strata::ztensor {
namespace {

// How far from the declared start a damaged manifest is looked for, and up to what size.
constexpr std::uint64_t kSalvageWindow = 512;
constexpr std::uint64_t kMaxSalvageSize = 4ull << 20;

// "an unsigned integer", "a string": what a manifest value is, for messages.
std::string jsonTypeName(const nlohmann::json& value) {
    if (value.is_number_unsigned()) {
        return "an unsigned integer";
    }
    if (value.is_number_integer()) {
        return "a negative integer";
    }
    if (value.is_number_float()) {
        return "a float";
    }
    if (value.is_binary()) {
        return "a byte string";
    }
    const std::string name = value.type_name();
    return (name == "array" || name == "object" ? "an " : "a ") + name;
}

std::string_view cborMajorName(std::uint8_t major) {
    static constexpr std::array<std::string_view, 8> kNames = {"unsigned integer",
                                                               "negative integer",
                                                               "byte string",
                                                               "text string",
                                                               "array",
                                                               "map",
                                                               "tag",
                                                               "simple value or float"};
    return kNames[major & 7];
}

// "1.0" -> {1, 0}; "1.2.3" -> {1, 2}; anything else -> nothing.
std::optional<std::pair<unsigned, unsigned>> parseVersion(std::string_view text) {
    unsigned parts[3] = {0, 0, 0};
    int count = 0;
    const char* p = text.data();
    const char* end = text.data() + text.size();
    while (count < 3) {
        const auto [next, ec] = std::from_chars(p, end, parts[count]);
        if (ec != std::errc() || next == p) {
            return std::nullopt;
        }
        ++count;
        p = next;
        if (p == end) {
            break;
        }
        if (*p != '.') {
            return std::nullopt;
        }
        ++p;
    }
    if (p != end || count < 2) {
        return std::nullopt;
    }
    return std::make_pair(parts[0], parts[1]);
}

}  // namespace

void ZtOpener::report(Severity severity, std::string code, std::string message, Region region,
                      std::string nodePath) {
    Diagnostic d;
    d.severity = severity;
    d.code = std::move(code);
    d.message = std::move(message);
    if (region.valid()) {
        d.regions.push_back(region);
    }
    d.nodePath = std::move(nodePath);
    d.file = src()->name();
    file_->diagnostics_.push_back(std::move(d));
    const Status status = severity == Severity::Error     ? Status::Error
                          : severity == Severity::Warning ? Status::Warning
                                                          : Status::Info;
    file_->status_ = worse(file_->status_, status);
}

void ZtOpener::reportTensor(std::size_t index, Severity severity, std::string code,
                            std::string message, Region region) {
    auto& tensor = file_->tensors_[index];
    const Status status = severity == Severity::Error     ? Status::Error
                          : severity == Severity::Warning ? Status::Warning
                                                          : Status::Info;
    tensor.status = worse(tensor.status, status);
    report(severity, std::move(code), "tensor '" + tensor.name + "': " + message, region,
           "manifest/" + ZtFile::tensorPath(tensor));
}

void ZtOpener::reportComponent(std::size_t index, Severity severity, std::string code,
                               std::string message, Region region) {
    auto& component = file_->components_[index];
    const Status status = severity == Severity::Error     ? Status::Error
                          : severity == Severity::Warning ? Status::Warning
                                                          : Status::Info;
    component.status = worse(component.status, status);
    auto& tensor = file_->tensors_[component.tensor];
    tensor.status = worse(tensor.status, status);
    report(severity, std::move(code),
           "tensor '" + tensor.name + "' component '" + component.role + "': " + message, region,
           "manifest/" + file_->componentPath(component));
}

Region ZtOpener::valueRegion(const std::string& path) const {
    const auto it = scan_.entries.find(path);
    if (it == scan_.entries.end()) {
        return file_->manifest_;
    }
    return file_->manifestRegion(it->second.value.offset, it->second.value.length);
}

Region ZtOpener::entryRegion(const std::string& path) const {
    const auto it = scan_.entries.find(path);
    if (it == scan_.entries.end()) {
        return file_->manifest_;
    }
    const CborSpan whole = it->second.whole();
    return file_->manifestRegion(whole.offset, whole.length);
}

bool ZtOpener::readHeader() {
    const std::uint64_t size = file_->fileSize_;
    std::array<std::uint8_t, 8> magic{};
    const std::size_t got = src()->read(0, magic);
    const std::string_view text(reinterpret_cast<const char*>(magic.data()), got);
    file_->magic_ = at(0, got);
    if (got < kZtHeaderSize) {
        file_->layout_ = ZtLayout::TooShort;
        report(Severity::Error, "ZT-TOO-SHORT",
               "the file has " + std::to_string(size) +
                   " bytes, fewer than the 8-byte magic number needs",
               at(0, size), "magic");
        return false;
    }
    std::array<std::uint8_t, 8> tail{};
    const bool tailMagic = size >= 24 && src()->read(size - 8, tail) == 8 &&
                           std::memcmp(tail.data(), kZtMagicV1.data(), 8) == 0;
    if (text == kZtMagicV1) {
        file_->layout_ = tailMagic ? ZtLayout::V1_1 : ZtLayout::V1_0;
    } else if (text == kZtMagicV01) {
        file_->layout_ = ZtLayout::V0_1;
    } else if (text == kZtMagicV2) {
        file_->layout_ = ZtLayout::V2;
    } else {
        file_->layout_ = ZtLayout::NotZTensor;
        std::string shown;
        for (char c : text) {
            shown += (c >= 0x20 && c < 0x7f) ? c : '.';
        }
        report(Severity::Error, "ZT-MAGIC",
               "the file starts with \"" + shown + "\", not the zTensor magic \"ZTEN1000\"",
               file_->magic_, "magic");
    }
    switch (file_->layout_) {
        case ZtLayout::V1_1:
            report(Severity::Error, "ZT-VERSION",
                   "zTensor v1.1/v1.2 file (ZTEN1000 at both ends, manifest size at EOF-16): "
                   "Strata checks only v1.0 files; the manifest is shown but not interpreted",
                   at(size - 8, 8), "magic");
            break;
        case ZtLayout::V0_1:
            report(Severity::Error, "ZT-VERSION",
                   "zTensor v0.1 file (magic ZTEN0001): Strata checks only v1.0 files; the "
                   "manifest is shown but not interpreted",
                   file_->magic_, "magic");
            break;
        case ZtLayout::V2:
            report(Severity::Error, "ZT-VERSION",
                   "zTensor v2 file (magic 89 5A 54 32 0D 0A 1A 0A): Strata reads only v1.0",
                   file_->magic_, "magic");
            return false;
        default:
            break;
    }
    const std::uint64_t minimum = file_->layout_ == ZtLayout::V1_1 ? 24 : 16;
    if (size < minimum) {
        report(Severity::Error, "ZT-TOO-SHORT",
               "the file has " + std::to_string(size) + " bytes: no room for the " +
                   std::to_string(minimum - 8) + "-byte footer after the magic number",
               at(0, size), "magic");
        return false;
    }
    return true;
}

bool ZtOpener::readManifestSize() {
    const std::uint64_t size = file_->fileSize_;
    const bool footerMagic = file_->layout_ == ZtLayout::V1_1;
    sizeFieldOffset_ = size - (footerMagic ? 16 : 8);
    file_->manifestSizeField_ = at(sizeFieldOffset_, 8);
    const auto value = readLe<std::uint64_t>(*src(), sizeFieldOffset_);
    file_->manifestSize_ = value;
    // Everything but the magic and the footer may be manifest: the reference writes a file with
    // no tensors as magic, manifest, size with nothing in between.
    const std::uint64_t room = sizeFieldOffset_ - kZtHeaderSize;
    if (!value || *value > room) {
        report(Severity::Error, "ZT-MANIFEST-SIZE",
               "manifest size " + std::to_string(value.value_or(0)) + " does not fit in a " +
                   std::to_string(size) + "-byte file (at most " + std::to_string(room) +
                   " bytes lie between the magic number and the size field)",
               file_->manifestSizeField_, "manifest_size");
        return false;
    }
    if (*value > kZtMaxManifestSize) {
        report(Severity::Error, "ZT-LIMIT",
               "the manifest is " + std::to_string(*value) +
                   " bytes; Strata decodes manifests "
                   "of at most " +
                   std::to_string(kZtMaxManifestSize) + " bytes",
               file_->manifestSizeField_, "manifest_size");
        return false;
    }
    file_->manifest_ = at(sizeFieldOffset_ - *value, *value);
    return true;
}

std::optional<CborScanResult> ZtOpener::trySalvage(std::uint64_t declaredStart,
                                                   std::uint64_t size) {
    auto fits = [&](std::uint64_t start, std::uint64_t end) -> std::optional<CborScanResult> {
        if (start < kZtHeaderSize || start >= end) {
            return std::nullopt;
        }
        const ByteView view = src()->view(start, end - start);
        const std::uint8_t first = view.empty() ? 0 : view.bytes[0];
        if ((first >> 5) != 5) {
            return std::nullopt;
        }
        auto result = scanCbor(view.bytes);
        if (!result.ok || result.end != end - start) {
            return std::nullopt;
        }
        return result;
    };
    if (sizeFieldOffset_ - std::min(declaredStart, sizeFieldOffset_) > kMaxSalvageSize) {
        return std::nullopt;  // each candidate costs a scan: only small manifests are searched
    }
    // The size field is wrong: a whole map ends right at the size field.
    const std::uint64_t low = declaredStart > kSalvageWindow ? declaredStart - kSalvageWindow : 0;
    const std::uint64_t high = std::min(sizeFieldOffset_, declaredStart + kSalvageWindow);
    for (std::uint64_t start = low; start < high; ++start) {
        if (start == declaredStart) {
            continue;
        }
        if (auto result = fits(start, sizeFieldOffset_)) {
            const std::uint64_t found = sizeFieldOffset_ - start;
            report(Severity::Error, "ZT-MANIFEST-SIZE",
                   "the manifest size field says " + std::to_string(size) +
                       " bytes, but a complete " + std::to_string(found) +
                       "-byte manifest ends at the size field (starting at offset " +
                       std::to_string(start) + "); Strata shows that one",
                   file_->manifestSizeField_, "manifest_size");
            file_->manifest_ = at(start, found);
            return result;
        }
    }
    // Bytes were inserted after the manifest: a map of the declared size is followed by zeros.
    for (std::uint64_t shift = 1; shift <= kSalvageWindow && shift <= declaredStart; ++shift) {
        const std::uint64_t end = sizeFieldOffset_ - shift;
        std::uint8_t last = 0;
        if (src()->read(end, {&last, 1}) != 1 || last != 0) {
            break;  // only zero filler is recognised
        }
        if (auto result = fits(declaredStart - shift, end)) {
            report(Severity::Error, "ZT-TRAILING",
                   counted(shift, "unexpected byte") + (shift == 1 ? " lies" : " lie") +
                       " between the end of the manifest and the manifest size field, so the "
                       "size field points " +
                       counted(shift, "byte") + " into the manifest",
                   at(end, shift), "manifest");
            file_->manifest_ = at(declaredStart - shift, size);
            return result;
        }
    }
    return std::nullopt;
}

bool ZtOpener::locateManifest() {
    const std::uint64_t size = file_->manifest_.length;
    const std::uint64_t declaredStart = file_->manifest_.offset;
    const ByteView view = src()->view(declaredStart, size);
    auto scan = scanCbor(view.bytes);
    const bool clean = scan.ok && scan.rootMajor == 5 && scan.end == size;
    if (clean) {
        scan_ = std::move(scan);
        return true;
    }
    if (auto salvaged = trySalvage(declaredStart, size)) {
        scan_ = std::move(*salvaged);
        return true;
    }
    if (size == 0) {
        report(Severity::Error, "ZT-MANIFEST-SIZE", "the manifest size is 0: there is no manifest",
               file_->manifestSizeField_, "manifest_size");
        return false;
    }
    if (!scan.ok) {
        report(Severity::Error, "ZT-CBOR",
               "the manifest is not well-formed CBOR: " + scan.error + " (at manifest byte " +
                   std::to_string(scan.errorOffset) + ")",
               at(declaredStart + scan.errorOffset, size - scan.errorOffset), "manifest");
        return false;
    }
    if (scan.rootMajor != 5) {
        report(
            Severity::Error, "ZT-MANIFEST-SCHEMA",
            "the manifest is a CBOR " + std::string(cborMajorName(scan.rootMajor)) + ", not a map",
            at(declaredStart, scan.end), "manifest");
        return false;
    }
    report(Severity::Error, "ZT-TRAILING",
           counted(size - scan.end, "byte") + (size - scan.end == 1 ? " follows" : " follow") +
               " the CBOR manifest before the manifest size field",
           at(declaredStart + scan.end, size - scan.end), "manifest");
    scan_ = std::move(scan);
    return true;
}

bool ZtOpener::decodeManifest() {
    const Region& m = file_->manifest_;
    const ByteView view = src()->view(m.offset, scan_.end);
    for (const auto& path : scan_.duplicateKeys) {
        report(Severity::Error, "ZT-MANIFEST-SCHEMA",
               "the key '" + cborPathText(path) +
                   "' appears more than once; readers disagree "
                   "about which one counts",
               entryRegion(path), "manifest");
    }
    try {
        file_->manifestJson_ =
            nlohmann::json::from_cbor(view.bytes.begin(), view.bytes.end(), true, true,
                                      nlohmann::json::cbor_tag_handler_t::ignore);
    } catch (const nlohmann::json::exception& e) {
        report(Severity::Error, "ZT-CBOR",
               "the manifest cannot be decoded: " + jsonErrorText(e.what()), m, "manifest");
        return false;
    }
    file_->manifestDecoded_ = true;
    return true;
}

void ZtOpener::readRoot() {
    const auto& root = file_->manifestJson_;
    const Region& m = file_->manifest_;
    // version
    if (!root.contains("version")) {
        report(Severity::Error, "ZT-MANIFEST-SCHEMA", "the manifest has no 'version'", m,
               "manifest");
    } else if (!root["version"].is_string()) {
        report(Severity::Error, "ZT-MANIFEST-SCHEMA",
               "'version' is " + jsonTypeName(root["version"]) + ", not a text string",
               valueRegion("version"), "manifest/version");
    } else {
        file_->version_ = root["version"].get<std::string>();
        file_->versionField_ = valueRegion("version");
        const auto version = parseVersion(file_->version_);
        if (!version) {
            report(Severity::Error, "ZT-VERSION",
                   "version '" + file_->version_ + "' is not MAJOR.MINOR", file_->versionField_,
                   "manifest/version");
        } else if (version->first != 1) {
            report(Severity::Error, "ZT-VERSION",
                   "version '" + file_->version_ + "' has major version " +
                       std::to_string(version->first) + "; Strata reads zTensor 1.x",
                   file_->versionField_, "manifest/version");
        } else if (version->second > 0) {
            report(Severity::Warning, "ZT-VERSION",
                   "version '" + file_->version_ +
                       "' is newer than 1.0: features it adds are "
                       "not checked",
                   file_->versionField_, "manifest/version");
        }
    }
    // generator
    if (!root.contains("generator")) {
        report(Severity::Warning, "ZT-MANIFEST-SCHEMA",
               "the manifest has no 'generator' (the reference reader requires one)", m,
               "manifest");
    } else if (!root["generator"].is_string()) {
        report(Severity::Error, "ZT-MANIFEST-SCHEMA",
               "'generator' is " + jsonTypeName(root["generator"]) + ", not a text string",
               valueRegion("generator"), "manifest/generator");
    } else {
        file_->generator_ = root["generator"].get<std::string>();
        file_->generatorField_ = valueRegion("generator");
    }
    // attributes
    if (!root.contains("attributes")) {
        report(Severity::Warning, "ZT-MANIFEST-SCHEMA",
               "the manifest has no 'attributes' (the reference reader requires the map, even "
               "when empty)",
               m, "manifest");
    } else if (!root["attributes"].is_object()) {
        report(Severity::Error, "ZT-MANIFEST-SCHEMA",
               "'attributes' is " + jsonTypeName(root["attributes"]) + ", not a map",
               valueRegion("attributes"), "manifest/attributes");
    } else {
        for (const auto& [key, value] : root["attributes"].items()) {
            if (value.is_string()) {
                file_->attributes_.emplace_back(key, value.get<std::string>());
            } else {
                report(Severity::Error, "ZT-MANIFEST-SCHEMA",
                       "attribute '" + key + "' is " + jsonTypeName(value) + ", not a text string",
                       valueRegion(cborPath({"attributes", key})), "manifest/attributes/" + key);
                file_->attributes_.emplace_back(key, value.dump());
            }
        }
    }
    // tensors
    if (!root.contains("tensors")) {
        report(Severity::Error, "ZT-MANIFEST-SCHEMA", "the manifest has no 'tensors' map", m,
               "manifest");
        return;
    }
    const auto& tensors = root["tensors"];
    if (!tensors.is_object()) {
        report(Severity::Error, "ZT-MANIFEST-SCHEMA",
               "'tensors' is " + jsonTypeName(tensors) + ", not a map", valueRegion("tensors"),
               "manifest/tensors");
        return;
    }
    for (const auto& [name, value] : inFileOrder(tensors, "tensors")) {
        readTensor(name, *value);
    }
}

std::vector<std::pair<std::string, const nlohmann::json*>> ZtOpener::inFileOrder(
    const nlohmann::json& map, const std::string& path) const {
    // The decoded map is sorted by key; readers expect the writer's order, which is file order.
    std::vector<std::pair<std::uint64_t, std::pair<std::string, const nlohmann::json*>>> keyed;
    for (const auto& [key, value] : map.items()) {
        const auto it = scan_.entries.find(path + kCborPathSeparator + key);
        const std::uint64_t at = it == scan_.entries.end() ? UINT64_MAX : it->second.key.offset;
        keyed.push_back({at, {key, &value}});
    }
    std::stable_sort(keyed.begin(), keyed.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<std::pair<std::string, const nlohmann::json*>> out;
    out.reserve(keyed.size());
    for (auto& entry : keyed) {
        out.push_back(std::move(entry.second));
    }
    return out;
}

void ZtOpener::readTensor(const std::string& name, const nlohmann::json& value) {
    const std::size_t index = file_->tensors_.size();
    file_->tensors_.emplace_back();
    ZtTensor& tensor = file_->tensors_.back();
    tensor.name = name;
    file_->tensorIndex_.try_emplace(name, index);  // of two of one name, the first is found
    tensor.entry = entryRegion(cborPath({"tensors", name}));
    auto field = [&](std::string_view key) {
        return valueRegion(cborPath({"tensors", name, key}));
    };
    if (!value.is_object()) {
        reportTensor(index, Severity::Error, "ZT-MANIFEST-SCHEMA",
                     "the entry is " + jsonTypeName(value) + ", not a map", tensor.entry);
        return;
    }
    auto require = [&](const char* key, bool (nlohmann::json::*check)() const noexcept,
                       const char* what) -> const nlohmann::json* {
        if (!value.contains(key)) {
            reportTensor(index, Severity::Error, "ZT-MANIFEST-SCHEMA",
                         std::string("no '") + key + "'", tensor.entry);
            return nullptr;
        }
        const auto& item = value[key];
        if (!(item.*check)()) {
            reportTensor(index, Severity::Error, "ZT-MANIFEST-SCHEMA",
                         std::string("'") + key + "' is " + jsonTypeName(item) + ", not " + what,
                         field(key));
            return nullptr;
        }
        return &item;
    };
    // dtype
    tensor.dtypeField = field("dtype");
    if (const auto* dtype = require("dtype", &nlohmann::json::is_string, "a text string")) {
        tensor.dtypeName = dtype->get<std::string>();
        tensor.dtype = parseZtDType(tensor.dtypeName);
        if (!tensor.dtype) {
            reportTensor(index, Severity::Error, "ZT-DTYPE",
                         "unknown dtype '" + tensor.dtypeName +
                             "' (names are lower-case: float32, int8, bool, ...)",
                         tensor.dtypeField);
        }
    }
    // shape
    tensor.shapeField = field("shape");
    if (const auto* shape = require("shape", &nlohmann::json::is_array, "an array")) {
        tensor.shapeValid = true;
        for (std::size_t i = 0; i < shape->size(); ++i) {
            const auto& dim = (*shape)[i];
            const Region dimRegion =
                valueRegion(cborPath({"tensors", name, "shape", std::to_string(i)}));
            if (dim.is_number_unsigned()) {
                tensor.shape.push_back(dim.get<std::uint64_t>());
                continue;
            }
            tensor.shapeValid = false;
            reportTensor(index, Severity::Error, "ZT-SHAPE",
                         "dimension " + std::to_string(i) + " is " +
                             (dim.is_number_integer() ? "negative (" + dim.dump() + ")"
                                                      : jsonTypeName(dim)) +
                             "; dimensions are unsigned integers",
                         dimRegion);
        }
        if (tensor.shapeValid) {
            std::optional<std::uint64_t> count = 1;
            for (std::uint64_t dim : tensor.shape) {
                count = count ? checkedMul(*count, dim) : std::nullopt;
            }
            tensor.elementCount = count;
            if (!count) {
                reportTensor(index, Severity::Error, "ZT-SHAPE",
                             "the element count of shape " + shape->dump() + " overflows 64 bits",
                             tensor.shapeField);
            } else if (tensor.dtype) {
                tensor.byteSize = checkedMul(*count, ztDTypeSize(*tensor.dtype));
                if (!tensor.byteSize) {
                    reportTensor(index, Severity::Error, "ZT-SHAPE",
                                 "the byte size of shape " + shape->dump() + " × " +
                                     tensor.dtypeName + " overflows 64 bits",
                                 tensor.shapeField);
                }
            }
        }
    }
    // format
    tensor.formatField = field("format");
    if (const auto* format = require("format", &nlohmann::json::is_string, "a text string")) {
        tensor.formatName = format->get<std::string>();
        if (tensor.formatName == "dense") {
            tensor.format = ZtTensorFormat::Dense;
        } else if (tensor.formatName == "sparse_csr") {
            tensor.format = ZtTensorFormat::SparseCsr;
        } else if (tensor.formatName == "sparse_coo") {
            tensor.format = ZtTensorFormat::SparseCoo;
        } else {
            reportTensor(index, Severity::Error, "ZT-FORMAT",
                         "format '" + tensor.formatName +
                             "' is not one Strata knows (dense, sparse_csr, sparse_coo): its "
                             "components are shown but the tensor cannot be assembled or checked",
                         tensor.formatField);
        }
    }
    // components
    tensor.componentsField = field("components");
    if (const auto* components = require("components", &nlohmann::json::is_object, "a map")) {
        for (const auto& [role, component] :
             inFileOrder(*components, cborPath({"tensors", name, "components"}))) {
            readComponent(index, role, *component);
        }
        checkRequiredRoles(index);
    }
}

void ZtOpener::readComponent(std::size_t tensorIndex, const std::string& role,
                             const nlohmann::json& value) {
    const std::string& tensorName = file_->tensors_[tensorIndex].name;
    const std::size_t index = file_->components_.size();
    file_->components_.emplace_back();
    file_->tensors_[tensorIndex].components.push_back(index);
    ZtComponent& c = file_->components_.back();
    c.role = role;
    c.tensor = tensorIndex;
    c.entry = entryRegion(cborPath({"tensors", tensorName, "components", role}));
    auto field = [&](std::string_view key) {
        return valueRegion(cborPath({"tensors", tensorName, "components", role, key}));
    };
    c.offsetField = field("offset");
    c.lengthField = field("length");
    c.encodingField = field("encoding");
    c.digestField = field("digest");
    if (!value.is_object()) {
        reportComponent(index, Severity::Error, "ZT-MANIFEST-SCHEMA",
                        "the entry is " + jsonTypeName(value) + ", not a map", c.entry);
        return;
    }
    auto readU64 = [&](const char* key, const Region& region) -> std::optional<std::uint64_t> {
        if (!value.contains(key)) {
            reportComponent(index, Severity::Error, "ZT-MANIFEST-SCHEMA",
                            std::string("no '") + key + "'", c.entry);
            return std::nullopt;
        }
        const auto& item = value[key];
        if (!item.is_number_unsigned()) {
            reportComponent(index, Severity::Error, "ZT-MANIFEST-SCHEMA",
                            std::string("'") + key + "' is " + jsonTypeName(item) + " (" +
                                item.dump().substr(0, 40) + "), not an unsigned integer",
                            region);
            return std::nullopt;
        }
        return item.get<std::uint64_t>();
    };
    c.offset = readU64("offset", c.offsetField);
    c.length = readU64("length", c.lengthField);
    if (value.contains("encoding")) {
        const auto& encoding = value["encoding"];
        if (!encoding.is_string()) {
            c.encoding = ZtEncoding::Unknown;
            c.encodingName = encoding.dump().substr(0, 40);
            reportComponent(index, Severity::Error, "ZT-MANIFEST-SCHEMA",
                            "'encoding' is " + jsonTypeName(encoding) + ", not a text string",
                            c.encodingField);
        } else {
            c.encodingName = encoding.get<std::string>();
            if (c.encodingName == "raw") {
                c.encoding = ZtEncoding::Raw;
            } else if (c.encodingName == "zstd") {
                c.encoding = ZtEncoding::Zstd;
            } else {
                c.encoding = ZtEncoding::Unknown;
                reportComponent(
                    index, Severity::Error, "ZT-ENCODING",
                    "unknown encoding '" + c.encodingName + "' (zTensor 1.0 knows raw and zstd)",
                    c.encodingField);
            }
        }
    }
    if (value.contains("digest")) {
        const auto& digest = value["digest"];
        if (!digest.is_string()) {
            reportComponent(index, Severity::Error, "ZT-MANIFEST-SCHEMA",
                            "'digest' is " + jsonTypeName(digest) + ", not a text string",
                            c.digestField);
        } else {
            c.digest = digest.get<std::string>();
            const ZtDigestSpec spec = parseZtDigest(*c.digest);
            if (!spec.usable()) {
                reportComponent(index, Severity::Error, "ZT-DIGEST-FORMAT",
                                spec.error + ": the digest cannot be checked", c.digestField);
            } else if (!spec.warning.empty()) {
                reportComponent(index, Severity::Warning, "ZT-DIGEST-FORMAT", spec.warning,
                                c.digestField);
            }
        }
    }
    if (c.hasRange()) {
        c.data = at(*c.offset, *c.length);
        c.inBounds = rangeFits(*c.offset, *c.length, file_->fileSize_);
    }
}

}  // namespace strata::ztensor
