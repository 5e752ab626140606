// Internal to the Shardlake validator: the reporter that caps repeated codes, and the checks of
// one index, one dataset, one alias and the single binary artifacts.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "formats/common/validator.h"
#include "shardlake_binary.h"
#include "shardlake_store.h"

namespace strata::shardlake {

class Reporter {
public:
    Reporter(DiagnosticSink& sink, const ValidationOptions& options)
        : capped_(sink, options.maxPerCode), options_(options) {}

    void report(Diagnostic diagnostic);
    void reportAll(std::vector<Diagnostic> diagnostics);
    void reportProblems(const std::vector<BinaryProblem>& problems);
    // One summary per code that hit the cap.
    void finish() { capped_.finish(); }
    bool cancelled() const { return options_.cancelled(); }
    const ValidationOptions& options() const { return options_; }

private:
    CappedSink capped_;
    const ValidationOptions& options_;
};

// Ids seen across the shards of one index: (id, where) pairs sorted at the end.
class IdCollector {
public:
    // Collection stops (and says so) past this many ids.
    static constexpr std::size_t kLimit = std::size_t{1} << 27;

    void add(std::uint64_t id, Region where);
    // Reports SL-DUPLICATE-ID for every id seen more than once.
    void reportDuplicates(Reporter& reporter, const char* scope);

private:
    struct Seen {
        std::uint64_t id;
        std::uint64_t offset;
        const ByteSource* source;
    };
    std::vector<Seen> seen_;
    bool overflowed_ = false;
};

// FNV-1a 64 over the whole source, in bounded pieces.
std::uint64_t fingerprintOf(const ByteSource& source, const CancelToken* cancel);
std::string hex16(std::uint64_t value);

// Records and centroids of a shard whose header parsed: non-finite values, PQ codes >= pq_k,
// ids (into `ids` when given).
void checkShardContent(const ByteSource& source, const ShardLayout& layout, Reporter& reporter,
                       IdCollector* ids);
void checkCoarseContent(const ByteSource& source, const CoarseLayout& layout, Reporter& reporter);
void checkCodebookContent(const ByteSource& source, const CodebookLayout& layout,
                          Reporter& reporter);

// The vectors of a dataset by id, to compare raw shard records with.
struct DatasetVectors {
    // Larger datasets are not loaded (and not compared): 128 MiB of values.
    static constexpr std::uint64_t kMaxValues = std::uint64_t{1} << 25;
    std::unordered_map<std::uint64_t, std::size_t> row;  // id → offset in `values`
    std::vector<float> values;
    std::size_t dims = 0;
    // False when the file is missing, damaged (its own check reports that), too large, has
    // repeated ids, or its dims differ from the index's.
    bool usable = false;
};

// Datasets loaded during one validation run, so indexes built from one dataset share it.
class DatasetCache {
public:
    std::shared_ptr<const DatasetVectors> load(const Store& store, const std::string& key,
                                               std::size_t dims, const CancelToken* cancel);
    void remember(const std::string& key, std::shared_ptr<const DatasetVectors> vectors) {
        cache_[key] = std::move(vectors);
    }

private:
    std::map<std::string, std::shared_ptr<const DatasetVectors>> cache_;
};

// `datasets` null: shards are not compared with the dataset.
void checkIndex(const Store& store, const std::string& version, Reporter& reporter,
                DatasetCache* datasets);
// With `datasets`, the vectors read during the scan are kept for the index checks.
void checkDataset(const Store& store, const std::string& version, Reporter& reporter,
                  DatasetCache* datasets);
void checkAlias(const Store& store, const std::string& name, Reporter& reporter);
// Aliases a manifest names that have no alias file (warnings).
void checkManifestAliases(const Store& store, Reporter& reporter);

}  // namespace strata::shardlake
