#include "remote_byte_source.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <future>
#include <mutex>
#include <span>
#include <unordered_map>

#include "formats/common/bounds.h"
#include "json_listing.h"
#include "session_core.h"

namespace strata {

namespace {

struct Identity {
    std::string etag;
    std::string lastModified;
    std::uint64_t size = 0;
};

// Blocks [first, last] fetched by one request (or loaded from the disk cache).
struct Run {
    std::uint64_t first = 0, last = 0;
    bool unwaited = false;  // started by readyNow(): nobody waits, a failure is kept for view()
    std::promise<std::vector<Block>> promise;
    std::shared_future<std::vector<Block>> result = promise.get_future().share();
};
using RunPtr = std::shared_ptr<Run>;

class RemoteObject : public std::enable_shared_from_this<RemoteObject> {
public:
    RemoteObject(std::shared_ptr<SessionCore> core, RemoteTarget target, Identity identity,
                 std::uint64_t id, std::filesystem::path diskDir)
        : core_(std::move(core)),
          target_(std::move(target)),
          identity_(std::move(identity)),
          id_(id),
          blockSize_(core_->options.blockSize),
          diskDir_(std::move(diskDir)) {}

    const std::string& name() const { return target_.name; }
    std::uint64_t size() const { return identity_.size; }
    std::size_t blockLength(std::uint64_t index) const {
        return static_cast<std::size_t>(
            std::min<std::uint64_t>(blockSize_, identity_.size - index * blockSize_));
    }

    // Keeps blocks that arrived with the first response.
    void adopt(std::uint64_t index, Block block) { storeBlock(index, block); }

    ByteView view(std::uint64_t offset, std::uint64_t length, FetchPool& pool);
    std::size_t read(std::uint64_t offset, std::span<std::uint8_t> out, FetchPool& pool);
    bool readyNow(std::uint64_t offset, std::uint64_t length, FetchPool& pool);

private:
    // A reader moving through the file: how far it has got, how many times in a row it moved
    // forward from there, and how far blocks have been requested ahead of it.
    struct Stream {
        std::uint64_t frontier = 0;
        unsigned streak = 0;
        std::uint64_t prefetchedTo = 0;  // first block not yet requested ahead
        std::uint64_t lastUse = 0;
    };
    // Readers followed at once (a validator's threads each scanning a part of the file).
    static constexpr std::size_t kMaxStreams = 8;

    // The blocks holding [offset, offset + n), fetched (or waited for) as needed.
    std::vector<Block> blocksFor(std::uint64_t offset, std::uint64_t n, FetchPool& pool);
    Block lookup(std::uint64_t index) const;
    void storeBlock(std::uint64_t index, const Block& block) const;
    std::vector<RunPtr> makeRunsLocked(const std::vector<std::uint64_t>& blocks,
                                       std::uint64_t maxBlocksPerRun);
    std::vector<RunPtr> planReadAheadLocked(std::uint64_t offset, std::uint64_t end);
    void fetch(const RunPtr& run, const std::atomic<bool>& stopping);
    std::vector<Block> fetchBlocks(std::uint64_t first, std::uint64_t last,
                                   const std::atomic<bool>& stopping);
    void checkIdentity(const HttpResponse& response);
    [[noreturn]] void markChanged(const std::string& what, long status);
    void throwIfChanged() const;
    const std::vector<Block>& await(const RunPtr& run) const;

    std::shared_ptr<SessionCore> core_;
    RemoteTarget target_;
    Identity identity_;
    std::uint64_t id_;
    std::uint64_t blockSize_;
    std::filesystem::path diskDir_;  // empty: no disk cache for this object

    mutable std::mutex mutex_;
    std::unordered_map<std::uint64_t, RunPtr> inFlight_;
    std::optional<RemoteError> changed_;
    // Why a fetch nobody waited for failed, by block: the next view() of the block throws it
    // (once) instead of asking the server again on the caller's thread.
    std::unordered_map<std::uint64_t, std::exception_ptr> unwaitedFailures_;
    // Read-ahead, per reader; the first one starts at the beginning of the file.
    std::vector<Stream> streams_{Stream{}};
    std::uint64_t uses_ = 0;
};

Block RemoteObject::lookup(std::uint64_t index) const {
    if (Block block = core_->cache.find(id_, index)) {
        return block;
    }
    if (core_->disk && !diskDir_.empty()) {
        if (Block block = core_->disk->load(diskDir_, index, blockLength(index))) {
            core_->cache.insert(id_, index, block);
            return block;
        }
    }
    return nullptr;
}

void RemoteObject::storeBlock(std::uint64_t index, const Block& block) const {
    core_->cache.insert(id_, index, block);
    if (core_->disk && !diskDir_.empty()) {
        core_->disk->store(diskDir_, index, *block);
    }
}

void RemoteObject::throwIfChanged() const {
    std::lock_guard lock(mutex_);
    if (changed_) {
        throw *changed_;
    }
}

void RemoteObject::markChanged(const std::string& what, long status) {
    RemoteError error(RemoteError::Kind::Changed, target_.name, status,
                      "the remote file changed while it was open (" + what +
                          "); reopen it to read the new version");
    std::lock_guard lock(mutex_);
    if (!changed_) {
        changed_ = error;
    }
    throw *changed_;
}

void RemoteObject::checkIdentity(const HttpResponse& response) {
    const auto& cr = response.contentRange;
    if (!cr || !cr->total || *cr->total != identity_.size) {
        markChanged("its length was " + std::to_string(identity_.size) + " bytes, now " +
                        (cr && cr->total ? std::to_string(*cr->total) : "unknown"),
                    response.status);
    }
    if (!identity_.etag.empty()) {
        const std::string now = response.header("etag");
        if (now != identity_.etag) {
            markChanged(
                "its ETag was " + identity_.etag + ", now " + (now.empty() ? "missing" : now),
                response.status);
        }
    } else if (!identity_.lastModified.empty()) {
        const std::string now = response.header("last-modified");
        if (now != identity_.lastModified) {
            markChanged("it was last modified " + identity_.lastModified + ", now " +
                            (now.empty() ? "unknown" : now),
                        response.status);
        }
    }
}

std::vector<Block> RemoteObject::fetchBlocks(std::uint64_t first, std::uint64_t last,
                                             const std::atomic<bool>& stopping) {
    std::vector<Block> blocks;
    if (core_->disk && !diskDir_.empty()) {
        for (std::uint64_t b = first; b <= last; ++b) {
            Block block = core_->disk->load(diskDir_, b, blockLength(b));
            if (!block) {
                blocks.clear();
                break;
            }
            blocks.push_back(std::move(block));
        }
        if (!blocks.empty()) {
            for (std::uint64_t b = first; b <= last; ++b) {
                core_->cache.insert(id_, b, blocks[b - first]);
            }
            return blocks;
        }
    }
    if (identity_.etag.empty() && identity_.lastModified.empty()) {
        throw RemoteError(
            RemoteError::Kind::Unverifiable, target_.name, 0,
            "the server gives no ETag or Last-Modified for this file, so a change between two "
            "requests could not be noticed; Strata reads such a file only when it comes whole in "
            "the first answer (" +
                std::to_string(blockSize_) + " bytes; this one has " +
                std::to_string(identity_.size) + "): download it and open the local copy");
    }
    const std::uint64_t firstByte = first * blockSize_;
    const std::uint64_t lastByte = std::min((last + 1) * blockSize_, identity_.size) - 1;
    HttpRequest request;
    request.url = target_.url;
    request.range = {firstByte, lastByte};
    request.aws = target_.aws;
    request.login = target_.login;
    request.shownAs = target_.shownAs;
    if (!identity_.etag.empty() && !identity_.etag.starts_with("W/")) {
        request.headers.push_back("If-Match: " + identity_.etag);
    } else if (!identity_.lastModified.empty()) {
        request.headers.push_back("If-Unmodified-Since: " + identity_.lastModified);
    }
    // The body goes straight into the blocks it fills.
    std::vector<std::shared_ptr<std::vector<std::uint8_t>>> filling;
    for (std::uint64_t b = first; b <= last; ++b) {
        filling.push_back(core_->buffers->take(blockLength(b)));
        request.into.emplace_back(filling.back()->data(), filling.back()->size());
    }
    const HttpResponse response =
        core_->client.perform(request, [&] { return stopping.load(std::memory_order_relaxed); });
    if (response.status == 412) {
        markChanged("the server says it no longer matches " +
                        (identity_.etag.empty() ? "Last-Modified " + identity_.lastModified
                                                : "ETag " + identity_.etag) +
                        ": 412 Precondition Failed",
                    412);
    }
    if (response.status != 206) {
        throw RemoteError(RemoteError::Kind::BadResponse, target_.name, response.status,
                          "unexpected HTTP " + std::to_string(response.status) +
                              " to a request for bytes " + std::to_string(firstByte) + "-" +
                              std::to_string(lastByte));
    }
    checkIdentity(response);
    if (response.contentRange->last != lastByte) {
        throw RemoteError(RemoteError::Kind::BadResponse, target_.name, response.status,
                          "the server sent bytes " + std::to_string(firstByte) + "-" +
                              std::to_string(response.contentRange->last) + " of the " +
                              std::to_string(firstByte) + "-" + std::to_string(lastByte) +
                              " asked for");
    }
    for (std::uint64_t b = first; b <= last; ++b) {
        Block block = std::move(filling[b - first]);
        storeBlock(b, block);
        blocks.push_back(std::move(block));
    }
    return blocks;
}

void RemoteObject::fetch(const RunPtr& run, const std::atomic<bool>& stopping) {
    std::exception_ptr failure;
    try {
        run->promise.set_value(fetchBlocks(run->first, run->last, stopping));
    } catch (...) {
        failure = std::current_exception();
        run->promise.set_exception(failure);
    }
    std::lock_guard lock(mutex_);
    for (std::uint64_t b = run->first; b <= run->last; ++b) {
        const auto it = inFlight_.find(b);
        if (it != inFlight_.end() && it->second == run) {
            inFlight_.erase(it);
        }
        if (failure && run->unwaited) {
            unwaitedFailures_[b] = failure;
        }
    }
}

// Starts fetching what view() would wait for, on the workers, and says whether anything was
// missing. A block whose unwaited fetch failed counts as ready: view() then reports why.
bool RemoteObject::readyNow(std::uint64_t offset, std::uint64_t length, FetchPool& pool) {
    const std::uint64_t n = clippedLength(offset, length, identity_.size);
    if (n == 0) {
        return true;
    }
    const std::uint64_t b0 = offset / blockSize_;
    const std::uint64_t b1 = (offset + n - 1) / blockSize_;
    std::vector<std::uint64_t> missing;
    for (std::uint64_t b = b0; b <= b1; ++b) {
        if (!lookup(b)) {
            missing.push_back(b);
        }
    }
    if (missing.empty()) {
        return true;
    }
    std::vector<RunPtr> runs;
    {
        std::lock_guard lock(mutex_);
        if (changed_) {
            return true;
        }
        std::vector<std::uint64_t> fresh;
        for (const std::uint64_t b : missing) {
            if (unwaitedFailures_.contains(b)) {
                return true;
            }
            if (!inFlight_.contains(b) && !core_->cache.find(id_, b)) {
                fresh.push_back(b);
            }
        }
        const std::uint64_t maxRun =
            std::max<std::uint64_t>(1, core_->options.maxRequestBytes / blockSize_);
        runs = makeRunsLocked(fresh, maxRun);
    }
    const auto self = shared_from_this();
    for (const RunPtr& run : runs) {
        run->unwaited = true;
        pool.submit([self, run](const std::atomic<bool>& stop) { self->fetch(run, stop); }, true);
    }
    return false;
}

std::vector<RunPtr> RemoteObject::makeRunsLocked(const std::vector<std::uint64_t>& blocks,
                                                 std::uint64_t maxBlocksPerRun) {
    std::vector<RunPtr> runs;
    for (const std::uint64_t b : blocks) {
        if (runs.empty() || runs.back()->last + 1 != b ||
            runs.back()->last - runs.back()->first + 1 >= maxBlocksPerRun) {
            runs.push_back(std::make_shared<Run>());
            runs.back()->first = b;
        }
        runs.back()->last = b;
        inFlight_[b] = runs.back();
    }
    return runs;
}

// A reader whose views keep starting near the furthest point it has read so far and move it on
// is scanning: request the blocks ahead of it, the window doubling with every step forward,
// topped up in half-windows so read-ahead requests stay large. Each reader is followed on its
// own (up to kMaxStreams of them): a view near none of them starts a new one in place of the
// one unused longest.
std::vector<RunPtr> RemoteObject::planReadAheadLocked(std::uint64_t offset, std::uint64_t end) {
    const auto& o = core_->options;
    const std::uint64_t maxWindow = std::max<std::uint64_t>(
        blockSize_, std::min<std::uint64_t>(o.readAheadBytes, o.cacheBytes / 2));
    const auto windowOf = [&](const Stream& s) {
        return std::min<std::uint64_t>(maxWindow, blockSize_ << std::min(s.streak + 1, 20u));
    };
    Stream* stream = nullptr;
    for (Stream& s : streams_) {
        if (offset <= s.frontier + blockSize_ && offset + windowOf(s) >= s.frontier &&
            (stream == nullptr || s.streak > stream->streak)) {
            stream = &s;
        }
    }
    ++uses_;
    if (stream == nullptr) {
        if (streams_.size() < kMaxStreams) {
            stream = &streams_.emplace_back();
        } else {
            stream = &*std::min_element(
                streams_.begin(), streams_.end(),
                [](const Stream& a, const Stream& b) { return a.lastUse < b.lastUse; });
        }
        *stream = Stream{end, 0, 0, uses_};
        return {};
    }
    Stream& s = *stream;
    s.lastUse = uses_;
    const std::uint64_t window = windowOf(s);
    const bool advanced = end > s.frontier && end / blockSize_ != s.frontier / blockSize_;
    s.streak += advanced ? 1 : 0;
    s.frontier = std::max(s.frontier, end);
    if (s.streak < 2 || o.readAheadBytes == 0) {
        return {};
    }
    const std::uint64_t blockCount = (identity_.size + blockSize_ - 1) / blockSize_;
    const std::uint64_t next = (end + blockSize_ - 1) / blockSize_;
    const std::uint64_t windowBlocks = window / blockSize_;
    const std::uint64_t target = std::min(blockCount, next + windowBlocks);
    if (s.prefetchedTo > next + windowBlocks / 2 || target <= next) {
        return {};
    }
    std::vector<std::uint64_t> wanted;
    for (std::uint64_t b = std::max(next, s.prefetchedTo); b < target; ++b) {
        if (!inFlight_.contains(b) && !core_->cache.find(id_, b)) {
            wanted.push_back(b);
        }
    }
    s.prefetchedTo = std::max(s.prefetchedTo, target);
    const std::uint64_t perRun =
        std::clamp<std::uint64_t>(windowBlocks / std::max(1u, o.parallelRequests), 1,
                                  std::max<std::uint64_t>(1, o.maxRequestBytes / blockSize_));
    return makeRunsLocked(wanted, perRun);
}

const std::vector<Block>& RemoteObject::await(const RunPtr& run) const {
    while (run->result.wait_for(std::chrono::milliseconds(20)) != std::future_status::ready) {
        if (core_->cancelledForThisThread()) {
            throw RemoteError(RemoteError::Kind::Cancelled, target_.name, 0, "cancelled");
        }
    }
    return run->result.get();
}

std::vector<Block> RemoteObject::blocksFor(std::uint64_t offset, std::uint64_t n, FetchPool& pool) {
    if (core_->cancelledForThisThread()) {
        throw RemoteError(RemoteError::Kind::Cancelled, target_.name, 0, "cancelled");
    }
    const std::uint64_t b0 = offset / blockSize_;
    const std::uint64_t b1 = (offset + n - 1) / blockSize_;
    std::vector<Block> blocks(b1 - b0 + 1);
    std::vector<std::uint64_t> missing;
    for (std::uint64_t b = b0; b <= b1; ++b) {
        blocks[b - b0] = lookup(b);
        if (!blocks[b - b0]) {
            missing.push_back(b);
        }
    }
    core_->counters->cacheHits.fetch_add(blocks.size() - missing.size());
    core_->counters->cacheMisses.fetch_add(missing.size());

    std::vector<RunPtr> demand, ahead, waits;
    {
        std::lock_guard lock(mutex_);
        for (const std::uint64_t b : missing) {
            if (const auto it = unwaitedFailures_.find(b); it != unwaitedFailures_.end()) {
                const std::exception_ptr failure = it->second;
                unwaitedFailures_.erase(it);
                std::rethrow_exception(failure);
            }
        }
        std::vector<std::uint64_t> fresh;
        for (const std::uint64_t b : missing) {
            if (const auto it = inFlight_.find(b); it != inFlight_.end()) {
                waits.push_back(it->second);
            } else if (Block block = core_->cache.find(id_, b)) {
                blocks[b - b0] = std::move(block);  // arrived meanwhile
            } else {
                fresh.push_back(b);
            }
        }
        // Split a large read into runs that the workers fetch side by side.
        const auto& o = core_->options;
        const std::uint64_t maxRun = std::max<std::uint64_t>(1, o.maxRequestBytes / blockSize_);
        const std::uint64_t spread = (fresh.size() + std::max(1u, o.parallelRequests) - 1) /
                                     std::max(1u, o.parallelRequests);
        demand = makeRunsLocked(fresh, std::clamp<std::uint64_t>(spread, 1, maxRun));
        ahead = planReadAheadLocked(offset, offset + n);
    }
    const auto self = shared_from_this();
    for (const RunPtr& run : demand) {
        pool.submit([self, run](const std::atomic<bool>& stop) { self->fetch(run, stop); }, true);
        waits.push_back(run);
    }
    for (const RunPtr& run : ahead) {
        core_->counters->prefetchedBlocks.fetch_add(run->last - run->first + 1);
        pool.submit([self, run](const std::atomic<bool>& stop) { self->fetch(run, stop); }, false);
    }
    for (const RunPtr& run : waits) {
        const std::vector<Block>& fetched = await(run);
        for (std::uint64_t b = std::max(run->first, b0); b <= std::min(run->last, b1); ++b) {
            blocks[b - b0] = fetched[b - run->first];
        }
    }
    return blocks;
}

ByteView RemoteObject::view(std::uint64_t offset, std::uint64_t length, FetchPool& pool) {
    throwIfChanged();
    const std::uint64_t n = clippedLength(offset, length, identity_.size);
    if (n == 0) {
        return {};
    }
    const std::vector<Block> blocks = blocksFor(offset, n, pool);
    const std::size_t skip = static_cast<std::size_t>(offset % blockSize_);
    if (blocks.size() == 1) {
        return {{blocks[0]->data() + skip, static_cast<std::size_t>(n)}, blocks[0]};
    }
    auto joined = std::make_shared<std::vector<std::uint8_t>>(static_cast<std::size_t>(n));
    std::size_t at = 0;
    for (std::size_t i = 0; i < blocks.size() && at < n; ++i) {
        const std::size_t from = i == 0 ? skip : 0;
        const std::size_t take = std::min<std::size_t>(blocks[i]->size() - from, n - at);
        std::memcpy(joined->data() + at, blocks[i]->data() + from, take);
        at += take;
    }
    return {{joined->data(), joined->size()}, joined};
}

// Copies from the blocks themselves: a read across blocks costs no joined copy.
std::size_t RemoteObject::read(std::uint64_t offset, std::span<std::uint8_t> out, FetchPool& pool) {
    throwIfChanged();
    const std::uint64_t n = clippedLength(offset, out.size(), identity_.size);
    if (n == 0) {
        return 0;
    }
    const std::vector<Block> blocks = blocksFor(offset, n, pool);
    std::size_t at = 0;
    for (std::size_t i = 0; i < blocks.size() && at < n; ++i) {
        const std::size_t from = i == 0 ? static_cast<std::size_t>(offset % blockSize_) : 0;
        const std::size_t take = std::min<std::size_t>(blocks[i]->size() - from, n - at);
        std::memcpy(out.data() + at, blocks[i]->data() + from, take);
        at += take;
    }
    return at;
}

class RemoteByteSource final : public ByteSource {
public:
    RemoteByteSource(std::shared_ptr<FetchPool> pool, std::shared_ptr<RemoteObject> object)
        : pool_(std::move(pool)), object_(std::move(object)) {}

    const std::string& name() const override { return object_->name(); }
    std::uint64_t size() const override { return object_->size(); }
    ByteView view(std::uint64_t offset, std::uint64_t length) const override {
        return object_->view(offset, length, *pool_);
    }
    std::size_t read(std::uint64_t offset, std::span<std::uint8_t> out) const override {
        return object_->read(offset, out, *pool_);
    }
    bool readyNow(std::uint64_t offset, std::uint64_t length) const override {
        return object_->readyNow(offset, length, *pool_);
    }
    bool isRemote() const override { return true; }

private:
    std::shared_ptr<FetchPool> pool_;
    std::shared_ptr<RemoteObject> object_;
};

}  // namespace

HttpResponse fetchFirstBlock(SessionCore& core, const RemoteTarget& target, RequestBudget* budget) {
    const std::uint64_t blockSize = std::max<std::size_t>(core.options.blockSize, 1);
    HttpRequest request;
    request.url = target.url;
    request.range = {0, blockSize - 1};
    request.acceptSmallFullBody = true;
    request.acceptListing = true;
    request.aws = target.aws;
    request.login = target.login;
    request.shownAs = target.shownAs;
    return core.client.perform(
        request, [&] { return core.cancelledForThisThread(); }, budget);
}

bool answersAsFolder(const HttpResponse& firstBlock) {
    const std::string path = firstBlock.url.substr(0, firstBlock.url.find('?'));
    if (!path.empty() && path.back() == '/') {
        return true;
    }
    if (firstBlock.status != 200 ||
        firstBlock.header("content-type").find("json") == std::string::npos) {
        return false;
    }
    const auto entries = parseJsonListing(firstBlock.body);
    return entries && !entries->empty();
}

namespace {

// The object's length, from a 206's Content-Range, a whole small body or a 416 for an empty one.
std::uint64_t sizeFromFirstBlock(const RemoteTarget& target, const HttpResponse& response,
                                 std::uint64_t blockSize) {
    if (response.status == 206) {
        if (!response.contentRange->total) {
            throw RemoteError(RemoteError::Kind::BadResponse, target.name, 206,
                              "the server does not say how long the file is (Content-Range \"" +
                                  response.header("content-range") + "\")");
        }
        return *response.contentRange->total;
    }
    if (response.status == 200) {
        if (response.body.size() > blockSize) {  // a JSON body read whole but not a listing
            throw RemoteError(RemoteError::Kind::NoRangeSupport, target.name, 200,
                              "the server does not support Range requests: it answered a request "
                              "for the first " +
                                  std::to_string(blockSize) + " bytes with 200 OK and " +
                                  std::to_string(response.body.size()) + " bytes");
        }
        return response.body.size();  // a whole small file; admitted by its length
    }
    if (response.status == 416) {
        const auto cr = parseContentRange(response.header("content-range"));
        if (!cr || !cr->unsatisfied || cr->total != 0u) {
            throw RemoteError(RemoteError::Kind::BadResponse, target.name, 416,
                              "416 Range Not Satisfiable for the first " +
                                  std::to_string(blockSize) + " bytes, with Content-Range \"" +
                                  response.header("content-range") + "\"");
        }
        return 0;
    }
    throw RemoteError(RemoteError::Kind::BadResponse, target.name, response.status,
                      "unexpected HTTP " + std::to_string(response.status) +
                          " to a Range request (" + response.bodyText(200) + ")");
}

}  // namespace

ByteSourcePtr sourceFromFirstBlock(const std::shared_ptr<SessionCore>& core,
                                   const std::shared_ptr<FetchPool>& pool,
                                   const RemoteTarget& target, HttpResponse response) {
    const std::uint64_t blockSize = std::max<std::size_t>(core->options.blockSize, 1);
    Identity identity;
    identity.size = sizeFromFirstBlock(target, response, blockSize);
    const std::uint64_t firstBlock = std::min<std::uint64_t>(blockSize, identity.size);
    if (response.body.size() != firstBlock) {
        throw RemoteError(RemoteError::Kind::BadResponse, target.name, response.status,
                          "the server sent " + std::to_string(response.body.size()) +
                              " bytes where the first " + std::to_string(firstBlock) + " of a " +
                              std::to_string(identity.size) + "-byte file were asked for");
    }
    identity.etag = response.header("etag");
    identity.lastModified = response.header("last-modified");
    const bool pinned = !identity.etag.empty() || !identity.lastModified.empty();
    const std::string key = response.url + "\n" + identity.etag + "\n" + identity.lastModified +
                            "\n" + std::to_string(identity.size) + "\n" + std::to_string(blockSize);
    RemoteTarget pinnedTarget = target;
    pinnedTarget.url = response.url;  // later ranges skip the redirects
    auto object = std::make_shared<RemoteObject>(
        core, std::move(pinnedTarget), identity,
        pinned ? core->objectId(key) : core->uniqueObjectId(),
        pinned && core->disk ? core->disk->objectDir(key) : std::filesystem::path());
    if (identity.size > 0) {
        object->adopt(0,
                      std::make_shared<const std::vector<std::uint8_t>>(std::move(response.body)));
    }
    return std::make_shared<RemoteByteSource>(pool, std::move(object));
}

ByteSourcePtr openRemoteByteSource(const std::shared_ptr<SessionCore>& core,
                                   const std::shared_ptr<FetchPool>& pool,
                                   const RemoteTarget& target) {
    HttpResponse response = fetchFirstBlock(*core, target);
    if (answersAsFolder(response)) {
        throw RemoteError(RemoteError::Kind::NotAFile, target.name, response.status,
                          "this is a folder (the server answered with its listing), not a file");
    }
    return sourceFromFirstBlock(core, pool, target, std::move(response));
}

}  // namespace strata
