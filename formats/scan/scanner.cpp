#include "scanner.h"

#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "formats/common/thread_cancel.h"
#include "listing_memo.h"
#include "scan_cache.h"
#include "scan_check.h"
#include "work_queue.h"

namespace strata::scan {

namespace {

// What the walk's memo of a remote tree keeps at most (listed entries and stats): a few MB,
// enough for the folders around the walk's position; a bigger folder is listed again if asked.
constexpr std::size_t kWalkMemoEntries = 20'000;

struct Work {
    ScanEntry entry;
    std::optional<Probed> probed;  // a folder unit, probed by the walk
};

// A folder whose listing the walk is going through.
struct Frame {
    Location folder;
    std::string prefix;  // its path from the root, with a trailing '/' ("" for the root)
    std::vector<FileTreeEntry> entries;
    std::size_t next = 0;
    unsigned depth = 0;
};

ScanEntry entryFrom(const FileTreeEntry& listed, Location location, std::string relativePath) {
    ScanEntry entry;
    entry.location = std::move(location);
    entry.relativePath = std::move(relativePath);
    entry.isFolder = listed.isDirectory;
    entry.size = listed.size;
    entry.etag = listed.etag;
    entry.modified = listed.modified;
    return entry;
}

}  // namespace

struct Scanner::Run {
    const FormatRegistry& formats;
    const ScanOptions& options;
    AtomicCounters& counters;
    FileTreePtr tree;
    ScanSink& sink;
    CheckSettings settings;
    BoundedQueue<Work> queue;
    std::mutex sinkMutex;
    std::exception_ptr sinkFailure;  // the first exception the sink threw; stops the scan
    std::uint64_t nextIndex = 0;     // the walk's thread only
    FileTreePtr walkMemo;            // remote trees: see rememberingListings

    Run(const FormatRegistry& f, const ScanOptions& o, AtomicCounters& c, FileTreePtr t,
        ScanSink& s)
        : formats(f),
          options(o),
          counters(c),
          tree(std::move(t)),
          sink(s),
          settings{&f,      tree, o.onlyFormat, o.keptDiagnostics, o.maxPerCode, o.validatorThreads,
                   o.cancel},
          queue(std::max(1u, o.jobs) * 2),
          walkMemo(tree->remote() ? std::make_shared<ListingMemo>(tree, kWalkMemoEntries)
                                  : nullptr) {}

    void waitWhilePaused() const {
        if (options.pause != nullptr) {
            options.pause->waitWhilePaused(options.cancel);
        }
    }

    bool stopping() {
        const std::lock_guard lock(sinkMutex);
        return sinkFailure != nullptr || (options.cancel != nullptr && options.cancel->cancelled());
    }

    // Runs `report` under the sink's lock; an exception it throws stops the scan.
    template <class Report>
    void toSink(Report&& report) {
        const std::lock_guard lock(sinkMutex);
        if (sinkFailure != nullptr) {
            return;
        }
        try {
            report();
        } catch (...) {
            sinkFailure = std::current_exception();
        }
    }

    bool inShard(std::string_view relativePath) {
        if (options.shard && !options.shard->holds(relativePath)) {
            ++counters.otherShards;
            return false;
        }
        return true;
    }

    bool isUnit(const Detection& detection) const {
        return !(detection.format == kRawBinaryFormat) &&
               detection.confidence >= options.minFolderConfidence;
    }

    void emit(const ScanResult& result) {
        toSink([&] {
            ++counters.checked;
            counters.fromCache += result.fromCache ? 1 : 0;
            counters.problems += isProblem(result.verdict) ? 1 : 0;
            counters.bytes += result.entry.size;
            sink.checked(result);
        });
    }

    // --- the walk (the thread that called run()) ---

    void enqueue(ScanEntry entry, std::optional<Probed> probed = std::nullopt) {
        entry.index = nextIndex++;
        toSink([&] {
            ++counters.listed;
            sink.listed(entry);
        });
        queue.push({std::move(entry), std::move(probed)});
    }

    void reportUnreadable(ScanEntry entry, const std::string& why) {
        entry.index = nextIndex++;
        toSink([&] {
            ++counters.listed;
            sink.listed(entry);
        });
        ScanResult result;
        result.entry = std::move(entry);
        result.verdict = Verdict::Unreadable;
        result.problem = why;
        emit(result);
    }

    // What folders are looked at through: on a remote tree, one memo of listings and stats for
    // the whole walk (bounded), so that probing a folder (which looks into its subfolders too)
    // and then walking it, or checking it as a unit, ask the server once for each.
    FileTreePtr rememberingListings() const { return walkMemo ? walkMemo : tree; }

    // A folder below the root: one unit when the registry recognises it, else walked into.
    void visitFolder(std::vector<Frame>& stack, ScanEntry entry, unsigned depth) {
        if (depth > options.maxDepth) {
            if (inShard(entry.relativePath)) {
                reportUnreadable(std::move(entry), "more than " + std::to_string(options.maxDepth) +
                                                       " folders deep (a link loop?)");
            }
            return;
        }
        try {
            const FileTreePtr seen = rememberingListings();
            ProbeInput input = ProbeInput::fromTree(seen, entry.location);
            const Detection detection = formats.detect(input);
            if (isUnit(detection)) {
                if (inShard(entry.relativePath)) {
                    enqueue(std::move(entry), Probed{std::move(input), detection});
                }
                return;
            }
            std::vector<FileTreeEntry> children = seen->list(entry.location);
            stack.push_back(
                {entry.location, entry.relativePath + "/", std::move(children), 0, depth});
        } catch (const SourceError& e) {
            if (inShard(entry.relativePath)) {
                reportUnreadable(std::move(entry), e.what());
            }
        }
    }

    void visit(std::vector<Frame>& stack) {
        Frame& frame = stack.back();
        FileTreeEntry listed = std::move(frame.entries[frame.next++]);
        if (listed.name.empty() || listed.name == "." ||
            (!options.includeHidden && listed.name.starts_with('.'))) {
            return;  // "" and "." (a hostile listing) would be the folder itself
        }
        std::string relativePath = frame.prefix + listed.name;
        const unsigned depth = frame.depth + 1;
        Location location;
        try {
            location = frame.folder.child(listed.name);
        } catch (const std::invalid_argument&) {
            // A listed name that would leave its folder ("..", a backslash): never followed.
            if (inShard(relativePath)) {
                reportUnreadable(
                    entryFrom(listed, Location::parse(frame.folder.text() + "/" + listed.name),
                              relativePath),
                    "the listing names \"" + listed.name + "\", which is not a plain name");
            }
            return;
        }
        ScanEntry entry = entryFrom(listed, std::move(location), std::move(relativePath));
        if (listed.isDirectory) {
            visitFolder(stack, std::move(entry), depth);  // may grow `stack`: `frame` dangles
        } else if (inShard(entry.relativePath)) {
            enqueue(std::move(entry));
        }
    }

    void walk(std::vector<FileTreeEntry> rootEntries, const Location& root) {
        std::vector<Frame> stack;
        stack.push_back({root, "", std::move(rootEntries), 0, 0});
        while (!stack.empty()) {
            waitWhilePaused();
            if (stopping()) {
                break;
            }
            if (stack.back().next == stack.back().entries.size()) {
                stack.pop_back();
            } else {
                visit(stack);
            }
        }
    }

    // The root: a file, a folder unit, or a folder to walk. Fails the scan when it cannot be
    // looked at.
    ScanOutcome start(const Location& root) {
        ScanOutcome outcome;
        try {
            const std::optional<FileTreeEntry> top = tree->stat(root);
            if (!top) {
                throw SourceError(root.text() + ": no such file or folder");
            }
            ScanEntry entry = entryFrom(*top, root, root.fileName());
            if (!top->isDirectory) {
                enqueue(std::move(entry));
                return outcome;
            }
            const FileTreePtr seen = rememberingListings();
            ProbeInput input = ProbeInput::fromTree(seen, root);
            const Detection detection = formats.detect(input);
            if (isUnit(detection)) {
                enqueue(std::move(entry), Probed{std::move(input), detection});
                return outcome;
            }
            std::vector<FileTreeEntry> entries = seen->list(root);
            walk(std::move(entries), root);
        } catch (const SourceError& e) {
            outcome.listingFailed = true;
            outcome.listingError = e.what();
        }
        return outcome;
    }

    // --- the workers ---

    void check(Work& work) {
        // A remote folder unit's probe, fingerprint, open and validator share their listings:
        // the walk probed it through a memo, which goes on with its check.
        CheckSettings unitSettings = settings;
        if (work.entry.isFolder && work.probed && work.probed->input.tree) {
            unitSettings.tree = work.probed->input.tree;
        }
        if (work.entry.isFolder) {
            describeFolderUnit(*unitSettings.tree, work.entry, options.maxDepth, options.cancel);
        }
        if (options.cache != nullptr) {
            if (std::optional<ScanResult> hit = options.cache->find(work.entry)) {
                if (!options.onlyFormat || hit->format == formatName(*options.onlyFormat)) {
                    emit(*hit);
                } else {
                    ++counters.skipped;
                }
                return;
            }
        }
        ScanResult result;
        switch (checkEntry(unitSettings, work.entry, std::move(work.probed), result)) {
            case CheckStatus::Skipped:
                ++counters.skipped;
                return;
            case CheckStatus::Cancelled:
                return;
            case CheckStatus::Done:
                break;
        }
        if (options.cache != nullptr) {
            options.cache->store(result);
        }
        emit(result);
    }

    void work() {
        while (std::optional<Work> item = queue.pop()) {
            waitWhilePaused();
            if (stopping()) {
                continue;  // drain, so the walk never waits on a full queue
            }
            try {
                check(*item);
            } catch (const JobCancelled&) {
            } catch (const SourceError& e) {
                // A folder unit whose files could not be listed.
                ScanResult result;
                result.entry = std::move(item->entry);
                result.verdict = Verdict::Unreadable;
                result.problem = e.what();
                emit(result);
            } catch (...) {
                // The cache could not be written: stop the scan and let run() say why.
                const std::exception_ptr failure = std::current_exception();
                toSink([&] { std::rethrow_exception(failure); });
            }
        }
    }
};

Scanner::Scanner(const FormatRegistry& formats, ScanOptions options)
    : formats_(formats), options_(std::move(options)) {}

Scanner::~Scanner() = default;

ScanOutcome Scanner::run(const FileTreePtr& tree, const Location& root, ScanSink& sink) {
    for (auto* counter :
         {&counters_.listed, &counters_.checked, &counters_.fromCache, &counters_.skipped,
          &counters_.problems, &counters_.bytes, &counters_.otherShards}) {
        counter->store(0);
    }
    Run run(formats_, options_, counters_, tree, sink);
    std::vector<std::thread> workers;
    for (unsigned i = 0; i < std::max(1u, options_.jobs); ++i) {
        workers.push_back(startThreadInheritingCancel([&run] { run.work(); }));
    }
    ScanOutcome outcome = run.start(root);
    run.queue.close();
    for (std::thread& worker : workers) {
        worker.join();
    }
    if (run.sinkFailure != nullptr) {
        std::rethrow_exception(run.sinkFailure);
    }
    if (options_.cancel != nullptr && options_.cancel->cancelled()) {
        outcome.outcome = JobOutcome::Cancelled;
    }
    return outcome;
}

ScanCounters Scanner::counters() const {
    return {counters_.listed.load(),     counters_.checked.load(),  counters_.fromCache.load(),
            counters_.skipped.load(),    counters_.problems.load(), counters_.bytes.load(),
            counters_.otherShards.load()};
}

}  // namespace strata::scan
