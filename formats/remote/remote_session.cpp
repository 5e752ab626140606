#include "remote_session.h"

#include <algorithm>

#include "formats/common/thread_cancel.h"
#include "remote_byte_source.h"
#include "session_core.h"

namespace strata {

namespace {

// Unused block memory kept for the next fetches: what the read-ahead has in flight at once
// (4 requests of 4 MiB by default) and then some.
constexpr std::size_t kMaxSpareBlockBytes = 32 * 1024 * 1024;

RemoteOptions withCounters(RemoteOptions options) {
    if (!options.counters) {
        options.counters = std::make_shared<RemoteCounters>();
    }
    options.blockSize = std::max<std::size_t>(options.blockSize, 4096);
    options.parallelRequests = std::max(options.parallelRequests, 1u);
    options.listPageSize = std::clamp(options.listPageSize, 1u, 1000u);
    return options;
}

}  // namespace

SessionCore::SessionCore(const RemoteOptions& opts)
    : options(withCounters(opts)),
      counters(options.counters),
      client(options, counters),
      cache(options.cacheBytes),
      buffers(std::make_shared<BlockBuffers>(
          std::min<std::size_t>(options.cacheBytes, kMaxSpareBlockBytes))) {
    if (!options.cacheDir.empty()) {
        disk = std::make_unique<DiskCache>(options.cacheDir);
    }
}

std::uint64_t SessionCore::objectId(const std::string& identity) {
    std::lock_guard lock(mutex_);
    const auto [it, added] = ids_.try_emplace(identity, nextId_);
    if (added) {
        ++nextId_;
    }
    return it->second;
}

std::uint64_t SessionCore::uniqueObjectId() {
    std::lock_guard lock(mutex_);
    return nextId_++;
}

const S3Settings& SessionCore::s3() {
    std::lock_guard lock(mutex_);
    if (!s3_) {
        s3_ = resolveS3Settings(options);
    }
    return *s3_;
}

bool SessionCore::cancelledForThisThread() const {
    return (options.cancel != nullptr && options.cancel->cancelled()) ||
           (threadCancelToken() != nullptr && threadCancelToken()->cancelled());
}

FetchPool::FetchPool(unsigned threads) {
    for (unsigned i = 0; i < std::max(threads, 1u); ++i) {
        workers_.emplace_back([this] { work(); });
    }
}

FetchPool::~FetchPool() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
        demand_.clear();
        prefetch_.clear();
    }
    wake_.notify_all();
    for (std::thread& worker : workers_) {
        worker.join();
    }
}

void FetchPool::submit(Task task, bool demand) {
    {
        std::lock_guard lock(mutex_);
        (demand ? demand_ : prefetch_).push_back(std::move(task));
    }
    wake_.notify_one();
}

void FetchPool::work() {
    while (true) {
        Task task;
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [this] { return stop_ || !demand_.empty() || !prefetch_.empty(); });
            if (stop_) {
                return;
            }
            auto& queue = demand_.empty() ? prefetch_ : demand_;
            task = std::move(queue.front());
            queue.pop_front();
        }
        task(stop_);
    }
}

RemoteSession::RemoteSession(RemoteOptions options)
    : core_(std::make_shared<SessionCore>(options)),
      pool_(std::make_shared<FetchPool>(core_->options.parallelRequests)) {}

RemoteSession::~RemoteSession() = default;

const RemoteOptions& RemoteSession::options() const {
    return core_->options;
}

RemoteCounters::Snapshot RemoteSession::counters() const {
    return core_->counters->snapshot();
}

std::size_t RemoteSession::cachedBytes() const {
    return core_->cache.bytes();
}

ByteSourcePtr RemoteSession::open(const Location& location) const {
    RemoteTarget target;
    target.name = location.text();
    switch (location.scheme()) {
        case Location::Scheme::Http:
        case Location::Scheme::Https:
            target.url = location.text();
            break;
        case Location::Scheme::S3: {
            const S3Settings& s3 = core_->s3();
            if (location.bucket().empty() || location.key().empty()) {
                throw RemoteError(RemoteError::Kind::NotFound, location.text(), 0,
                                  "an S3 file needs a bucket and a key (s3://bucket/key)");
            }
            target.url = s3.objectUrl(location.bucket(), location.key());
            target.aws = s3.signing;
            break;
        }
        case Location::Scheme::File:
            throw RemoteError(RemoteError::Kind::Refused, location.text(), 0,
                              "not a remote location");
    }
    return openRemoteByteSource(core_, pool_, target);
}

RemoteSessionPtr makeRemoteSession(RemoteOptions options) {
    return std::make_shared<RemoteSession>(std::move(options));
}

}  // namespace strata
