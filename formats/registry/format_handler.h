// What each format plugs into the registry: a probe that recognises it, and an opener that
// turns a path into sources, a lazy Node tree and a validator.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "../common/byte_source.h"
#include "../common/node.h"
#include "../common/validator.h"

namespace strata {

enum class FormatId { RawBinary, Zs, Zds, Shardlake, Ozdf, ZTensor };

// The name users see and strata-cli prints: "ZS", "ZDS", "Shardlake", "OZDF", "zTensor",
// "raw binary".
std::string_view formatName(FormatId id);

// What a probe looks at. `head` holds the first bytes of a regular file (empty for folders).
struct ProbeInput {
    std::filesystem::path path;
    bool isDirectory = false;
    std::uint64_t fileSize = 0;
    std::vector<std::uint8_t> head;
    // Lower-case extension with the dot (".zs"), empty when there is none.
    std::string extension;

    static constexpr std::size_t kHeadSize = 4096;
    static ProbeInput fromPath(const std::filesystem::path& path);
    bool headStartsWith(std::string_view magic) const;
};

struct Detection {
    FormatId format = FormatId::RawBinary;
    // 100 = certain (magic bytes), 50 = layout or extension, lower = a guess.
    int confidence = 0;
    // What exactly was recognised: "ZS file", "incomplete ZS file", "Shardlake storage root",
    // "zTensor v0.1 file". strata-cli detect prints it after the format name.
    std::string description;
};

// A path opened by a format: the byte sources it uses, the structure tree, facts for `info`.
struct OpenedDocument {
    FormatId format = FormatId::RawBinary;
    std::filesystem::path path;
    std::vector<ByteSourcePtr> sources;
    std::unique_ptr<Node> root;
    // Ordered key/value facts shown by `strata-cli info` and the properties panel.
    std::vector<std::pair<std::string, std::string>> facts;
    // Makes a validator over this document; may return nullptr when the format has none yet.
    std::function<std::unique_ptr<Validator>()> makeValidator;
};

class FormatHandler {
public:
    virtual ~FormatHandler() = default;
    virtual FormatId id() const = 0;
    virtual std::optional<Detection> probe(const ProbeInput& input) const = 0;
    // Throws SourceError (or a format's own std::runtime_error) when the path cannot be opened
    // at all; damage that still lets a tree be shown is reported by the validator instead.
    virtual std::unique_ptr<OpenedDocument> open(const std::filesystem::path& path,
                                                 const Detection& detection) const = 0;
};

}  // namespace strata
