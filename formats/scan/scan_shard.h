// Splitting one scan over N machines (`--shard I/N`): each entry belongs to exactly one shard,
// chosen from a hash of its path relative to the scan root, so every machine of a batch job
// (a Kubernetes indexed Job, a Slurm array) agrees without talking to the others, and the
// union of the N outputs is the full scan.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace strata::scan {

// FNV-1a 64 of the bytes, then a splitmix64 finaliser so that the low bits (what `% count`
// keeps) depend on every byte. Fixed arithmetic: the same on every machine, compiler and run,
// unlike std::hash.
std::uint64_t stableHash(std::string_view text);

struct ShardSpec {
    unsigned index = 0;  // 0 .. count-1
    unsigned count = 1;

    bool holds(std::string_view relativePath) const {
        return count <= 1 || stableHash(relativePath) % count == index;
    }
    std::string text() const { return std::to_string(index) + "/" + std::to_string(count); }
};

// "I/N" with 0 <= I < N; throws std::invalid_argument saying what is wrong otherwise.
ShardSpec parseShardSpec(std::string_view text);

}  // namespace strata::scan
