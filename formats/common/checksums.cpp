#include "checksums.h"

#include <lzma.h>
#include <openssl/evp.h>

#include <array>
#include <cstring>
#include <stdexcept>
#include <vector>

#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

namespace strata {

std::uint64_t crc64xz(std::span<const std::uint8_t> data, std::uint64_t seed) {
    return lzma_crc64(data.data(), data.size(), seed);
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

#if defined(__x86_64__)
// One crc32 instruction takes three cycles but a new one can start every cycle, so one chain
// of them uses a third of the unit. Three streams over consecutive segments run side by side
// and are joined at the end of each stripe.
constexpr std::size_t kLongSegment = 8192;
constexpr std::size_t kShortSegment = 256;

__attribute__((target("sse4.2"))) std::uint32_t crc32cOneStream(const std::uint8_t* p,
                                                                std::size_t n, std::uint32_t crc) {
    std::uint64_t c = crc;
    for (; n >= 8; n -= 8, p += 8) {
        c = _mm_crc32_u64(c, loadLe64(p));
    }
    auto c32 = static_cast<std::uint32_t>(c);
    for (; n > 0; --n, ++p) {
        c32 = _mm_crc32_u8(c32, *p);
    }
    return c32;
}

// Feeding n zero bytes through the CRC register is linear in the register: a 32x32 bit matrix,
// applied as four byte-indexed tables built from the images of the 32 unit registers.
struct Crc32cZeroFeed {
    std::uint32_t t[4][256];

    explicit Crc32cZeroFeed(std::size_t n) {
        const std::vector<std::uint8_t> zeros(n, 0);
        std::array<std::uint32_t, 32> unitImages{};
        for (unsigned bit = 0; bit < 32; ++bit) {
            unitImages[bit] = crc32cOneStream(zeros.data(), n, 1u << bit);
        }
        for (unsigned k = 0; k < 4; ++k) {
            for (unsigned b = 0; b < 256; ++b) {
                std::uint32_t image = 0;
                for (unsigned bit = 0; bit < 8; ++bit) {
                    image ^= ((b >> bit) & 1u) != 0 ? unitImages[8 * k + bit] : 0u;
                }
                t[k][b] = image;
            }
        }
    }

    std::uint32_t apply(std::uint32_t reg) const {
        return t[0][reg & 0xffu] ^ t[1][(reg >> 8) & 0xffu] ^ t[2][(reg >> 16) & 0xffu] ^
               t[3][reg >> 24];
    }
};

// The register after `segment`*3 bytes at p, starting from `crc`: streams a, b, c start from
// crc, 0 and 0; then reg(abc) = feed(feed(a) ^ b) ^ c, where feed adds `segment` zero bytes.
__attribute__((target("sse4.2"))) std::uint32_t crc32cStripe(const std::uint8_t* p,
                                                             std::size_t segment, std::uint32_t crc,
                                                             const Crc32cZeroFeed& feed) {
    std::uint64_t a = crc;
    std::uint64_t b = 0;
    std::uint64_t c = 0;
    for (std::size_t i = 0; i < segment; i += 8) {
        a = _mm_crc32_u64(a, loadLe64(p + i));
        b = _mm_crc32_u64(b, loadLe64(p + segment + i));
        c = _mm_crc32_u64(c, loadLe64(p + 2 * segment + i));
    }
    const std::uint32_t ab =
        feed.apply(static_cast<std::uint32_t>(a)) ^ static_cast<std::uint32_t>(b);
    return feed.apply(ab) ^ static_cast<std::uint32_t>(c);
}

std::uint32_t crc32cSse42(const std::uint8_t* p, std::size_t n, std::uint32_t crc) {
    static const Crc32cZeroFeed longFeed(kLongSegment);
    static const Crc32cZeroFeed shortFeed(kShortSegment);
    for (; n >= 3 * kLongSegment; n -= 3 * kLongSegment, p += 3 * kLongSegment) {
        crc = crc32cStripe(p, kLongSegment, crc, longFeed);
    }
    for (; n >= 3 * kShortSegment; n -= 3 * kShortSegment, p += 3 * kShortSegment) {
        crc = crc32cStripe(p, kShortSegment, crc, shortFeed);
    }
    return crc32cOneStream(p, n, crc);
}
#endif

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

bool crc32cHardwareAvailable() {
#if defined(__x86_64__)
    static const bool available = __builtin_cpu_supports("sse4.2") != 0;
    return available;
#else
    return false;
#endif
}

std::uint32_t crc32cHardware(std::span<const std::uint8_t> data, std::uint32_t seed) {
#if defined(__x86_64__)
    if (crc32cHardwareAvailable()) {
        return ~crc32cSse42(data.data(), data.size(), ~seed);
    }
#endif
    return crc32cTable(data, seed);
}

std::uint32_t crc32c(std::span<const std::uint8_t> data, std::uint32_t seed) {
    return crc32cHardwareAvailable() ? crc32cHardware(data, seed) : crc32cTable(data, seed);
}

struct Sha256::Context {
    EVP_MD_CTX* ctx = nullptr;
    ~Context() { EVP_MD_CTX_free(ctx); }
};

namespace {

void startSha256(EVP_MD_CTX* ctx) {
    if (EVP_DigestInit_ex(ctx, EVP_sha256(), nullptr) != 1) {
        throw std::runtime_error("SHA-256: OpenSSL could not start a digest");
    }
}

}  // namespace

Sha256::Sha256() : context_(std::make_unique<Context>()) {
    context_->ctx = EVP_MD_CTX_new();
    if (context_->ctx == nullptr) {
        throw std::runtime_error("SHA-256: OpenSSL could not allocate a digest context");
    }
    startSha256(context_->ctx);
}

Sha256::~Sha256() = default;
Sha256::Sha256(Sha256&&) noexcept = default;
Sha256& Sha256::operator=(Sha256&&) noexcept = default;

void Sha256::update(std::span<const std::uint8_t> data) {
    if (!data.empty() && EVP_DigestUpdate(context_->ctx, data.data(), data.size()) != 1) {
        throw std::runtime_error("SHA-256: OpenSSL digest update failed");
    }
}

Sha256Digest Sha256::finish() {
    Sha256Digest digest{};
    unsigned int length = 0;
    if (EVP_DigestFinal_ex(context_->ctx, digest.data(), &length) != 1 || length != digest.size()) {
        throw std::runtime_error("SHA-256: OpenSSL digest final failed");
    }
    startSha256(context_->ctx);
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
