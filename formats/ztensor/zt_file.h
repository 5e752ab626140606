// The zTensor reader: opens a file by reading only its header and its CBOR manifest, and
// describes the components and logical tensors the manifest names. Damage never throws: what
// could be read is kept, and what is wrong is recorded as diagnostics for the validator.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "../common/byte_source.h"
#include "../common/diagnostic.h"
#include "../common/node.h"
#include "../common/region.h"
#include "zt_dtype.h"

namespace strata::ztensor {

inline constexpr std::string_view kZtMagicV1 = "ZTEN1000";
inline constexpr std::string_view kZtMagicV01 = "ZTEN0001";
inline constexpr std::string_view kZtMagicV2 = "\x89ZT2\r\n\x1a\n";
inline constexpr std::uint64_t kZtAlignment = 64;
inline constexpr std::uint64_t kZtHeaderSize = 8;
// Manifests larger than this are not decoded (a decoded manifest costs several times its size).
inline constexpr std::uint64_t kZtMaxManifestSize = 256ull << 20;

// Which layout the first and last bytes announce.
enum class ZtLayout {
    V1_0,        // ZTEN1000 at the start, manifest size at EOF - 8: what Strata reads
    V1_1,        // ZTEN1000 at both ends, manifest size at EOF - 16 (v1.1 / v1.2)
    V0_1,        // ZTEN0001
    V2,          // 89 5A 54 32 0D 0A 1A 0A
    NotZTensor,  // none of the magics
    TooShort,    // fewer bytes than a magic and a manifest size need
};

std::string_view ztLayoutName(ZtLayout layout);

enum class ZtEncoding { Raw, Zstd, Unknown };
enum class ZtTensorFormat { Dense, SparseCsr, SparseCoo, Other };

// A physical byte range named by one tensor's `components` map.
struct ZtComponent {
    std::string role;
    std::size_t tensor = 0;
    // Where the role key and component map lie in the manifest.
    Region entry;
    Region offsetField, lengthField, encodingField, digestField;
    std::optional<std::uint64_t> offset;
    std::optional<std::uint64_t> length;
    std::string encodingName = "raw";
    ZtEncoding encoding = ZtEncoding::Raw;
    std::optional<std::string> digest;
    // The stored bytes; valid only when offset and length are both known (may reach past EOF).
    Region data;
    // True when offset and length are known and the bytes lie inside the file.
    bool inBounds = false;
    Status status = Status::Ok;

    bool hasRange() const { return offset.has_value() && length.has_value(); }
    // Stored bytes can be read and decoded.
    bool readable() const { return inBounds && encoding != ZtEncoding::Unknown; }
};

// One entry of the `tensors` map.
struct ZtTensor {
    std::string name;
    Region entry;
    Region dtypeField, shapeField, formatField, componentsField;
    std::string dtypeName;
    std::optional<ZtDType> dtype;
    std::vector<std::uint64_t> shape;
    bool shapeValid = false;
    // Product of the shape (1 for a scalar); empty when invalid or overflowing.
    std::optional<std::uint64_t> elementCount;
    // elementCount times the dtype size; empty when unknown or overflowing.
    std::optional<std::uint64_t> byteSize;
    std::string formatName;
    ZtTensorFormat format = ZtTensorFormat::Other;
    // Indices into ZtFile::components, in manifest order.
    std::vector<std::size_t> components;
    Status status = Status::Ok;
};

// A run of the file between the header and the manifest: component bytes (possibly shared by
// several components) or a gap that should be zero padding.
struct ZtLayoutEntry {
    bool isGap = false;
    Region region;
    std::vector<std::size_t> components;
};

class ZtFile {
public:
    // Reads the header, the manifest size and the manifest, never the component bytes.
    static std::shared_ptr<const ZtFile> open(ByteSourcePtr source);

    const ByteSourcePtr& source() const { return source_; }
    std::uint64_t fileSize() const { return fileSize_; }
    ZtLayout layout() const { return layout_; }
    const Region& magic() const { return magic_; }
    // The manifest bytes (as declared by the size field, or as found when that was wrong).
    const Region& manifest() const { return manifest_; }
    const Region& manifestSizeField() const { return manifestSizeField_; }
    std::optional<std::uint64_t> manifestSize() const { return manifestSize_; }
    bool manifestDecoded() const { return manifestDecoded_; }
    const nlohmann::json& manifestJson() const { return manifestJson_; }

    const std::string& version() const { return version_; }
    const std::string& generator() const { return generator_; }
    const Region& versionField() const { return versionField_; }
    const Region& generatorField() const { return generatorField_; }
    const std::vector<std::pair<std::string, std::string>>& attributes() const {
        return attributes_;
    }

    const std::vector<ZtTensor>& tensors() const { return tensors_; }
    const std::vector<ZtComponent>& components() const { return components_; }
    const ZtTensor* findTensor(std::string_view name) const;
    // The component of `tensor` with this role, or nullptr.
    const ZtComponent* component(const ZtTensor& tensor, std::string_view role) const;
    // Components and gaps between the header and the manifest, in file order.
    const std::vector<ZtLayoutEntry>& layoutEntries() const { return layoutEntries_; }

    // Problems found while opening (header, manifest, schema, layout), in file order.
    const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }
    Status status() const { return status_; }

    // The manifest path of a tensor or component, for diagnostics ("tensors/x/components/data").
    static std::string tensorPath(const ZtTensor& tensor);
    std::string componentPath(const ZtComponent& component) const;
    // Bytes [start, start + length) of the manifest as a region of the file.
    Region manifestRegion(std::uint64_t start, std::uint64_t length) const;

private:
    friend class ZtOpener;
    ZtFile() = default;

    ByteSourcePtr source_;
    std::uint64_t fileSize_ = 0;
    ZtLayout layout_ = ZtLayout::NotZTensor;
    Region magic_, manifest_, manifestSizeField_;
    std::optional<std::uint64_t> manifestSize_;
    bool manifestDecoded_ = false;
    nlohmann::json manifestJson_;
    std::string version_, generator_;
    Region versionField_, generatorField_;
    std::vector<std::pair<std::string, std::string>> attributes_;
    std::vector<ZtTensor> tensors_;
    // Name → index in tensors_: findTensor is called for every tensor of a file (a diff, a
    // conversion), which a search through them all made quadratic.
    struct NameHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const {
            return std::hash<std::string_view>{}(s);
        }
    };
    std::unordered_map<std::string, std::size_t, NameHash, std::equal_to<>> tensorIndex_;
    std::vector<ZtComponent> components_;
    std::vector<ZtLayoutEntry> layoutEntries_;
    std::vector<Diagnostic> diagnostics_;
    Status status_ = Status::Ok;
};

// Keys of the manifest Strata reads: at the top, in a tensor's entry, in a component's map.
bool ztIsReadRootKey(std::string_view key);
bool ztIsReadTensorKey(std::string_view key);
bool ztIsReadComponentKey(std::string_view key);

// The members of the decoded manifest that no reader uses (the spec lets readers ignore them):
// {"top": {key: value}, "tensors": {name: {key: value, "components": {role: {key: value}}}}},
// with a tensor or role only when it has such members.
nlohmann::json ztUnusedManifestKeys(const ZtFile& file);

}  // namespace strata::ztensor
