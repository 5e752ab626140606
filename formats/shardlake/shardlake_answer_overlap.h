// How alike two index versions answer: queries sampled from A's dataset are searched in both
// indexes and answered exactly by brute force over each index's dataset; the overlap of the
// top-k lists is recall@k (of B against A, and of each against the exact answer). This is the
// question a rebuilt index raises ("does it still find what the old one found?"), which the
// shards' bytes cannot answer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "formats/common/validator.h"
#include "shardlake_store.h"

namespace strata::shardlake {

struct AnswerOverlapOptions {
    std::size_t k = 10;
    std::size_t queries = 100;  // sampled evenly over A's dataset
    // Shards probed per query; unset: A's manifest's nprobe_default (else every shard).
    std::optional<std::size_t> nprobe;
    unsigned threads = 0;  // 0 = one per core
    const CancelToken* cancel = nullptr;
};

struct AnswerOverlap {
    std::size_t queries = 0;  // queries actually run
    std::size_t k = 0;
    std::size_t nprobe = 0;  // 0 = every shard
    double bAgainstA = 0;    // mean |top-k(B) ∩ top-k(A)| / |top-k(A)|
    double aAgainstExact = 0;
    double bAgainstExact = 0;
    bool sameDataset = true;  // both indexes point at byte-identical vectors
    // Non-empty when the comparison could not run (an index that cannot be searched, no
    // dataset vectors, a cancel); the other fields are then meaningless.
    std::string error;
};

// The key of the vectors an index version was built from (its manifest's vectors_key), or ""
// when the manifest cannot be read.
std::string indexDatasetKey(const Store& store, const std::string& version);

AnswerOverlap compareIndexAnswers(const Store& a, const std::string& versionA, const Store& b,
                                  const std::string& versionB, const AnswerOverlapOptions& options);

}  // namespace strata::shardlake
