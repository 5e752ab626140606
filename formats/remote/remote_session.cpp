#include "remote_session.h"

#include <algorithm>
#include <cstdlib>

#include "formats/common/thread_cancel.h"
#include "remote_byte_source.h"
#include "session_core.h"

namespace strata {

namespace {

// Unused block memory kept for the next fetches: what the read-ahead has in flight at once
// (4 requests of 4 MiB by default) and then some.
constexpr std::size_t kMaxSpareBlockBytes = 32 * 1024 * 1024;

std::string environment(const char* name) {
    const char* value = std::getenv(name);
    return value == nullptr ? std::string() : std::string(value);
}

// The options with what they leave to the environment filled in, and counters.
RemoteOptions completed(RemoteOptions options) {
    if (!options.counters) {
        options.counters = std::make_shared<RemoteCounters>();
    }
    if (options.caFile.empty()) {
        options.caFile = environment("CURL_CA_BUNDLE");
    }
    if (options.caFile.empty()) {
        options.caFile = environment("SSL_CERT_FILE");
    }
    if (options.caDir.empty()) {
        options.caDir = environment("SSL_CERT_DIR");
    }
    options.blockSize = std::max<std::size_t>(options.blockSize, 4096);
    options.parallelRequests = std::max(options.parallelRequests, 1u);
    options.listPageSize = std::clamp(options.listPageSize, 1u, 1000u);
    return options;
}

}  // namespace

SessionCore::SessionCore(const RemoteOptions& opts)
    : options(completed(opts)),
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

Location SessionCore::remember(const TypedUrl& typed) {
    std::lock_guard lock(mutex_);
    if (!typed.user.empty() || !typed.password.empty()) {
        logins_[originOf(typed.location)] = {typed.user, typed.password};
    }
    if (!typed.query.empty()) {
        queries_[typed.location.text()] = typed.query;
    }
    return typed.location;
}

RemoteTarget SessionCore::targetFor(const Location& location, bool folder) {
    RemoteTarget target;
    target.name = location.text();
    if (location.scheme() == Location::Scheme::S3) {
        if (location.bucket().empty() || location.key().empty()) {
            throw RemoteError(RemoteError::Kind::NotFound, location.text(), 0,
                              "an S3 file needs a bucket and a key (s3://bucket/key)");
        }
        target.url = s3().objectUrl(location.bucket(), location.key());
        target.aws = s3().signing;
        target.shownAs = location.text();
        return target;
    }
    if (location.scheme() == Location::Scheme::File) {
        throw RemoteError(RemoteError::Kind::Refused, location.text(), 0, "not a remote location");
    }
    target.url = requestUrlOf(location);
    if (folder && target.url.back() != '/') {
        target.url += '/';
    }
    std::lock_guard lock(mutex_);
    if (const auto login = logins_.find(originOf(location)); login != logins_.end()) {
        target.login = login->second;
    }
    // The query typed with this location or with the nearest folder above it.
    const std::string& text = location.text();
    for (auto it = queries_.upper_bound(text); it != queries_.begin();) {
        --it;
        if (text == it->first || text.starts_with(it->first + "/")) {
            target.url += "?" + it->second;
            break;
        }
    }
    return target;
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
    return openRemoteByteSource(core_, pool_, core_->targetFor(location));
}

Location RemoteSession::locate(std::string_view typed) const {
    return core_->remember(parseTypedUrl(typed));
}

RemoteSessionPtr makeRemoteSession(RemoteOptions options) {
    return std::make_shared<RemoteSession>(std::move(options));
}

}  // namespace strata
