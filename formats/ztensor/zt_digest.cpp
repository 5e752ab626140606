#include "zt_digest.h"

#include <cstdio>
#include <optional>

namespace strata::ztensor {

namespace {

std::optional<std::uint8_t> hexValue(char c) {
    if (c >= '0' && c <= '9') {
        return static_cast<std::uint8_t>(c - '0');
    }
    if (c >= 'a' && c <= 'f') {
        return static_cast<std::uint8_t>(c - 'a' + 10);
    }
    if (c >= 'A' && c <= 'F') {
        return static_cast<std::uint8_t>(c - 'A' + 10);
    }
    return std::nullopt;
}

bool allHex(std::string_view text) {
    for (char c : text) {
        if (!hexValue(c)) {
            return false;
        }
    }
    return true;
}

// Big-endian bytes of an even-length hex string.
std::vector<std::uint8_t> hexBytes(std::string_view text) {
    std::vector<std::uint8_t> out(text.size() / 2);
    for (std::size_t i = 0; i < out.size(); ++i) {
        out[i] =
            static_cast<std::uint8_t>((*hexValue(text[2 * i]) << 4) | *hexValue(text[2 * i + 1]));
    }
    return out;
}

void parseCrc32c(std::string_view value, ZtDigestSpec& spec) {
    std::string_view hex = value;
    if (hex.starts_with("0x") || hex.starts_with("0X")) {
        hex.remove_prefix(2);
    } else {
        spec.warning = "the crc32c value has no 0x prefix";
    }
    if (hex.empty() || !allHex(hex)) {
        spec.error = "crc32c value '" + std::string(value) + "' is not hexadecimal";
        return;
    }
    if (hex.size() > 8) {
        spec.error = "crc32c value '" + std::string(value) + "' has " + std::to_string(hex.size()) +
                     " hex digits; a CRC-32C has at most 8";
        return;
    }
    if (hex.size() < 8 && spec.warning.empty()) {
        spec.warning = "the crc32c value is not written with 8 hex digits";
    }
    const std::string padded = std::string(8 - hex.size(), '0') + std::string(hex);
    spec.expected = hexBytes(padded);
}

void parseSha256(std::string_view value, ZtDigestSpec& spec) {
    if (value.size() != 64 || !allHex(value)) {
        spec.error =
            "sha256 value must be 64 hex digits, found '" + std::string(value.substr(0, 80)) + "'";
        return;
    }
    spec.expected = hexBytes(value);
}

}  // namespace

ZtDigestSpec parseZtDigest(std::string_view text) {
    ZtDigestSpec spec;
    const auto colon = text.find(':');
    if (colon == std::string_view::npos) {
        spec.error = "digest '" + std::string(text.substr(0, 80)) + "' has no 'algorithm:' prefix";
        return spec;
    }
    const std::string_view algorithm = text.substr(0, colon);
    const std::string_view value = text.substr(colon + 1);
    if (algorithm == "crc32c") {
        spec.algorithm = ZtDigestAlgorithm::Crc32c;
        parseCrc32c(value, spec);
    } else if (algorithm == "sha256") {
        spec.algorithm = ZtDigestAlgorithm::Sha256;
        parseSha256(value, spec);
    } else {
        spec.error = "unknown digest algorithm '" + std::string(algorithm.substr(0, 40)) +
                     "' (zTensor 1.0 knows crc32c and sha256)";
    }
    return spec;
}

std::string formatZtCrc32c(std::uint32_t value) {
    char buffer[20];
    std::snprintf(buffer, sizeof buffer, "crc32c:0x%08X", value);
    return buffer;
}

}  // namespace strata::ztensor
