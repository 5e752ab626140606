// A 2-D principal component projection of a bounded sample of an index's vectors, for the
// scatter plot. Components come from power iteration on the centred sample (the second one
// deflated against the first), so no d × d matrix is formed. PQ records are reconstructed from
// the codebook.
#pragma once

#include <QString>

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "formats/common/validator.h"
#include "formats/shardlake/shardlake_search.h"

namespace strata::model {

class Job;
class JobRunner;

struct ShardlakePcaPoint {
    float x = 0;
    float y = 0;
    int shard = 0;  // position in the index's shards
    std::uint64_t record = 0;
    std::uint64_t id = 0;
};

struct ShardlakePcaResult {
    std::vector<ShardlakePcaPoint> points;
    // Variance of the sample along each component (descending).
    double variance[2] = {0, 0};
    std::vector<double> components[2];
    std::uint64_t population = 0;  // records the sample was drawn from
    bool cancelled = false;
    QString error;
};

inline constexpr std::size_t kDefaultPcaSample = 5000;

// Evenly spaced records of every shard, proportional to its size, at most `maxSamples` in all;
// non-finite vectors are skipped.
ShardlakePcaResult computeShardlakePca(const strata::shardlake::LoadedIndex& index,
                                       std::size_t maxSamples, const strata::CancelToken* cancel,
                                       const std::function<void(double)>& progress = {});

// Runs computeShardlakePca on the runner; `done` gets the result on the GUI thread (not when
// the job is cancelled before it finishes).
Job* startShardlakePcaJob(JobRunner& runner,
                          std::shared_ptr<const strata::shardlake::LoadedIndex> index,
                          std::size_t maxSamples,
                          std::function<void(const ShardlakePcaResult&)> done);

}  // namespace strata::model
