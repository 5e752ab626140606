// Building an index version of a Shardlake root in the background: optionally ingesting a
// vectors JSONL as a new dataset first, then the formats layer's build (same layout, manifest
// and k-means as the reference), with progress and cancel.
#pragma once

#include <QString>

#include <functional>
#include <optional>

#include "formats/shardlake/shardlake_builder.h"

namespace strata::model {

class Job;
class JobRunner;

struct ShardlakeBuildSpec {
    // When set, ingested into build.datasetVersion before the build.
    std::optional<strata::shardlake::IngestRequest> ingest;
    strata::shardlake::BuildRequest build;
};

// `done` gets the outcome on the GUI thread (also when it failed; not when cancelled).
Job* startShardlakeBuildJob(JobRunner& runner, ShardlakeBuildSpec spec,
                            std::function<void(const strata::shardlake::BuildOutcome&)> done);

}  // namespace strata::model
