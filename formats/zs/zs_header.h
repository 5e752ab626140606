// The ZS file header: magic, header length, the fixed fields, JSON metadata, extension bytes and
// the header CRC-64-xz, each with the bytes it came from. Parsing never throws: every fault is
// collected as a HeaderProblem so the tree can still show what is there.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "formats/common/checksums.h"
#include "formats/common/diagnostic.h"
#include "formats/common/region.h"
#include "zs_probe.h"

namespace strata::zs {

enum class Codec { None, Deflate, Lzma2 };

// The codec as the header spells it: "none", "deflate", "lzma2;dsize=2^20".
std::string_view codecHeaderName(Codec codec);
// Exact match only: "lzma2;dsize=2^21" or "bz2" are not ZS 0.10 codecs.
std::optional<Codec> codecFromHeaderName(std::string_view name);

inline constexpr std::uint64_t kMagicLength = 8;
inline constexpr std::uint64_t kHeaderDataOffset = 16;
// Header data before the metadata: root offset, root length, file length, SHA-256, codec,
// metadata length.
inline constexpr std::uint64_t kHeaderFixedLength = 80;
inline constexpr std::uint64_t kCodecFieldLength = 16;
inline constexpr std::uint64_t kCrcLength = 8;
// Metadata larger than this is shown as bytes but not parsed (bounds memory on hostile files).
inline constexpr std::uint64_t kMaxParsedMetadata = 16u << 20;

struct HeaderProblem {
    Severity severity = Severity::Error;
    std::string code;
    std::string message;
    std::vector<Region> regions;
    // Label of the header field the problem belongs to ("codec"), empty for the header itself.
    std::string field;
};

// One fixed header field and where it lies (lets the tree and the validator name it).
struct HeaderFieldSpan {
    std::string name;
    Region region;
};

struct Header {
    const ByteSource* source = nullptr;
    std::uint64_t fileSize = 0;
    ZsMagicKind magic = ZsMagicKind::None;

    // Which parts could be read at all.
    bool hasLength = false;  // the u64 header length is present
    bool hasFields = false;  // the 80 bytes of fixed fields lie inside the file and the header
    bool hasCrc = false;     // the CRC lies inside the file
    bool crcMatches = false;
    bool metadataInHeader = false;

    std::uint64_t headerLength = 0;  // H: bytes of header data
    std::uint64_t rootIndexOffset = 0;
    std::uint64_t rootIndexLength = 0;
    std::uint64_t totalFileLength = 0;
    Sha256Digest dataSha256{};
    std::string codecText;  // the 16 codec bytes with trailing NULs removed (may be non-ASCII)
    std::optional<Codec> codec;
    std::uint64_t metadataLength = 0;
    std::optional<nlohmann::json> metadata;  // set when the metadata parsed as JSON
    std::uint64_t storedCrc = 0;
    std::uint64_t computedCrc = 0;

    Region magicRegion;
    Region lengthRegion;
    Region dataRegion;  // [16, 16 + H), clipped to the file
    Region rootOffsetRegion;
    Region rootLengthRegion;
    Region totalLengthRegion;
    Region shaRegion;
    Region codecRegion;
    Region metadataLengthRegion;
    Region metadataRegion;
    Region extensionRegion;  // empty when the header has no extension bytes
    Region crcRegion;

    std::vector<HeaderProblem> problems;
    // True when the blocks cannot be located or trusted (bad magic, bad header length, header
    // checksum mismatch, metadata overrunning the header): validation stops after the header.
    bool fatal = false;

    // Where the first block starts: 16 + H + 8 (saturating).
    std::uint64_t firstBlockOffset() const;
    // [8, 24 + H): length field, header data and CRC.
    Region region() const;
    bool hasProblem(std::string_view code) const;
};

Header parseHeader(const ByteSource& source);

}  // namespace strata::zs
