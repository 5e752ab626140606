#include "shardlake_rng.h"

#include <bit>
#include <utility>

namespace strata::shardlake {

namespace {

__extension__ typedef unsigned __int128 U128;

std::uint32_t pcg32(std::uint64_t& state) {
    constexpr std::uint64_t kMultiplier = 6364136223846793005ull;
    constexpr std::uint64_t kIncrement = 11634580027462260723ull;
    state = state * kMultiplier + kIncrement;
    const auto xorshifted = static_cast<std::uint32_t>(((state >> 18) ^ state) >> 27);
    const auto rotation = static_cast<int>(state >> 59);
    return std::rotr(xorshifted, rotation);
}

void quarterRound(std::array<std::uint32_t, 16>& x, int a, int b, int c, int d) {
    x[a] += x[b];
    x[d] = std::rotl(x[d] ^ x[a], 16);
    x[c] += x[d];
    x[b] = std::rotl(x[b] ^ x[c], 12);
    x[a] += x[b];
    x[d] = std::rotl(x[d] ^ x[a], 8);
    x[c] += x[d];
    x[b] = std::rotl(x[b] ^ x[c], 7);
}

}  // namespace

ChaCha12Rng::ChaCha12Rng(std::uint64_t seed) {
    state_[0] = 0x61707865;
    state_[1] = 0x3320646e;
    state_[2] = 0x79622d32;
    state_[3] = 0x6b206574;
    for (int i = 0; i < 8; ++i) {
        state_[4 + i] = pcg32(seed);
    }
    // Words 12-13: 64-bit block counter; 14-15: stream id 0.
}

void ChaCha12Rng::refill() {
    std::array<std::uint32_t, 16> x = state_;
    for (int round = 0; round < 6; ++round) {
        quarterRound(x, 0, 4, 8, 12);
        quarterRound(x, 1, 5, 9, 13);
        quarterRound(x, 2, 6, 10, 14);
        quarterRound(x, 3, 7, 11, 15);
        quarterRound(x, 0, 5, 10, 15);
        quarterRound(x, 1, 6, 11, 12);
        quarterRound(x, 2, 7, 8, 13);
        quarterRound(x, 3, 4, 9, 14);
    }
    for (std::size_t i = 0; i < 16; ++i) {
        block_[i] = x[i] + state_[i];
    }
    if (++state_[12] == 0) {
        ++state_[13];
    }
    used_ = 0;
}

std::uint32_t ChaCha12Rng::nextU32() {
    if (used_ >= block_.size()) {
        refill();
    }
    return block_[used_++];
}

std::uint64_t ChaCha12Rng::nextU64() {
    const std::uint64_t low = nextU32();
    const std::uint64_t high = nextU32();
    return (high << 32) | low;
}

std::uint32_t ChaCha12Rng::belowU32(std::uint32_t bound) {
    // Accept zone: the largest multiple-of-bound prefix, approximated by shifting the bound up.
    const std::uint32_t zone = (bound << std::countl_zero(bound)) - 1u;
    for (;;) {
        const std::uint64_t product = std::uint64_t{nextU32()} * bound;
        if (static_cast<std::uint32_t>(product) <= zone) {
            return static_cast<std::uint32_t>(product >> 32);
        }
    }
}

std::uint64_t ChaCha12Rng::index(std::uint64_t bound) {
    if (bound <= 0xffffffffull) {
        return belowU32(static_cast<std::uint32_t>(bound));
    }
    const std::uint64_t zone = (bound << std::countl_zero(bound)) - 1u;
    for (;;) {
        const U128 product = static_cast<U128>(nextU64()) * bound;  // widening multiply
        if (static_cast<std::uint64_t>(product) <= zone) {
            return static_cast<std::uint64_t>(product >> 64);
        }
    }
}

void shuffle(std::span<std::uint64_t> items, ChaCha12Rng& rng) {
    partialShuffle(items, items.size(), rng);
}

std::span<std::uint64_t> partialShuffle(std::span<std::uint64_t> items, std::size_t amount,
                                        ChaCha12Rng& rng) {
    const std::size_t end = amount >= items.size() ? 0 : items.size() - amount;
    for (std::size_t i = items.size(); i-- > std::max<std::size_t>(end, 1);) {
        std::swap(items[i], items[rng.index(i + 1)]);
    }
    return items.subspan(end);
}

}  // namespace strata::shardlake
