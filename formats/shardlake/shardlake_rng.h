// The random numbers of the Shardlake builder, reproduced so a build picks the same k-means
// seeds: a ChaCha stream cipher with 12 rounds keyed from a u64 seed through PCG32 (the
// seed_from_u64 rule), 32-bit outputs in keystream order, bounded integers by widening multiply
// with rejection, and Fisher–Yates shuffles that walk from the end of the slice.
#pragma once

#include <array>
#include <cstdint>
#include <span>

namespace strata::shardlake {

class ChaCha12Rng {
public:
    explicit ChaCha12Rng(std::uint64_t seed);

    std::uint32_t nextU32();
    // Uniform in [0, bound); bound > 0.
    std::uint32_t belowU32(std::uint32_t bound);
    // Uniform index in [0, bound): 32-bit draws while bound fits in 32 bits.
    std::uint64_t index(std::uint64_t bound);

private:
    std::uint64_t nextU64();
    void refill();

    std::array<std::uint32_t, 16> state_{};
    std::array<std::uint32_t, 16> block_{};
    std::size_t used_ = 16;
};

// Fisher–Yates from the last element down.
void shuffle(std::span<std::uint64_t> items, ChaCha12Rng& rng);
// Shuffles only the last `amount` positions into a random sample (the tail of `items`) and
// returns that tail.
std::span<std::uint64_t> partialShuffle(std::span<std::uint64_t> items, std::size_t amount,
                                        ChaCha12Rng& rng);

}  // namespace strata::shardlake
