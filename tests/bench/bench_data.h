// Inputs shared by the benchmarks: 1 MiB blocks that look like real payloads.
#pragma once

#include <cstdint>
#include <random>
#include <string_view>
#include <vector>

namespace strata::bench {

inline constexpr std::size_t kBlockSize = 1024 * 1024;

// Sorted-ngram-like text: compresses roughly as well as ZS record data does.
inline const std::vector<std::uint8_t>& textBlock() {
    static const std::vector<std::uint8_t> block = [] {
        static constexpr std::string_view kWords[] = {"the ",    "of ",     "and ",    "strata ",
                                                      "block ",  "zs ",     "index\t", "42\n",
                                                      "record ", "tensor ", "7\n",     "shard "};
        std::mt19937 rng(1);
        std::vector<std::uint8_t> out;
        out.reserve(kBlockSize + 16);
        while (out.size() < kBlockSize) {
            const auto word = kWords[rng() % std::size(kWords)];
            out.insert(out.end(), word.begin(), word.end());
        }
        out.resize(kBlockSize);
        return out;
    }();
    return block;
}

inline const std::vector<std::uint8_t>& randomBlock() {
    static const std::vector<std::uint8_t> block = [] {
        std::mt19937_64 rng(2);
        std::vector<std::uint8_t> out(kBlockSize);
        for (auto& b : out) {
            b = static_cast<std::uint8_t>(rng());
        }
        return out;
    }();
    return block;
}

}  // namespace strata::bench
