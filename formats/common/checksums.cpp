#include "checksums.h"

#include <isa-l/crc.h>
#include <lzma.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "crypto_library.h"

namespace strata {

std::uint64_t crc64xz(std::span<const std::uint8_t> data, std::uint64_t seed) {
    return lzma_crc64(data.data(), data.size(), seed);
}

namespace {

// Polynomials modulo the CRC-64 polynomial, bit-reflected as the CRC register holds them: the
// top bit is x^0.
constexpr std::uint64_t kCrc64Poly = 0xC96C5795D7870F42ull;
constexpr std::uint64_t kCrc64One = std::uint64_t{1} << 63;

std::uint64_t multiplyModPoly(std::uint64_t a, std::uint64_t b) {
    std::uint64_t product = 0;
    for (std::uint64_t bit = kCrc64One; bit != 0; bit >>= 1) {
        if ((a & bit) != 0) {
            product ^= b;
        }
        b = (b & 1) != 0 ? (b >> 1) ^ kCrc64Poly : b >> 1;
    }
    return product;
}

// x^(2^k) modulo the polynomial, k = 0..66: enough for any shift by a 64-bit count of bytes.
const std::array<std::uint64_t, 67>& powersOfTwoOfX() {
    static const std::array<std::uint64_t, 67> table = [] {
        std::array<std::uint64_t, 67> t{};
        t[0] = kCrc64One >> 1;  // x^1
        for (std::size_t k = 1; k < t.size(); ++k) {
            t[k] = multiplyModPoly(t[k - 1], t[k - 1]);
        }
        return t;
    }();
    return table;
}

}  // namespace

std::uint64_t crc64xzCombine(std::uint64_t crcA, std::uint64_t crcB, std::uint64_t lengthB) {
    // crc(ab) = crcA * x^(8 * lengthB) + crcB: the all-ones init and xorout cancel out.
    const auto& powers = powersOfTwoOfX();
    std::uint64_t shift = kCrc64One;
    for (std::size_t k = 3; lengthB != 0; lengthB >>= 1, ++k) {
        if ((lengthB & 1) != 0) {
            shift = multiplyModPoly(powers[k], shift);
        }
    }
    return multiplyModPoly(shift, crcA) ^ crcB;
}

namespace {

constexpr std::uint32_t kCrc32cPoly = 0x82f63b78u;  // Castagnoli polynomial, reflected

// Slicing-by-8 tables: table[k][b] is the CRC of byte b followed by k zero bytes.
struct Crc32cTables {
    std::uint32_t t[8][256];
};

constexpr Crc32cTables makeCrc32cTables() {
    Crc32cTables tables{};
    for (std::uint32_t b = 0; b < 256; ++b) {
        std::uint32_t crc = b;
        for (int bit = 0; bit < 8; ++bit) {
            crc = (crc >> 1) ^ ((crc & 1u) != 0 ? kCrc32cPoly : 0u);
        }
        tables.t[0][b] = crc;
    }
    for (int k = 1; k < 8; ++k) {
        for (std::uint32_t b = 0; b < 256; ++b) {
            const std::uint32_t prev = tables.t[k - 1][b];
            tables.t[k][b] = (prev >> 8) ^ tables.t[0][prev & 0xffu];
        }
    }
    return tables;
}

constexpr Crc32cTables kCrc32c = makeCrc32cTables();

std::uint64_t loadLe64(const std::uint8_t* p) {
    std::uint64_t v = 0;
    std::memcpy(&v, p, sizeof v);
    return v;  // x86-64 and every other supported target is little-endian
}

}  // namespace

std::uint32_t crc32cTable(std::span<const std::uint8_t> data, std::uint32_t seed) {
    std::uint32_t crc = ~seed;
    const std::uint8_t* p = data.data();
    std::size_t n = data.size();
    const auto& t = kCrc32c.t;
    for (; n >= 8; n -= 8, p += 8) {
        const std::uint64_t v = loadLe64(p) ^ crc;
        crc = t[7][v & 0xff] ^ t[6][(v >> 8) & 0xff] ^ t[5][(v >> 16) & 0xff] ^
              t[4][(v >> 24) & 0xff] ^ t[3][(v >> 32) & 0xff] ^ t[2][(v >> 40) & 0xff] ^
              t[1][(v >> 48) & 0xff] ^ t[0][v >> 56];
    }
    for (; n > 0; --n, ++p) {
        crc = (crc >> 8) ^ t[0][(crc ^ *p) & 0xffu];
    }
    return ~crc;
}

std::uint32_t crc32c(std::span<const std::uint8_t> data, std::uint32_t seed) {
    // ISA-L picks the widest kernel the CPU has at load time (AVX-512 carry-less multiply
    // folding, SSE4.2 crc32 streams or a table). It takes the register before the final
    // inversion and an int length, so long ranges go in pieces.
    constexpr std::size_t kMaxPiece = std::size_t{1} << 30;
    std::uint32_t reg = ~seed;
    for (std::size_t done = 0; done < data.size();) {
        const std::size_t piece = std::min(kMaxPiece, data.size() - done);
        // crc32_iscsi only reads the buffer; its C signature predates const.
        reg = crc32_iscsi(const_cast<std::uint8_t*>(data.data() + done), static_cast<int>(piece),
                          reg);
        done += piece;
    }
    return ~reg;
}

struct Sha256::Context {
    const CryptoLibrary& crypto = cryptoLibrary();
    EVP_MD_CTX* ctx = nullptr;
    ~Context() { crypto.mdCtxFree(ctx); }
};

namespace {

void startSha256(const CryptoLibrary& crypto, EVP_MD_CTX* ctx) {
    if (crypto.digestInit(ctx, crypto.sha256(), nullptr) != 1) {
        throw std::runtime_error("SHA-256: OpenSSL could not start a digest");
    }
}

}  // namespace

Sha256::Sha256() : context_(std::make_unique<Context>()) {
    context_->ctx = context_->crypto.mdCtxNew();
    if (context_->ctx == nullptr) {
        throw std::runtime_error("SHA-256: OpenSSL could not allocate a digest context");
    }
    startSha256(context_->crypto, context_->ctx);
}

Sha256::~Sha256() = default;
Sha256::Sha256(Sha256&&) noexcept = default;
Sha256& Sha256::operator=(Sha256&&) noexcept = default;

void Sha256::update(std::span<const std::uint8_t> data) {
    if (!data.empty() &&
        context_->crypto.digestUpdate(context_->ctx, data.data(), data.size()) != 1) {
        throw std::runtime_error("SHA-256: OpenSSL digest update failed");
    }
}

Sha256Digest Sha256::finish() {
    Sha256Digest digest{};
    unsigned int length = 0;
    if (context_->crypto.digestFinal(context_->ctx, digest.data(), &length) != 1 ||
        length != digest.size()) {
        throw std::runtime_error("SHA-256: OpenSSL digest final failed");
    }
    startSha256(context_->crypto, context_->ctx);
    return digest;
}

Sha256Digest sha256(std::span<const std::uint8_t> data) {
    Sha256 hash;
    hash.update(data);
    return hash.finish();
}

std::string toHex(std::span<const std::uint8_t> bytes) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out;
    out.reserve(bytes.size() * 2);
    for (const std::uint8_t b : bytes) {
        out.push_back(kDigits[b >> 4]);
        out.push_back(kDigits[b & 0x0f]);
    }
    return out;
}

std::uint32_t fnv1a32(std::span<const std::uint8_t> data, std::uint32_t state) {
    for (const std::uint8_t b : data) {
        state = (state ^ b) * kFnv1a32Prime;
    }
    return state;
}

std::uint64_t fnv1a64(std::span<const std::uint8_t> data, std::uint64_t state) {
    for (const std::uint8_t b : data) {
        state = (state ^ b) * kFnv1a64Prime;
    }
    return state;
}

}  // namespace strata
