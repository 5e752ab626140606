// One HTTP exchange on libcurl with Strata's policy: only http/https, bounded redirects (same
// host unless allowed), timeouts, retries with exponential backoff, bounded bodies, cancel, and
// every attempt counted and logged. Used by the remote byte sources and trees; not a general
// HTTP library.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "remote_error.h"
#include "remote_options.h"

namespace strata {

// AWS Signature V4 for S3 requests (libcurl signs; Strata supplies the keys).
struct AwsSigning {
    std::string region;
    std::string accessKey;
    std::string secretKey;
    std::string sessionToken;  // temporary credentials
};

struct HttpRequest {
    std::string method = "GET";  // GET or HEAD
    std::string url;
    // Inclusive byte range; the response must be 206 with a matching Content-Range.
    std::optional<std::pair<std::uint64_t, std::uint64_t>> range;
    // A 200 to a range request is accepted when the whole body fits in the range (a server
    // without Range support serving a small file); otherwise it is refused unread.
    bool acceptSmallFullBody = false;
    // A 200 to a range request with a JSON Content-Type is read whole (up to maxBody), however
    // it is framed: a folder's listing answering a request for a file.
    bool acceptListing = false;
    std::vector<std::string> headers;  // "Name: value"
    std::optional<AwsSigning> aws;
    // The name its errors give the request instead of the URL fetched: an S3 object's
    // s3://bucket/key, not the endpoint's URL. Empty: the URL.
    std::string shownAs;
    // HTTP authentication (the user and password of a URL), sent to the URL's host only.
    std::optional<std::pair<std::string, std::string>> login;
    // Largest body accepted for a request without a range (listings, error documents).
    std::uint64_t maxBody = 64 * 1024 * 1024;
    // Where a 206 body goes, filling these buffers one after the other (a range request whose
    // bytes end up in blocks of a cache, received there without a copy in between). Their
    // sizes must add up to the range's length; the response's body then stays empty and
    // bodyBytes says how much arrived. Other statuses' bodies go to the body as usual.
    std::vector<std::span<std::uint8_t>> into;
};

struct ContentRange {
    std::uint64_t first = 0, last = 0;   // inclusive; meaningless when unsatisfiedLength
    std::optional<std::uint64_t> total;  // "bytes a-b/*" leaves it empty
    bool unsatisfied = false;            // "bytes */N" (416)
};

struct HttpResponse {
    long status = 0;
    std::map<std::string, std::string> headers;  // lower-case names
    std::vector<std::uint8_t> body;
    std::uint64_t bodyBytes = 0;  // received, in the body or in the request's `into` buffers
    std::string url;              // the URL that answered (after redirects)
    std::optional<ContentRange> contentRange;

    std::string header(const std::string& lowerName) const;
    std::string bodyText(std::size_t max = 300) const;
};

// Parses "bytes a-b/total", "bytes a-b/*" or "bytes */total"; nullopt when malformed.
std::optional<ContentRange> parseContentRange(const std::string& value);

// What one operation may still spend: its deadline and its retries. Requests that make up one
// operation (an open: the file's first block, then the folder's listing) share one budget.
struct RequestBudget {
    explicit RequestBudget(const RemoteOptions& options)
        : deadline(std::chrono::steady_clock::now() + options.operationTimeout),
          limit(options.operationTimeout),
          retriesLeft(options.retries) {}

    std::chrono::steady_clock::time_point deadline;
    std::chrono::seconds limit;  // for messages
    unsigned retriesLeft;
};

class HttpClient {
public:
    // `cancelled` is polled during transfers and backoff waits (session token, shutdown...).
    HttpClient(const RemoteOptions& options, std::shared_ptr<RemoteCounters> counters);
    ~HttpClient();
    HttpClient(const HttpClient&) = delete;
    HttpClient& operator=(const HttpClient&) = delete;

    // Performs the request with retries and redirects. Returns the final response for any
    // status the caller should judge (2xx, 304, 4xx other than those below); throws
    // RemoteError for transport failures after retries, 5xx/429 after retries, refused or
    // looping redirects, 401/403/404, a 200 to a range request, a short body, a malformed or
    // mismatched Content-Range, and cancellation. `extraCancel` is polled too.
    // Without a budget the request has one of its own (options().operationTimeout and
    // options().retries); the deadline ends it with RemoteError(Timeout) however the server
    // answers (a trickle of bytes included).
    HttpResponse perform(const HttpRequest& request, const std::function<bool()>& extraCancel = {},
                         RequestBudget* budget = nullptr) const;

    const RemoteOptions& options() const { return options_; }

private:
    struct Handles;
    HttpResponse performAs(const HttpRequest& request, const std::function<bool()>& extraCancel,
                           RequestBudget* budget) const;
    HttpResponse attempt(const HttpRequest& request, const std::string& url, unsigned number,
                         const std::function<bool()>& cancelled, const RequestBudget& budget) const;
    bool sleepUnlessCancelled(std::chrono::milliseconds wait,
                              const std::function<bool()>& cancelled) const;

    RemoteOptions options_;
    std::shared_ptr<RemoteCounters> counters_;
    std::unique_ptr<Handles> handles_;
};

// Percent-encodes for URLs and SigV4 canonical strings: unreserved characters stay, '/' stays
// when keepSlash, everything else becomes %XX (upper-case hex).
std::string uriEncode(std::string_view text, bool keepSlash);

}  // namespace strata
