// The dataset jobs of the ZDS tools as background jobs: pack a folder into a `.zds`, unpack an
// archive, rebuild the ZDX indexes, compact, convert between JSONL and docs/ layouts.
#pragma once

#include <QString>

namespace strata::model {

class Job;
class JobRunner;

enum class ZdsDatasetJob { Pack, Unpack, Reindex, Compact, ToDocs, ToJsonl };

// The menu text of a job ("Rebuild index", ...).
QString zdsDatasetJobName(ZdsDatasetJob kind);
// Whether a job applies to a dataset that is (or is not) an archive: pack needs a folder,
// unpack an archive; the others work on both.
bool zdsDatasetJobApplies(ZdsDatasetJob kind, bool isArchive);
// Pack and Unpack need a `target` (the new archive / the new folder). `collection` limits
// reindex / compact / convert to one collection (empty: all). `deflate`: archive members the
// job writes are DEFLATE'd instead of STORE'd. When the job is done its status text says what
// it did.
Job* startZdsDatasetJob(JobRunner& runner, ZdsDatasetJob kind, const QString& dataset,
                        const QString& target = {}, const QString& collection = {},
                        bool deflate = false);

}  // namespace strata::model
