// Checksums and digests used by the formats: CRC-64-xz (ZS blocks and header), CRC-32C (zTensor
// digests), SHA-256 (ZS data hash, zTensor digests) and FNV-1a (Shardlake shard "sha256").
// Every CRC takes the previous result as `seed`, so a long range can be checksummed in pieces:
// crc(ab) == crc(b, crc(a)).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

namespace strata {

using Sha256Digest = std::array<std::uint8_t, 32>;

// CRC-64 as in .xz (ECMA-182 polynomial, reflected, init and xorout all ones), via liblzma.
std::uint64_t crc64xz(std::span<const std::uint8_t> data, std::uint64_t seed = 0);
// The CRC-64-xz of a followed by b, from crc64xz(a), crc64xz(b) and b's length, in
// O(log length) (as zlib's crc32_combine): lets the CRC of any range be found from the CRCs of
// prefixes without reading the range again.
std::uint64_t crc64xzCombine(std::uint64_t crcA, std::uint64_t crcB, std::uint64_t lengthB);

// CRC-32C (Castagnoli), via ISA-L's crc32_iscsi with its run-time choice of CPU kernel.
std::uint32_t crc32c(std::span<const std::uint8_t> data, std::uint32_t seed = 0);
// A slicing-by-8 table version, independent of ISA-L: the reference tests compare against.
std::uint32_t crc32cTable(std::span<const std::uint8_t> data, std::uint32_t seed = 0);

// SHA-256 via OpenSSL. Throws std::runtime_error only if OpenSSL's libcrypto cannot be loaded
// (crypto_library.h) or fails.
Sha256Digest sha256(std::span<const std::uint8_t> data);

// Incremental SHA-256 for data that arrives in pieces (decompressed blocks, say).
class Sha256 {
public:
    Sha256();
    ~Sha256();
    Sha256(Sha256&&) noexcept;
    Sha256& operator=(Sha256&&) noexcept;

    void update(std::span<const std::uint8_t> data);
    // Returns the digest of everything given so far and starts over with an empty message.
    Sha256Digest finish();

private:
    struct Context;
    std::unique_ptr<Context> context_;
};

// Lower-case hex, two digits per byte.
std::string toHex(std::span<const std::uint8_t> bytes);

inline constexpr std::uint32_t kFnv1a32Basis = 0x811c9dc5u;
inline constexpr std::uint32_t kFnv1a32Prime = 0x01000193u;
inline constexpr std::uint64_t kFnv1a64Basis = 0xcbf29ce484222325ull;
inline constexpr std::uint64_t kFnv1a64Prime = 0x100000001b3ull;

// FNV-1a; pass a previous result as `state` to continue a hash over more bytes.
std::uint32_t fnv1a32(std::span<const std::uint8_t> data, std::uint32_t state = kFnv1a32Basis);
std::uint64_t fnv1a64(std::span<const std::uint8_t> data, std::uint64_t state = kFnv1a64Basis);

class Fnv1a32 {
public:
    void update(std::span<const std::uint8_t> data) { state_ = fnv1a32(data, state_); }
    std::uint32_t value() const { return state_; }

private:
    std::uint32_t state_ = kFnv1a32Basis;
};

class Fnv1a64 {
public:
    void update(std::span<const std::uint8_t> data) { state_ = fnv1a64(data, state_); }
    std::uint64_t value() const { return state_; }

private:
    std::uint64_t state_ = kFnv1a64Basis;
};

}  // namespace strata
