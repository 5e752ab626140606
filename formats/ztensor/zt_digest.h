// zTensor component digests: "crc32c:0x1A2B3C4D" or "sha256:<64 hex digits>", computed over the
// stored (possibly compressed) bytes of a component.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace strata::ztensor {

enum class ZtDigestAlgorithm { Crc32c, Sha256, Unknown };

// What digest a component gets in a file Strata rewrites (a conversion, the editor's save).
enum class ZtDigestChoice {
    Keep,    // the algorithm the input component used (none stays none), recomputed
    None,    // no digest
    Crc32c,  // "crc32c:0x%08X"
    Sha256,  // "sha256:<hex>"
};

struct ZtDigestSpec {
    ZtDigestAlgorithm algorithm = ZtDigestAlgorithm::Unknown;
    // The expected value: 4 bytes big-endian for crc32c, 32 bytes for sha256.
    std::vector<std::uint8_t> expected;
    // Set when the text cannot be used at all (the digest cannot be checked).
    std::string error;
    // Set when the digest can be checked but is not written the canonical way.
    std::string warning;

    bool usable() const { return error.empty(); }
};

ZtDigestSpec parseZtDigest(std::string_view text);

// The digest text Strata writes: "crc32c:0x%08X" or lower-case "sha256:…".
std::string formatZtCrc32c(std::uint32_t value);

}  // namespace strata::ztensor
