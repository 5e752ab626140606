#include "zs_header.h"

#include <algorithm>
#include <array>

#include "formats/common/bounds.h"
#include "formats/common/le_reader.h"

namespace strata::zs {

std::string_view codecHeaderName(Codec codec) {
    switch (codec) {
        case Codec::None:
            return "none";
        case Codec::Deflate:
            return "deflate";
        case Codec::Lzma2:
            return "lzma2;dsize=2^20";
    }
    return "none";
}

std::optional<Codec> codecFromHeaderName(std::string_view name) {
    for (Codec codec : {Codec::None, Codec::Deflate, Codec::Lzma2}) {
        if (name == codecHeaderName(codec)) {
            return codec;
        }
    }
    return std::nullopt;
}

std::uint64_t Header::firstBlockOffset() const {
    return saturatingEnd(saturatingEnd(kHeaderDataOffset, headerLength), kCrcLength);
}

Region Header::region() const {
    return {source, 8, saturatingEnd(headerLength, 16)};
}

bool Header::hasProblem(std::string_view code) const {
    return std::any_of(problems.begin(), problems.end(),
                       [code](const HeaderProblem& p) { return p.code == code; });
}

namespace {

class HeaderParser {
public:
    explicit HeaderParser(const ByteSource& source) : source_(source) {
        h_.source = &source;
        h_.fileSize = source.size();
    }

    Header run() {
        if (readMagic() && readLength() && readCrc()) {
            readFields();
        }
        return std::move(h_);
    }

private:
    Region at(std::uint64_t offset, std::uint64_t length) const {
        return {&source_, offset, length};
    }

    void problem(std::string code, std::string message, std::vector<Region> regions,
                 std::string field = {}, Severity severity = Severity::Error) {
        h_.problems.push_back(
            {severity, std::move(code), std::move(message), std::move(regions), std::move(field)});
    }
    void fatal(std::string code, std::string message, std::vector<Region> regions,
               std::string field = {}) {
        problem(std::move(code), std::move(message), std::move(regions), std::move(field));
        h_.fatal = true;
    }

    bool readMagic() {
        h_.magicRegion = at(0, kMagicLength);
        if (h_.fileSize == 0) {
            fatal("ZS-EMPTY", "the file is empty (a ZS file starts with an 8-byte magic)",
                  {h_.magicRegion}, "magic");
            return false;
        }
        const ByteView head = source_.view(0, kMagicLength);
        h_.magic = classifyZsMagic(head.bytes);
        switch (h_.magic) {
            case ZsMagicKind::Complete:
                return true;
            case ZsMagicKind::Incomplete:
                // Still parse the rest so the tree can show it; validation stops here.
                fatal("ZS-INCOMPLETE",
                      "the file starts with the partial-file magic \\xabZStoBe\\x01: the writer "
                      "never finished it",
                      {h_.magicRegion}, "magic");
                return true;
            case ZsMagicKind::Truncated:
                fatal("ZS-TRUNCATED",
                      "the file ends after " + std::to_string(h_.fileSize) +
                          " bytes, inside the 8-byte magic",
                      {h_.magicRegion}, "magic");
                return false;
            case ZsMagicKind::UnknownVersion:
                fatal("ZS-MAGIC",
                      "the magic names ZS format version " + std::to_string(head.bytes[7]) +
                          "; Strata reads version 1 (ZS 0.10)",
                      {h_.magicRegion}, "magic");
                return false;
            case ZsMagicKind::None:
                break;
        }
        fatal("ZS-MAGIC", "the file does not start with the ZS magic \\xabZSfiLe\\x01",
              {h_.magicRegion}, "magic");
        return false;
    }

    bool readLength() {
        h_.lengthRegion = at(8, 8);
        const auto length = readLe<std::uint64_t>(source_, 8);
        if (!length) {
            fatal("ZS-TRUNCATED", "the file ends inside the header length field", {h_.lengthRegion},
                  "header length");
            return false;
        }
        h_.hasLength = true;
        h_.headerLength = *length;
        h_.dataRegion = Region{&source_, kHeaderDataOffset, h_.headerLength}.clipped();
        const std::uint64_t needed = h_.firstBlockOffset();
        if (needed > h_.fileSize) {
            fatal("ZS-HEADER-LENGTH",
                  "the header length " + std::to_string(h_.headerLength) +
                      " puts the end of the header at byte " + std::to_string(needed) +
                      ", past the end of the " + std::to_string(h_.fileSize) + "-byte file",
                  {h_.lengthRegion, at(h_.fileSize, 0)}, "header length");
            return false;
        }
        return true;
    }

    bool readCrc() {
        h_.crcRegion = at(kHeaderDataOffset + h_.headerLength, kCrcLength);
        h_.hasCrc = true;
        h_.storedCrc = readLe<std::uint64_t>(source_, h_.crcRegion.offset).value_or(0);
        const ByteView data = source_.view(kHeaderDataOffset, h_.headerLength);
        h_.computedCrc = crc64xz(data.bytes);
        h_.crcMatches = h_.storedCrc == h_.computedCrc;
        if (!h_.crcMatches) {
            fatal("ZS-HEADER-CRC",
                  "header CRC-64-xz mismatch: stored " + hex(h_.storedCrc) + ", computed " +
                      hex(h_.computedCrc) + " over bytes 16.." +
                      std::to_string(kHeaderDataOffset + h_.headerLength),
                  {h_.crcRegion, h_.dataRegion, h_.lengthRegion}, "header crc");
        }
        if (h_.headerLength < kHeaderFixedLength) {
            fatal("ZS-HEADER-LENGTH",
                  "the header length " + std::to_string(h_.headerLength) +
                      " is too small for the 80 bytes of fixed header fields",
                  {h_.lengthRegion, h_.dataRegion}, "header length");
            return false;
        }
        h_.hasFields = true;
        return true;
    }

    static std::string hex(std::uint64_t value) {
        char buffer[24];
        std::snprintf(buffer, sizeof buffer, "0x%016llx", static_cast<unsigned long long>(value));
        return buffer;
    }

    void readFields() {
        const ByteView fixed = source_.view(kHeaderDataOffset, kHeaderFixedLength);
        LeCursor cursor(fixed.bytes);
        h_.rootIndexOffset = cursor.u64();
        h_.rootIndexLength = cursor.u64();
        h_.totalFileLength = cursor.u64();
        const auto sha = cursor.bytes(32);
        std::copy(sha.begin(), sha.end(), h_.dataSha256.begin());
        const auto codec = cursor.bytes(kCodecFieldLength);
        h_.metadataLength = cursor.u64();
        h_.rootOffsetRegion = at(16, 8);
        h_.rootLengthRegion = at(24, 8);
        h_.totalLengthRegion = at(32, 8);
        h_.shaRegion = at(40, 32);
        h_.codecRegion = at(72, kCodecFieldLength);
        h_.metadataLengthRegion = at(88, 8);
        readCodec(codec);
        checkFileLength();
        readMetadata();
    }

    void readCodec(std::span<const std::uint8_t> bytes) {
        std::size_t end = bytes.size();
        while (end > 0 && bytes[end - 1] == 0) {
            --end;
        }
        h_.codecText.assign(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(end));
        h_.codec = codecFromHeaderName(h_.codecText);
        if (h_.codec) {
            return;
        }
        const bool ascii = std::all_of(h_.codecText.begin(), h_.codecText.end(), [](char c) {
            return static_cast<unsigned char>(c) >= 0x20 && static_cast<unsigned char>(c) < 0x7f;
        });
        problem("ZS-CODEC",
                ascii ? "unknown codec \"" + h_.codecText +
                            "\" (ZS 0.10 knows none, deflate and lzma2;dsize=2^20)"
                      : std::string("the codec field is not NUL-padded printable ASCII"),
                {h_.codecRegion}, "codec");
    }

    void checkFileLength() {
        if (h_.totalFileLength == h_.fileSize) {
            return;
        }
        const std::uint64_t lo = std::min(h_.totalFileLength, h_.fileSize);
        const std::uint64_t hi = std::max(h_.totalFileLength, h_.fileSize);
        const bool shorter = h_.fileSize < h_.totalFileLength;
        problem("ZS-FILE-LENGTH",
                "the file is " + std::to_string(h_.fileSize) + " bytes, but the header says " +
                    std::to_string(h_.totalFileLength) +
                    (shorter ? " (the file is truncated)" : " (bytes were appended)"),
                {h_.totalLengthRegion, at(lo, hi - lo)}, "total file length");
    }

    void readMetadata() {
        const std::uint64_t start = kHeaderDataOffset + kHeaderFixedLength;
        const std::uint64_t available = h_.headerLength - kHeaderFixedLength;
        h_.metadataRegion = at(start, h_.metadataLength);
        if (h_.metadataLength > available) {
            fatal("ZS-METADATA-LENGTH",
                  "the metadata length " + std::to_string(h_.metadataLength) +
                      " runs past the end of the header (" + std::to_string(available) +
                      " bytes left after the fixed fields)",
                  {h_.metadataLengthRegion, h_.lengthRegion}, "metadata length");
            h_.metadataRegion = at(start, available);
            return;
        }
        h_.metadataInHeader = true;
        const std::uint64_t extension = available - h_.metadataLength;
        if (extension > 0) {
            h_.extensionRegion = at(start + h_.metadataLength, extension);
            problem("ZS-HEADER-EXTENSION",
                    std::to_string(extension) +
                        " extension bytes follow the metadata; readers ignore them (valid)",
                    {h_.extensionRegion}, "extension bytes", Severity::Info);
        }
        parseMetadata();
    }

    void parseMetadata() {
        if (h_.metadataLength > kMaxParsedMetadata) {
            problem("ZS-METADATA-JSON",
                    "the metadata is " + std::to_string(h_.metadataLength) +
                        " bytes; Strata does not parse metadata over " +
                        std::to_string(kMaxParsedMetadata) + " bytes",
                    {h_.metadataRegion}, "metadata", Severity::Warning);
            return;
        }
        const ByteView bytes = source_.view(h_.metadataRegion.offset, h_.metadataLength);
        nlohmann::json parsed =
            nlohmann::json::parse(bytes.bytes.begin(), bytes.bytes.end(), nullptr, false);
        if (parsed.is_discarded()) {
            problem("ZS-METADATA-JSON", "the metadata is not valid UTF-8 JSON", {h_.metadataRegion},
                    "metadata");
            return;
        }
        if (!parsed.is_object()) {
            problem("ZS-METADATA-TYPE",
                    std::string("the metadata is a JSON ") + parsed.type_name() +
                        "; ZS requires a JSON object",
                    {h_.metadataRegion}, "metadata");
        }
        h_.metadata = std::move(parsed);
    }

    const ByteSource& source_;
    Header h_;
};

}  // namespace

Header parseHeader(const ByteSource& source) {
    return HeaderParser(source).run();
}

}  // namespace strata::zs
