// Scans everything under a local folder, an http(s):// listing or an s3:// prefix: each file,
// and each folder format (a ZDS dataset, an OZDF corpus, a Shardlake root: whatever the
// registry recognises in a folder with at least ScanOptions::minFolderConfidence) as one unit,
// detected and validated in parallel. Results stream out to a ScanSink as entries are
// checked; nothing grows with the number of entries (the walk keeps the listings of the folders
// it is inside, the workers a bounded queue), so a prefix of 100,000 objects scans in the
// memory of a few.
//
// For a view: the sink hears of each entry when it is listed and again when it is checked
// (ScanEntry::index ties the two), counters() can be polled from any thread while run() works,
// the options' PauseGate holds it between entries, and their CancelToken stops it (run() then
// returns JobOutcome::Cancelled).
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>

#include "formats/common/file_tree.h"
#include "formats/common/job_control.h"
#include "formats/common/pause_gate.h"
#include "formats/registry/format_registry.h"
#include "scan_result.h"
#include "scan_shard.h"

namespace strata::scan {

class ScanCache;

struct ScanOptions {
    // Entries checked at once (each is probed, opened and validated on a worker of its own).
    unsigned jobs = 4;
    // Only this part of the entries (see scan_shard.h); all of them when empty.
    std::optional<ShardSpec> shard;
    // Only entries of this format are checked and reported; the others are counted as skipped.
    std::optional<FormatId> onlyFormat;
    // Results kept between runs (scan_cache.h); null for none.
    ScanCache* cache = nullptr;
    const CancelToken* cancel = nullptr;
    // While paused, the walk lists no further folder and the workers start no further entry
    // (the entries in flight finish). Null: never paused.
    const PauseGate* pause = nullptr;
    // Diagnostics kept per entry (the counts count them all).
    std::size_t keptDiagnostics = 5;
    // Passed to each validator: enough to count, few enough to stay quick on a wreck.
    std::size_t maxPerCode = 100;
    // Worker threads of each validator: entries already run side by side.
    unsigned validatorThreads = 1;
    // A folder the registry recognises at least this surely is one unit; a weaker guess (a
    // folder that merely holds a dataset further down) is walked into instead.
    int minFolderConfidence = 50;
    // Names starting with '.' (.git, the temporary files of interrupted saves) are left out.
    bool includeHidden = false;
    // Folders deeper than this are reported as unreadable instead of walked (a link loop).
    unsigned maxDepth = 64;
};

// What the scan reports to. Calls are serialised (never two at once), from the thread that
// runs the scan and from its workers.
class ScanSink {
public:
    virtual ~ScanSink() = default;
    // An entry the walk found and will check (it is in this shard).
    virtual void listed(const ScanEntry& /*entry*/) {}
    // An entry checked, or taken from the cache. Entries skipped by format are not reported.
    virtual void checked(const ScanResult& result) = 0;
};

// Counters a progress display polls while the scan runs.
struct ScanCounters {
    std::uint64_t listed = 0;       // entries found (in this shard)
    std::uint64_t checked = 0;      // reported to the sink, cached ones included
    std::uint64_t fromCache = 0;    // of those, taken from the cache without reading
    std::uint64_t skipped = 0;      // of another format than asked for
    std::uint64_t problems = 0;     // damaged or unreadable
    std::uint64_t bytes = 0;        // size of the entries checked
    std::uint64_t otherShards = 0;  // entries left to the other shards
};

struct ScanOutcome {
    JobOutcome outcome = JobOutcome::Completed;
    // The scan root could not be looked at or listed (no such folder, no listing, refused):
    // nothing was scanned.
    bool listingFailed = false;
    std::string listingError;
};

class Scanner {
public:
    Scanner(const FormatRegistry& formats, ScanOptions options);
    ~Scanner();
    Scanner(const Scanner&) = delete;
    Scanner& operator=(const Scanner&) = delete;

    // Scans `root` in `tree` (a file is one entry). Blocks until every entry is reported or
    // the scan is cancelled; never throws for what it finds (a folder that cannot be listed
    // below the root is reported as an unreadable entry).
    ScanOutcome run(const FileTreePtr& tree, const Location& root, ScanSink& sink);

    // Thread-safe; a snapshot of the counters of the run in progress (or the last one).
    ScanCounters counters() const;

private:
    struct Run;
    const FormatRegistry& formats_;
    ScanOptions options_;
    struct AtomicCounters {
        std::atomic<std::uint64_t> listed{0}, checked{0}, fromCache{0}, skipped{0}, problems{0},
            bytes{0}, otherShards{0};
    };
    AtomicCounters counters_;
};

}  // namespace strata::scan
