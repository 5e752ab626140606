// Byte helpers shared by the formats/common tests.
#pragma once

#include <cstdint>
#include <random>
#include <span>
#include <string_view>
#include <vector>

namespace strata::test {

inline std::span<const std::uint8_t> bytesOf(std::string_view text) {
    return {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()};
}

inline std::vector<std::uint8_t> vectorOf(std::string_view text) {
    const auto bytes = bytesOf(text);
    return {bytes.begin(), bytes.end()};
}

// Deterministic pseudo-random bytes (incompressible).
inline std::vector<std::uint8_t> randomBytes(std::size_t size, std::uint32_t seed = 1) {
    std::mt19937 rng(seed);
    std::vector<std::uint8_t> out(size);
    for (auto& b : out) {
        b = static_cast<std::uint8_t>(rng() >> 24);
    }
    return out;
}

// Compressible text-like bytes: words from a small vocabulary.
inline std::vector<std::uint8_t> textLikeBytes(std::size_t size, std::uint32_t seed = 1) {
    static constexpr std::string_view kWords[] = {"apple ", "banana ", "cherry ", "date\n",
                                                  "elder ", "fig ",    "grape\t", "0123 "};
    std::mt19937 rng(seed);
    std::vector<std::uint8_t> out;
    out.reserve(size + 8);
    while (out.size() < size) {
        const auto word = kWords[rng() % std::size(kWords)];
        out.insert(out.end(), word.begin(), word.end());
    }
    out.resize(size);
    return out;
}

}  // namespace strata::test
