// What a remote session's sources and trees share, and the worker threads that fetch for them.
// Internal to formats/remote.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "block_cache.h"
#include "disk_cache.h"
#include "http_client.h"
#include "remote_byte_source.h"
#include "remote_url.h"
#include "s3_config.h"

namespace strata {

struct SessionCore {
    explicit SessionCore(const RemoteOptions& options);

    RemoteOptions options;
    std::shared_ptr<RemoteCounters> counters;
    HttpClient client;
    BlockCache cache;
    std::shared_ptr<BlockBuffers> buffers;  // memory of blocks dropped from the cache, reused
    std::unique_ptr<DiskCache> disk;        // null without options.cacheDir

    // The same identity (URL + ETag/Last-Modified + length) maps to the same cache id, so
    // reopening an unchanged object reuses its cached blocks.
    std::uint64_t objectId(const std::string& identity);
    std::uint64_t uniqueObjectId();

    // S3 settings, resolved once from the options, the environment and ~/.aws.
    const S3Settings& s3();

    // True when this thread's reads should stop: the session token or a RemoteCancelScope.
    bool cancelledForThisThread() const;

    // Keeps a typed URL's password (for its origin) and query (for its location and what lies
    // under it) for the requests made later; returns its location, which holds neither.
    Location remember(const TypedUrl& typed);
    // What a request for `location` fetches: the percent-encoded URL with the query it was
    // typed with (a folder's with a trailing '/'), the login of its origin, or the signed S3
    // object URL. Throws RemoteError(NotFound) for an s3:// location without a key.
    RemoteTarget targetFor(const Location& location, bool folder = false);

private:
    std::mutex mutex_;
    std::map<std::string, std::uint64_t> ids_;
    std::uint64_t nextId_ = 1;
    std::optional<S3Settings> s3_;
    std::map<std::string, std::pair<std::string, std::string>> logins_;  // origin -> user, password
    std::map<std::string, std::string> queries_;                         // location text -> query
};

// Worker threads running fetches, demand reads before read-ahead. A task is handed the pool's
// stop flag so a transfer in progress ends when the pool is destroyed; queued tasks are then
// dropped (their promises break, which no one waits for: waiters keep the pool alive).
class FetchPool {
public:
    using Task = std::function<void(const std::atomic<bool>& stopping)>;

    explicit FetchPool(unsigned threads);
    ~FetchPool();
    FetchPool(const FetchPool&) = delete;
    FetchPool& operator=(const FetchPool&) = delete;

    void submit(Task task, bool demand);

private:
    void work();

    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<Task> demand_, prefetch_;
    std::atomic<bool> stop_{false};
    std::vector<std::thread> workers_;
};

}  // namespace strata
