#include "zs_block.h"

#include <algorithm>
#include <cstring>
#include <memory>

#include "formats/common/bounds.h"
#include "formats/common/checksums.h"
#include "formats/common/codec_deflate.h"
#include "formats/common/codec_lzma2.h"
#include "formats/common/le_reader.h"
#include "formats/common/uleb128.h"

namespace strata::zs {

namespace {

// decodeUleb128 with the ZS limit of 9 bytes: a longer encoding overflows.
Uleb128Result decodeZsUleb(std::span<const std::uint8_t> bytes) {
    Uleb128Result result = decodeUleb128(bytes);
    if (result.status != Uleb128Status::Truncated && result.length > kMaxZsUlebBytes) {
        result.status = Uleb128Status::Overflow;
    }
    if (result.status == Uleb128Status::Truncated && result.length >= kMaxZsUlebBytes &&
        bytes.size() > kMaxZsUlebBytes) {
        result.status = Uleb128Status::Overflow;
    }
    return result;
}

}  // namespace

BlockKind blockKindOf(std::uint8_t level) {
    if (level == 0) {
        return BlockKind::Data;
    }
    return level <= kMaxIndexLevel ? BlockKind::Index : BlockKind::Extension;
}

std::string_view blockKindName(BlockKind kind) {
    switch (kind) {
        case BlockKind::Data:
            return "data block";
        case BlockKind::Index:
            return "index block";
        case BlockKind::Extension:
            return "extension block";
    }
    return "block";
}

FrameRead readFrame(const ByteSource& source, std::uint64_t offset, std::uint64_t limit) {
    FrameRead out;
    out.frame.offset = offset;
    const auto here = [&](std::uint64_t length) { return Region{&source, offset, length}; };
    if (offset >= limit) {
        out.message = "no block can start at offset " + std::to_string(offset) + ", the end";
        out.problem = here(0);
        return out;
    }
    const ByteView head =
        source.view(offset, std::min<std::uint64_t>(kUleb128MaxBytes, limit - offset));
    const Uleb128Result length = decodeZsUleb(head.bytes);
    out.frame.lengthFieldSize = length.length;
    switch (length.status) {
        case Uleb128Status::Truncated:
            out.message =
                "the data ends inside the uleb128 length of the block at " + std::to_string(offset);
            out.problem = here(std::max<std::uint64_t>(length.length, 1));
            return out;
        case Uleb128Status::Overflow:
            out.status = FrameStatus::LengthOverflow;
            out.message = "the uleb128 length of the block at " + std::to_string(offset) +
                          " is longer than 9 bytes (ZS values stay below 2^63)";
            out.problem = here(length.length);
            return out;
        case Uleb128Status::NonShortest:
        case Uleb128Status::Ok:
            break;
    }
    out.frame.bodyLength = length.value;
    if (length.value == 0) {
        out.status = FrameStatus::ZeroLength;
        out.message = "the block at " + std::to_string(offset) +
                      " has length 0: no level byte, no payload, no CRC";
        out.problem = here(length.length);
        return out;
    }
    const auto total = checkedAdd(length.length + kCrcLength, length.value);
    if (!total || !rangeFits(offset, *total, limit)) {
        const std::uint64_t declared = total.value_or(~std::uint64_t{0});
        out.message = "the block at " + std::to_string(offset) + " claims " +
                      std::to_string(declared) + " bytes, but only " +
                      std::to_string(limit - offset) + " remain";
        out.problem = Region{&source, offset, declared};
        return out;
    }
    out.frame.level = readLe<std::uint8_t>(source, offset + length.length).value_or(0);
    out.status = length.status == Uleb128Status::Ok ? FrameStatus::Ok : FrameStatus::NonShortest;
    if (out.status == FrameStatus::NonShortest) {
        out.message = "the uleb128 length of the block at " + std::to_string(offset) +
                      " is not in shortest form";
        out.problem = here(length.length);
    }
    return out;
}

FrameRegions frameRegions(const ByteSource& source, const BlockFrame& frame) {
    FrameRegions r;
    r.length = {&source, frame.offset, frame.lengthFieldSize};
    r.level = {&source, frame.offset + frame.lengthFieldSize, 1};
    r.payload = {&source, frame.payloadOffset(), frame.payloadLength()};
    r.crc = {&source, frame.offset + frame.lengthFieldSize + frame.bodyLength, kCrcLength};
    r.whole = {&source, frame.offset, frame.totalLength()};
    return r;
}

CrcCheck checkBlockCrc(const ByteSource& source, const BlockFrame& frame) {
    CrcCheck check;
    const ByteView body = source.view(frame.offset + frame.lengthFieldSize, frame.bodyLength);
    check.computed = crc64xz(body.bytes);
    check.stored =
        readLe<std::uint64_t>(source, frame.offset + frame.lengthFieldSize + frame.bodyLength)
            .value_or(~check.computed);
    return check;
}

Payload decodePayload(const ByteSource& source, const BlockFrame& frame, Codec codec,
                      const ReadLimits& limits) {
    Payload out;
    const ByteView stored = source.view(frame.payloadOffset(), frame.payloadLength());
    if (codec == Codec::None) {
        if (stored.size() > limits.maxPayload) {
            out.status = DecodeStatus::OutputLimit;
            out.message = "the payload is " + std::to_string(stored.size()) +
                          " bytes, more than Strata's limit of " +
                          std::to_string(limits.maxPayload) + " bytes per block";
            return out;
        }
        out.bytes = stored;
        out.status = DecodeStatus::Ok;
        out.consumed = stored.size();
        return out;
    }
    DecodeResult result = codec == Codec::Deflate
                              ? deflateDecompress(stored.bytes, limits.maxPayload)
                              : lzma2Decompress(stored.bytes, limits.maxPayload);
    out.status = result.status;
    out.consumed = result.consumed;
    const std::string name = codec == Codec::Deflate ? "deflate" : "LZMA2";
    switch (result.status) {
        case DecodeStatus::Ok:
            break;
        case DecodeStatus::TrailingData:
            out.message = std::to_string(stored.size() - result.consumed) +
                          " bytes follow the end of the " + name + " stream";
            break;
        case DecodeStatus::OutputLimit:
            out.message = "the " + name + " stream decodes to more than Strata's limit of " +
                          std::to_string(limits.maxPayload) + " bytes per block";
            break;
        default:
            out.message = "the " + name + " stream cannot be decoded (" +
                          std::string(decodeStatusName(result.status)) +
                          (result.message.empty() ? "" : ": " + result.message) + ")";
            break;
    }
    auto data = std::make_shared<const std::vector<std::uint8_t>>(std::move(result.data));
    out.bytes.bytes = std::span<const std::uint8_t>(data->data(), data->size());
    out.bytes.keepAlive = std::move(data);
    return out;
}

namespace {

// Reads one uleb128 inside a payload; on failure fills `problem` (code by `truncatedCode`).
std::optional<std::uint64_t> payloadUleb(std::span<const std::uint8_t> payload,
                                         std::uint64_t& position, const char* what,
                                         const char* truncatedCode,
                                         std::optional<PayloadProblem>& problem) {
    const auto rest = payload.subspan(static_cast<std::size_t>(position));
    const Uleb128Result value = decodeZsUleb(rest);
    switch (value.status) {
        case Uleb128Status::Ok:
            position += value.length;
            return value.value;
        case Uleb128Status::Truncated:
            problem = PayloadProblem{truncatedCode,
                                     std::string("the payload ends inside the uleb128 ") + what,
                                     position};
            return std::nullopt;
        case Uleb128Status::NonShortest:
            problem = PayloadProblem{
                "ZS-ULEB128", std::string("the uleb128 ") + what + " is not in shortest form",
                position};
            return std::nullopt;
        case Uleb128Status::Overflow:
            problem = PayloadProblem{"ZS-ULEB128",
                                     std::string("the uleb128 ") + what +
                                         " is longer than 9 bytes (ZS values stay below 2^63)",
                                     position};
            return std::nullopt;
    }
    return std::nullopt;
}

}  // namespace

std::optional<std::span<const std::uint8_t>> RecordCursor::next() {
    if (problem_ || position_ >= payload_.size()) {
        return std::nullopt;
    }
    recordStart_ = position_;
    std::uint64_t pos = position_;
    const auto length = payloadUleb(payload_, pos, "record length", "ZS-RECORD-LENGTH", problem_);
    if (!length) {
        return std::nullopt;
    }
    if (!rangeFits(pos, *length, payload_.size())) {
        problem_ = PayloadProblem{"ZS-RECORD-LENGTH",
                                  "a record of " + std::to_string(*length) +
                                      " bytes runs past the end of the payload (" +
                                      std::to_string(payload_.size() - pos) + " bytes left)",
                                  recordStart_};
        return std::nullopt;
    }
    position_ = pos + *length;
    return payload_.subspan(static_cast<std::size_t>(pos), static_cast<std::size_t>(*length));
}

IndexPayload parseIndexPayload(std::span<const std::uint8_t> payload) {
    IndexPayload out;
    std::uint64_t pos = 0;
    while (pos < payload.size()) {
        IndexEntry entry;
        entry.entryOffset = pos;
        const auto keyLength =
            payloadUleb(payload, pos, "key length", "ZS-INDEX-ENTRY", out.problem);
        if (!keyLength) {
            break;
        }
        if (!rangeFits(pos, *keyLength, payload.size())) {
            out.problem = PayloadProblem{"ZS-INDEX-ENTRY",
                                         "a key of " + std::to_string(*keyLength) +
                                             " bytes runs past the end of the payload",
                                         entry.entryOffset};
            break;
        }
        entry.keyOffset = pos;
        entry.keyLength = *keyLength;
        pos += *keyLength;
        const auto child = payloadUleb(payload, pos, "block offset", "ZS-INDEX-ENTRY", out.problem);
        if (!child) {
            break;
        }
        const auto length =
            payloadUleb(payload, pos, "block length", "ZS-INDEX-ENTRY", out.problem);
        if (!length) {
            break;
        }
        entry.childOffset = *child;
        entry.childLength = *length;
        entry.entryLength = pos - entry.entryOffset;
        out.entries.push_back(entry);
    }
    return out;
}

int compareBytes(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b) {
    const std::size_t common = std::min(a.size(), b.size());
    const int c = common == 0 ? 0 : std::memcmp(a.data(), b.data(), common);
    if (c != 0) {
        return c < 0 ? -1 : 1;
    }
    if (a.size() == b.size()) {
        return 0;
    }
    return a.size() < b.size() ? -1 : 1;
}

std::span<const std::uint8_t> asBytes(std::string_view text) {
    return {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()};
}

std::string printableBytes(std::span<const std::uint8_t> bytes, std::size_t max) {
    std::string out;
    const std::size_t shown = std::min(bytes.size(), max);
    for (std::size_t i = 0; i < shown; ++i) {
        const std::uint8_t b = bytes[i];
        if (b >= 0x20 && b < 0x7f && b != '\\') {
            out += static_cast<char>(b);
        } else if (b == '\\') {
            out += "\\\\";
        } else {
            static constexpr char kHex[] = "0123456789abcdef";
            out += "\\x";
            out += kHex[b >> 4];
            out += kHex[b & 15];
        }
    }
    if (shown < bytes.size()) {
        out += "...";
    }
    return out;
}

}  // namespace strata::zs
