#include "scan_shard.h"

#include <charconv>
#include <stdexcept>

#include "formats/common/checksums.h"

namespace strata::scan {

std::uint64_t stableHash(std::string_view text) {
    std::uint64_t h = fnv1a64({reinterpret_cast<const std::uint8_t*>(text.data()), text.size()});
    h ^= h >> 30;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 27;
    h *= 0x94d049bb133111ebull;
    h ^= h >> 31;
    return h;
}

namespace {

unsigned parseNumber(std::string_view digits, std::string_view whole) {
    unsigned value = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size()) {
        throw std::invalid_argument("--shard " + std::string(whole) +
                                    ": expected I/N, two whole numbers such as 0/4");
    }
    return value;
}

}  // namespace

ShardSpec parseShardSpec(std::string_view text) {
    const std::size_t slash = text.find('/');
    if (slash == std::string_view::npos) {
        throw std::invalid_argument("--shard " + std::string(text) +
                                    ": expected I/N, two whole numbers such as 0/4");
    }
    ShardSpec spec;
    spec.index = parseNumber(text.substr(0, slash), text);
    spec.count = parseNumber(text.substr(slash + 1), text);
    if (spec.count == 0 || spec.index >= spec.count) {
        throw std::invalid_argument("--shard " + std::string(text) +
                                    ": I must be at least 0 and below N, and N at least 1");
    }
    return spec;
}

}  // namespace strata::scan
