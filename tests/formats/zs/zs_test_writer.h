// Builds small ZS files block by block for tests, including deliberately broken ones.
#pragma once

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "formats/common/byte_source.h"
#include "formats/common/checksums.h"
#include "formats/common/codec_deflate.h"
#include "formats/common/uleb128.h"
#include "formats/zs/zs_header.h"

namespace strata::zs::testing {

using Bytes = std::vector<std::uint8_t>;

inline void appendLe64(Bytes& out, std::uint64_t v) {
    for (int i = 0; i < 8; ++i) {
        out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
    }
}

inline Bytes packRecords(const std::vector<std::string>& records) {
    Bytes out;
    for (const auto& r : records) {
        appendUleb128(out, r.size());
        out.insert(out.end(), r.begin(), r.end());
    }
    return out;
}

struct TestEntry {
    std::string key;
    std::uint64_t offset;
    std::uint64_t length;
};

inline Bytes packIndex(const std::vector<TestEntry>& entries) {
    Bytes out;
    for (const auto& e : entries) {
        appendUleb128(out, e.key.size());
        out.insert(out.end(), e.key.begin(), e.key.end());
        appendUleb128(out, e.offset);
        appendUleb128(out, e.length);
    }
    return out;
}

struct Placed {
    std::uint64_t offset;
    std::uint64_t length;
};

class TestZsWriter {
public:
    explicit TestZsWriter(Codec codec = Codec::None, std::string metadata = "{}")
        : codec_(codec), metadata_(std::move(metadata)) {
        bytes_.resize(16 + 80 + metadata_.size() + 8);
    }

    Bytes& bytes() { return bytes_; }
    std::uint64_t end() const { return bytes_.size(); }

    // A block with the payload stored exactly as given (no compression).
    Placed rawBlock(std::uint8_t level, const Bytes& stored) {
        const std::uint64_t offset = bytes_.size();
        Bytes body{level};
        body.insert(body.end(), stored.begin(), stored.end());
        appendUleb128(bytes_, body.size());
        bytes_.insert(bytes_.end(), body.begin(), body.end());
        appendLe64(bytes_, crc64xz(body));
        return {offset, bytes_.size() - offset};
    }

    Placed dataBlock(const std::vector<std::string>& records) {
        const Bytes payload = packRecords(records);
        sha_.update(payload);
        return rawBlock(0, encode(payload));
    }

    Placed indexBlock(std::uint8_t level, const std::vector<TestEntry>& entries) {
        return rawBlock(level, encode(packIndex(entries)));
    }

    void setRoot(Placed root) { root_ = root; }

    Bytes finish() {
        Bytes header;
        appendLe64(header, root_.offset);
        appendLe64(header, root_.length);
        appendLe64(header, bytes_.size());
        const Sha256Digest digest = sha_.finish();
        header.insert(header.end(), digest.begin(), digest.end());
        std::string codec(codecHeaderName(codec_));
        codec.resize(16, '\0');
        header.insert(header.end(), codec.begin(), codec.end());
        appendLe64(header, metadata_.size());
        header.insert(header.end(), metadata_.begin(), metadata_.end());
        Bytes prefix{0xab, 'Z', 'S', 'f', 'i', 'L', 'e', 0x01};
        appendLe64(prefix, header.size());
        prefix.insert(prefix.end(), header.begin(), header.end());
        appendLe64(prefix, crc64xz(header));
        std::copy(prefix.begin(), prefix.end(), bytes_.begin());
        return bytes_;
    }

    Bytes encode(const Bytes& payload) const {
        return codec_ == Codec::Deflate ? deflateCompress(payload) : payload;
    }

private:
    Codec codec_;
    std::string metadata_;
    Bytes bytes_;
    Sha256 sha_;
    Placed root_{0, 0};
};

inline void fixHeaderCrc(Bytes& bytes);

// Rewrites the u64 at `offset` and fixes the header CRC.
inline void patchHeader64(Bytes& bytes, std::uint64_t offset, std::uint64_t value) {
    for (int i = 0; i < 8; ++i) {
        bytes[offset + i] = static_cast<std::uint8_t>(value >> (8 * i));
    }
    fixHeaderCrc(bytes);
}

// Recomputes the header CRC after header bytes were changed.
inline void fixHeaderCrc(Bytes& bytes) {
    std::uint64_t h = 0;
    for (int i = 0; i < 8; ++i) {
        h |= std::uint64_t{bytes[8 + i]} << (8 * i);
    }
    const std::uint64_t crc =
        crc64xz(std::span<const std::uint8_t>(bytes.data() + 16, static_cast<std::size_t>(h)));
    for (int i = 0; i < 8; ++i) {
        bytes[16 + h + i] = static_cast<std::uint8_t>(crc >> (8 * i));
    }
}

}  // namespace strata::zs::testing
