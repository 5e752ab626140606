// Settings, counters and the request log shared by every remote source of one session.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>

#include "formats/common/validator.h"  // CancelToken

namespace strata {

// One HTTP exchange, for `strata-cli -v` and logs.
struct RemoteRequestLogEntry {
    std::string method;  // GET, HEAD
    std::string url;
    std::string range;        // "bytes=0-262143", empty when none
    long status = 0;          // 0 when no response arrived
    std::uint64_t bytes = 0;  // body bytes received
    unsigned attempt = 1;     // 2+ for retries
    std::string error;        // transport error, empty on a response
};

// Totals for a status bar. Updated from many threads; read with snapshot().
struct RemoteCounters {
    std::atomic<std::uint64_t> requests{0};
    std::atomic<std::uint64_t> bytesFetched{0};
    std::atomic<std::uint64_t> cacheHits{0};    // blocks found in memory or on disk
    std::atomic<std::uint64_t> cacheMisses{0};  // blocks that had to be fetched
    std::atomic<std::uint64_t> retries{0};
    std::atomic<std::uint64_t> prefetchedBlocks{0};

    struct Snapshot {
        std::uint64_t requests = 0, bytesFetched = 0, cacheHits = 0, cacheMisses = 0, retries = 0,
                      prefetchedBlocks = 0;
    };
    Snapshot snapshot() const {
        return {requests.load(),    bytesFetched.load(), cacheHits.load(),
                cacheMisses.load(), retries.load(),      prefetchedBlocks.load()};
    }
};

struct RemoteOptions {
    // Block cache: fetched bytes are kept in blocks of blockSize, at most cacheBytes of them
    // (least recently used first out). Views pin the blocks they return beyond that bound.
    std::size_t blockSize = 256 * 1024;
    std::size_t cacheBytes = 256 * 1024 * 1024;
    // Largest single ranged GET: adjacent missing blocks are fetched together up to this.
    std::size_t maxRequestBytes = 4 * 1024 * 1024;
    // Requests in flight at once (worker threads, each with its own keep-alive connection).
    unsigned parallelRequests = 4;
    // Sequential reads prefetch up to this many bytes ahead of the reader.
    std::size_t readAheadBytes = 16 * 1024 * 1024;
    // Optional on-disk block cache kept between runs, keyed by URL + ETag/Last-Modified.
    std::filesystem::path cacheDir;

    std::chrono::milliseconds connectTimeout{10000};
    // A transfer slower than lowSpeedBytes per second for lowSpeedTime is abandoned.
    std::chrono::seconds lowSpeedTime{30};
    long lowSpeedBytes = 1;
    // Retries after a 5xx, a 429, a dropped connection, a timeout or a short body; the wait
    // doubles from retryBackoff up to retryBackoffMax.
    unsigned retries = 4;
    std::chrono::milliseconds retryBackoff{200};
    std::chrono::milliseconds retryBackoffMax{5000};
    // The longest one operation may take, its retries included: opening a file or folder (its
    // first request, and the listing that follows when it is a folder), listing a folder, or
    // one ranged read. A server that keeps trickling bytes is given up on when it is reached.
    std::chrono::seconds operationTimeout{300};
    unsigned maxRedirects = 5;
    // Redirects to another host are refused unless allowed (a signed S3 request must not leak
    // to a third party, and a file server should not send Strata elsewhere silently).
    bool allowCrossHostRedirects = false;
    bool verifyTls = true;
    // Certificates of the authorities HTTPS servers are checked against. Empty: CURL_CA_BUNDLE,
    // else SSL_CERT_FILE, else the system's; caDir: SSL_CERT_DIR when empty (resolved when the
    // session is made).
    std::filesystem::path caFile;
    std::filesystem::path caDir;

    // S3: endpoint ("http://127.0.0.1:9000"; empty = AWS_ENDPOINT_URL / the profile's
    // endpoint_url / AWS itself), credentials profile (empty = AWS_PROFILE / "default"),
    // region (empty = AWS_REGION / AWS_DEFAULT_REGION / the profile's / us-east-1), and
    // anonymous (unsigned) requests for public buckets. A configured endpoint is addressed
    // path-style (endpoint/bucket/key), AWS itself virtual-host style.
    std::string endpoint;
    std::string profile;
    std::string region;
    bool anonymous = false;
    // Keys per ListObjectsV2 page (S3 allows at most 1000).
    unsigned listPageSize = 1000;

    // Called for every request attempt, from the thread that made it.
    std::function<void(const RemoteRequestLogEntry&)> requestLog;
    // Shared totals; one is made when none is given.
    std::shared_ptr<RemoteCounters> counters;
    // Cancels every read of the session: blocked views throw RemoteError(Cancelled) promptly.
    // Must outlive the session. See also RemoteCancelScope (remote_session.h).
    const CancelToken* cancel = nullptr;
};

}  // namespace strata
