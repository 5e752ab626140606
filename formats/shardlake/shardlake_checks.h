// Internal to the Shardlake validator: the reporter that caps repeated codes, and the checks of
// one index, one dataset, one alias and the single binary artifacts.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "formats/common/checksums.h"
#include "formats/common/validator.h"
#include "shardlake_binary.h"
#include "shardlake_dataset.h"
#include "shardlake_manifest.h"
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
    // Diagnostics capped off another thread's work (see DeferredSink).
    void countDropped(const std::string& code, std::size_t count, Severity worst) {
        capped_.countDropped(code, count, worst);
    }
    bool cancelled() const { return options_.cancelled(); }
    const ValidationOptions& options() const { return options_; }

private:
    CappedSink capped_;
    const ValidationOptions& options_;
};

// Diagnostics of work done off the reporting thread (one shard), in order and capped per code
// as the Reporter caps them, replayed into the Reporter later so the report reads the same.
class DeferredSink final : public DiagnosticSink {
public:
    explicit DeferredSink(std::size_t maxPerCode) : maxPerCode_(maxPerCode) {}
    void replayInto(Reporter& reporter);
    void replayInto(DeferredSink& other);
    // Regions in `from` (a file mapped for one scan) moved to `to`, the store's source of the
    // same file, which outlives the mapping: same bytes, same offsets.
    void rebase(const ByteSource* from, const ByteSource* to);

protected:
    void accept(Diagnostic diagnostic) override;

private:
    struct Dropped {
        std::size_t count = 0;
        Severity worst = Severity::Info;
    };
    std::size_t maxPerCode_;
    std::vector<Diagnostic> kept_;
    std::map<std::string, std::size_t> counts_;
    std::map<std::string, Dropped> dropped_;
};

// Ids seen across the shards of one index: (id, where) pairs sorted at the end.
class IdCollector {
public:
    // Collection stops (and says so) past this many ids.
    static constexpr std::size_t kLimit = std::size_t{1} << 27;

    void add(std::uint64_t id, Region where);
    // Adds the ids another collector saw, after this one's, as if added here.
    void append(IdCollector&& other);
    // Reports SL-DUPLICATE-ID for every id seen more than once.
    void reportDuplicates(Reporter& reporter, const char* scope);
    // As DeferredSink::rebase.
    void rebase(const ByteSource* from, const ByteSource* to);

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
// With `hash`, the whole file is also hashed (FNV-1a) in the same pass.
void checkShardContent(const ByteSource& source, const ShardLayout& layout, Reporter& reporter,
                       IdCollector* ids, Fnv1a64* hash = nullptr);
void checkCoarseContent(const ByteSource& source, const CoarseLayout& layout, Reporter& reporter);
void checkCodebookContent(const ByteSource& source, const CodebookLayout& layout,
                          Reporter& reporter);

// One raw record as the matcher keeps it: its id and a CRC-64 of its vector's bytes, so no
// pointer into the shard's file outlives the pass that read it (files are not kept mapped) and
// memory stays 16 bytes a record whatever the dims. A CRC-64 tells apart any two vectors that
// differ within 8 consecutive bytes (a value or two changed) always, others but for a 2^-64
// chance.
struct RecordDigest {
    std::uint64_t id = 0;
    std::uint64_t vector = 0;
};

// The digests of `count` records of recordSize bytes (an 8-byte id, then the f32 values) from
// `offset` on, read a few MiB at a time; fewer when the source ends early or `cancel` fires.
std::vector<RecordDigest> digestRecords(const ByteSource& source, std::uint64_t offset,
                                        std::uint64_t count, std::uint64_t recordSize,
                                        const CancelToken* cancel);

// The raw records of one index, compared with its dataset's vectors while the dataset is
// scanned (the dataset is not kept in memory): each record is found equal, found different, or
// not found. The comparison only counts when the dataset is usable: every line parsed, ids
// unique, every vector of the index's dims, and no more values than kMaxValues.
class RecordMatcher {
public:
    static constexpr std::uint64_t kMaxValues = std::uint64_t{1} << 25;
    enum class Verdict : std::uint8_t { Missing, Equal, Differs };

    explicit RecordMatcher(std::size_t dims) : dims_(dims) {}
    // How many records fit in the comparison (kMaxValues values of these dims).
    std::uint64_t recordLimit() const { return kMaxValues / std::max<std::size_t>(dims_, 1); }
    // The records of shard `shard` (see digestRecords), record i at records[i].
    void addShard(std::size_t shard, std::span<const RecordDigest> records);
    // A shard whose records could not be read for the comparison: nothing is compared.
    void giveUp();
    // Before the first line.
    void seal();
    // Each line of the dataset, in file order.
    void feed(const DatasetLine& line);
    // After the last line.
    void finish();
    // The dataset file is missing: nothing is compared.
    void noDataset();
    bool finished() const { return finished_; }
    // False once a line made the dataset unusable: the rest need not be read.
    bool wantsMore() const { return usable_; }

    bool usable() const { return usable_ && finished_; }
    Verdict verdict(std::size_t shard, std::uint64_t record) const;

private:
    struct Ref {
        std::uint64_t id;
        std::uint32_t shard;
        std::uint32_t record;
    };
    struct Shard {
        std::vector<std::uint64_t> vectors;  // the records' digests
        std::vector<Verdict> verdicts;
    };

    std::size_t dims_;
    std::vector<Ref> refs_;  // sorted by id after seal()
    std::map<std::size_t, Shard> shards_;
    std::vector<std::uint64_t> datasetIds_;
    std::uint64_t lines_ = 0;
    bool usable_ = true;
    bool finished_ = false;
};

// One shard checked off the reporting thread: what checkShard reports (all but the comparison
// with the dataset) and the ids it saw, to replay in manifest order.
struct ShardScan {
    const ShardEntry* entry = nullptr;
    ByteSourcePtr source;
    std::unique_ptr<DeferredSink> diagnostics;
    IdCollector ids;
    // Raw records whose header and length agree: compared with the dataset.
    std::optional<ShardLayout> comparable;
    // Their digests, read while the file was mapped for the scan; none when the index has more
    // records than a comparison takes (see PreparedIndex::digestBudget).
    std::vector<RecordDigest> records;
    bool digested = false;
};

// An index whose shards were scanned (in parallel, one pass per shard file) before the
// reporting starts, so the dataset scan can compare their records.
struct PreparedIndex {
    std::string version;
    ByteSourcePtr manifestSource;
    std::shared_ptr<JsonDoc> doc;
    std::optional<IndexManifest> manifest;  // when the manifest parsed
    std::vector<Diagnostic> manifestFindings;
    std::vector<ShardScan> shards;           // manifest order, each artifact key once
    std::shared_ptr<RecordMatcher> matcher;  // when the records are compared with a dataset
    // Records the shard scans may still digest: past RecordMatcher's limit the comparison is
    // off, and digests of a billion records would only fill memory.
    std::atomic<std::int64_t> digestBudget{0};
};

// Scans the shards of indexes/<version>; nothing is reported yet.
std::shared_ptr<PreparedIndex> prepareIndex(const Store& store, const std::string& version,
                                            const ValidationOptions& options);
// Runs the comparison of an index nobody fed: scans the manifest's vectors file on its own.
void matchOnItsOwn(const Store& store, PreparedIndex& index, const CancelToken* cancel);

// Reports everything about an index; `prepared` from prepareIndex (for this version).
void checkIndex(const Store& store, const std::string& version, Reporter& reporter,
                PreparedIndex& prepared);
// Every check of a dataset; the matchers of `indexes` built from its vectors file are fed in
// the same scan.
void checkDataset(const Store& store, const std::string& version, Reporter& reporter,
                  const std::vector<std::shared_ptr<PreparedIndex>>& indexes = {});
void checkAlias(const Store& store, const std::string& name, Reporter& reporter);
// Aliases a manifest names that have no alias file (warnings).
void checkManifestAliases(const Store& store, Reporter& reporter);

}  // namespace strata::shardlake
