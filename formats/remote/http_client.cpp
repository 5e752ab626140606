#include "http_client.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstring>
#include <mutex>
#include <set>
#include <thread>

#include "curl_library.h"

namespace strata {

namespace {

constexpr std::size_t kErrorBodyKeep = 64 * 1024;
// A ranged body is received into room reserved for the whole range up to this much (growing
// the vector as it arrives copied most bytes two or three times over).
constexpr std::uint64_t kReserveAtMost = 16 * 1024 * 1024;

std::string lower(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

std::string trim(std::string_view text) {
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
        text.remove_prefix(1);
    }
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
        text.remove_suffix(1);
    }
    return std::string(text);
}

std::optional<std::uint64_t> parseNumber(std::string_view text) {
    std::uint64_t value = 0;
    if (text.empty()) {
        return std::nullopt;
    }
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size()) {
        return std::nullopt;
    }
    return value;
}

std::string statusText(long status) {
    switch (status) {
        case 200:
            return "200 OK";
        case 206:
            return "206 Partial Content";
        case 301:
            return "301 Moved Permanently";
        case 302:
            return "302 Found";
        case 401:
            return "401 Unauthorized";
        case 403:
            return "403 Forbidden";
        case 404:
            return "404 Not Found";
        case 412:
            return "412 Precondition Failed";
        case 416:
            return "416 Range Not Satisfiable";
        case 429:
            return "429 Too Many Requests";
        case 500:
            return "500 Internal Server Error";
        case 502:
            return "502 Bad Gateway";
        case 503:
            return "503 Service Unavailable";
        case 504:
            return "504 Gateway Timeout";
        default:
            return std::to_string(status);
    }
}

// An S3 error document's code and message ("AccessDenied: Access Denied"), or the start of
// whatever text the server sent.
std::string serverSays(const HttpResponse& response) {
    const std::string text = response.bodyText(4096);
    const auto tag = [&](const char* name) {
        const std::string open = std::string("<") + name + ">";
        const std::string close = std::string("</") + name + ">";
        const auto a = text.find(open);
        const auto b = a == std::string::npos ? a : text.find(close, a);
        return b == std::string::npos ? std::string()
                                      : text.substr(a + open.size(), b - a - open.size());
    };
    const std::string code = tag("Code");
    if (!code.empty()) {
        const std::string message = tag("Message");
        return message.empty() ? code : code + ": " + message;
    }
    return {};
}

struct UrlParts {
    std::string scheme, host, port;
};

std::optional<UrlParts> splitUrl(const std::string& url) {
    const CurlLibrary& curl = curlLibrary(url);
    CURLU* u = curl.url();
    std::optional<UrlParts> out;
    if (curl.urlSet(u, CURLUPART_URL, url.c_str(), 0) == CURLUE_OK) {
        UrlParts parts;
        char* value = nullptr;
        if (curl.urlGet(u, CURLUPART_SCHEME, &value, 0) == CURLUE_OK) {
            parts.scheme = lower(value);
            curl.free(value);
        }
        if (curl.urlGet(u, CURLUPART_HOST, &value, 0) == CURLUE_OK) {
            parts.host = lower(value);
            curl.free(value);
        }
        if (curl.urlGet(u, CURLUPART_PORT, &value, CURLU_DEFAULT_PORT) == CURLUE_OK) {
            parts.port = value;
            curl.free(value);
        }
        out = parts;
    }
    curl.urlCleanup(u);
    return out;
}

// Content-Range "bytes a-b/0": what s3rver answers a range of an empty object with (with a
// Content-Length of 1 and no body). The length it gives is unambiguous.
bool saysEmptyObject(const std::string& header) {
    const auto slash = header.rfind('/');
    return header.starts_with("bytes ") && slash != std::string::npos &&
           parseNumber(std::string_view(header).substr(slash + 1)) == 0u;
}

// Why a 206's Content-Range does not answer the request, or nothing when it does.
std::optional<std::string> rangeProblem(const HttpRequest& request, const std::string& header) {
    const auto [first, last] = *request.range;
    const std::string asked = "bytes=" + std::to_string(first) + "-" + std::to_string(last);
    if (header.empty()) {
        return "206 Partial Content without a Content-Range header for " + asked;
    }
    const auto cr = parseContentRange(header);
    if (!cr || cr->unsatisfied || cr->first != first || cr->last > last) {
        return "wrong Content-Range \"" + header + "\" for a request of " + asked;
    }
    return std::nullopt;
}

bool isJson(const std::string& contentType) {
    return contentType.find("json") != std::string::npos;
}

// One attempt's state, reached from libcurl's callbacks.
struct Transfer {
    enum class Abort { None, FullBody, TooLong, ErrorBodyCut, BadRange, EmptyObject };

    const CurlLibrary* curl = nullptr;
    CURL* handle = nullptr;
    const HttpRequest* request = nullptr;
    HttpResponse response;
    std::uint64_t limit = 0;
    Abort abort = Abort::None;
    bool statusKnown = false;
    long status = 0;
    const std::function<bool()>* cancelled = nullptr;
    // The request's `into` buffers, in use once a 206 arrived: the one being filled and where.
    bool intoBuffers = false;
    std::size_t piece = 0, at = 0;
    std::string badRange;  // why the Content-Range was refused
};

// Called when a response's headers have all arrived: a 206 whose Content-Range does not answer
// the request is refused before its body is waited for. False aborts the transfer.
bool headersComplete(Transfer& t) {
    long status = 0;
    t.curl->easyGetinfo(t.handle, CURLINFO_RESPONSE_CODE, &status);
    if (status != 206 || !t.request->range) {
        return true;
    }
    const std::string header = t.response.header("content-range");
    if (saysEmptyObject(header)) {
        t.abort = Transfer::Abort::EmptyObject;
        return false;
    }
    if (auto problem = rangeProblem(*t.request, header)) {
        t.badRange = std::move(*problem);
        t.abort = Transfer::Abort::BadRange;
        return false;
    }
    return true;
}

std::size_t onHeader(char* data, std::size_t size, std::size_t count, void* user) {
    auto& t = *static_cast<Transfer*>(user);
    const std::string_view line(data, size * count);
    if (line.starts_with("HTTP/")) {
        t.response.headers.clear();  // a new response (after 100 Continue)
    } else if (const auto colon = line.find(':'); colon != std::string_view::npos) {
        t.response.headers[lower(std::string(line.substr(0, colon)))] =
            trim(line.substr(colon + 1));
    } else if (trim(line).empty() && !headersComplete(t)) {
        return 0;
    }
    return size * count;
}

bool admitFullBody(const Transfer& t) {
    const auto& range = *t.request->range;
    const auto length = parseNumber(t.response.header("content-length"));
    return t.request->acceptSmallFullBody && range.first == 0 && length &&
           *length <= range.second - range.first + 1;
}

std::size_t onBody(char* data, std::size_t size, std::size_t count, void* user) {
    auto& t = *static_cast<Transfer*>(user);
    const std::size_t n = size * count;
    if (!t.statusKnown) {
        t.curl->easyGetinfo(t.handle, CURLINFO_RESPONSE_CODE, &t.status);
        t.statusKnown = true;
        if (t.request->range && t.status == 200) {
            if (t.request->acceptListing && isJson(t.response.header("content-type"))) {
                t.limit = t.request->maxBody;
            } else if (!admitFullBody(t)) {
                t.abort = Transfer::Abort::FullBody;
                return 0;
            }
        }
        if (t.status >= 300) {
            t.limit = kErrorBodyKeep;
        }
        t.intoBuffers = t.status == 206 && !t.request->into.empty();
        if (t.request->range && t.status < 300 && !t.intoBuffers) {
            t.response.body.reserve(static_cast<std::size_t>(std::min(t.limit, kReserveAtMost)));
        }
    }
    if (t.response.bodyBytes + n > t.limit) {
        t.abort = t.status >= 300 ? Transfer::Abort::ErrorBodyCut : Transfer::Abort::TooLong;
        return 0;
    }
    t.response.bodyBytes += n;
    if (!t.intoBuffers) {
        t.response.body.insert(t.response.body.end(), data, data + n);
        return n;
    }
    const auto& into = t.request->into;
    for (std::size_t left = n; left > 0;) {
        if (t.piece == into.size()) {  // the buffers hold less than the range: refuse the rest
            t.abort = Transfer::Abort::TooLong;
            return 0;
        }
        const std::span<std::uint8_t> to = into[t.piece];
        const std::size_t take = std::min(left, to.size() - t.at);
        std::memcpy(to.data() + t.at, data, take);
        data += take;
        left -= take;
        t.at += take;
        if (t.at == to.size()) {
            ++t.piece;
            t.at = 0;
        }
    }
    return n;
}

int onProgress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
    const auto& t = *static_cast<Transfer*>(user);
    return (*t.cancelled)() ? 1 : 0;
}

bool retryableCurlCode(CURLcode rc) {
    switch (rc) {
        case CURLE_COULDNT_CONNECT:
        case CURLE_COULDNT_RESOLVE_HOST:
        case CURLE_RECV_ERROR:
        case CURLE_SEND_ERROR:
        case CURLE_PARTIAL_FILE:
        case CURLE_GOT_NOTHING:
        case CURLE_OPERATION_TIMEDOUT:
        case CURLE_HTTP2:
        case CURLE_HTTP2_STREAM:
            return true;
        default:
            return false;
    }
}

struct AttemptError {
    RemoteError error;
    bool retryable;
};

}  // namespace

std::string HttpResponse::header(const std::string& lowerName) const {
    const auto it = headers.find(lowerName);
    return it == headers.end() ? std::string() : it->second;
}

std::string HttpResponse::bodyText(std::size_t max) const {
    std::string text(body.begin(), body.begin() + std::min(body.size(), max));
    for (char& c : text) {
        if (static_cast<unsigned char>(c) < 0x20 && c != '\n') {
            c = ' ';
        }
    }
    return text;
}

std::optional<ContentRange> parseContentRange(const std::string& value) {
    std::string_view v = value;
    if (!v.starts_with("bytes ")) {
        return std::nullopt;
    }
    v.remove_prefix(6);
    const auto slash = v.find('/');
    if (slash == std::string_view::npos) {
        return std::nullopt;
    }
    ContentRange out;
    const std::string_view span = v.substr(0, slash);
    const std::string_view total = v.substr(slash + 1);
    if (total != "*") {
        out.total = parseNumber(total);
        if (!out.total) {
            return std::nullopt;
        }
    }
    if (span == "*") {
        out.unsatisfied = true;
        return out.total ? std::optional(out) : std::nullopt;
    }
    const auto dash = span.find('-');
    if (dash == std::string_view::npos) {
        return std::nullopt;
    }
    const auto first = parseNumber(span.substr(0, dash));
    const auto last = parseNumber(span.substr(dash + 1));
    if (!first || !last || *last < *first || (out.total && *last >= *out.total)) {
        return std::nullopt;
    }
    out.first = *first;
    out.last = *last;
    return out;
}

std::string uriEncode(std::string_view text, bool keepSlash) {
    static const char* hex = "0123456789ABCDEF";
    std::string out;
    out.reserve(text.size());
    for (const char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~' ||
            (keepSlash && c == '/')) {
            out += ch;
        } else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

// A free list of easy handles: each keeps its connections open between requests, so a
// handle taken again reuses a warm keep-alive connection. DNS and TLS sessions are shared.
// Made by the first request, not by the client: a session that never fetches never loads
// libcurl.
struct HttpClient::Handles {
    std::mutex mutex;
    const CurlLibrary* curl = nullptr;  // set with the share, by the first take()
    std::vector<CURL*> free;
    CURLSH* share = nullptr;
    std::mutex shareLocks[CURL_LOCK_DATA_LAST];

    ~Handles() {
        if (curl == nullptr) {
            return;
        }
        for (CURL* h : free) {
            curl->easyCleanup(h);
        }
        curl->shareCleanup(share);
    }
    static void lock(CURL*, curl_lock_data data, curl_lock_access, void* user) {
        static_cast<Handles*>(user)->shareLocks[data].lock();
    }
    static void unlock(CURL*, curl_lock_data data, void* user) {
        static_cast<Handles*>(user)->shareLocks[data].unlock();
    }
    CURL* take(const CurlLibrary& library) {
        std::lock_guard lock(mutex);
        if (curl == nullptr) {
            share = library.shareInit();
            library.shareSetopt(share, CURLSHOPT_LOCKFUNC, &Handles::lock);
            library.shareSetopt(share, CURLSHOPT_UNLOCKFUNC, &Handles::unlock);
            library.shareSetopt(share, CURLSHOPT_USERDATA, this);
            library.shareSetopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS);
            library.shareSetopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION);
            curl = &library;
        }
        if (free.empty()) {
            return library.easyInit();
        }
        CURL* h = free.back();
        free.pop_back();
        return h;
    }
    void give(CURL* h) {
        std::lock_guard lock(mutex);
        free.push_back(h);
    }
};

HttpClient::HttpClient(const RemoteOptions& options, std::shared_ptr<RemoteCounters> counters)
    : options_(options), counters_(std::move(counters)), handles_(std::make_unique<Handles>()) {}

HttpClient::~HttpClient() = default;

bool HttpClient::sleepUnlessCancelled(std::chrono::milliseconds wait,
                                      const std::function<bool()>& cancelled) const {
    const auto until = std::chrono::steady_clock::now() + wait;
    while (!cancelled()) {
        const auto now = std::chrono::steady_clock::now();
        if (now >= until) {
            return true;
        }
        std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(
            until - now, std::chrono::milliseconds(20)));
    }
    return false;
}

namespace {

bool sameHost(const std::string& a, const std::string& b) {
    const auto x = splitUrl(a);
    const auto y = splitUrl(b);
    return x && y && x->host == y->host && x->port == y->port;
}

// What a failed transfer's libcurl code means, for the message.
std::string transferProblem(const CurlLibrary& curl, CURLcode rc, const char* detail,
                            const RemoteOptions& options, std::uint64_t bodyBytes) {
    switch (rc) {
        case CURLE_OPERATION_TIMEDOUT:
            return "timed out (no connection within " +
                   std::to_string(options.connectTimeout.count()) + " ms, or no data for " +
                   std::to_string(options.lowSpeedTime.count()) + " s)";
        case CURLE_PARTIAL_FILE:
        case CURLE_RECV_ERROR:
            return "the connection dropped after " + std::to_string(bodyBytes) +
                   " bytes of the body (" + curl.easyStrerror(rc) + ")";
        case CURLE_PEER_FAILED_VERIFICATION:
            return std::string("the server's certificate is not trusted (") + detail +
                   "); name the certificate of its authority with SSL_CERT_FILE, CURL_CA_BUNDLE "
                   "or the CA file option";
        case CURLE_SSL_CACERT_BADFILE:
            return "cannot use the CA certificates file " + options.caFile.string() + " (" +
                   detail + ")";
        case CURLE_SSL_CONNECT_ERROR:
            return std::string("the TLS handshake failed (") + detail + ")";
        default:
            return curl.easyStrerror(rc);
    }
}

}  // namespace

HttpResponse HttpClient::attempt(const HttpRequest& request, const std::string& url,
                                 unsigned number, const std::function<bool()>& cancelled,
                                 const RequestBudget& budget) const {
    const CurlLibrary& curl = curlLibrary(url);
    CURL* h = handles_->take(curl);
    // The handle goes back to the free list pointing at no buffer of this attempt's stack.
    struct Return {
        Handles& handles;
        CURL* h;
        ~Return() {
            handles.curl->easySetopt(h, CURLOPT_ERRORBUFFER, nullptr);
            handles.give(h);
        }
    } giveBack{*handles_, h};
    curl.easyReset(h);

    Transfer t;
    t.curl = &curl;
    t.handle = h;
    t.request = &request;
    t.cancelled = &cancelled;
    t.limit = request.range ? request.range->second - request.range->first + 1 : request.maxBody;

    curl.easySetopt(h, CURLOPT_URL, url.c_str());
    curl.easySetopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
    curl.easySetopt(h, CURLOPT_NOSIGNAL, 1L);
    curl.easySetopt(h, CURLOPT_FOLLOWLOCATION, 0L);
    curl.easySetopt(h, CURLOPT_SHARE, handles_->share);
    curl.easySetopt(h, CURLOPT_TCP_KEEPALIVE, 1L);
    curl.easySetopt(h, CURLOPT_BUFFERSIZE, 256L * 1024);
    curl.easySetopt(h, CURLOPT_CONNECTTIMEOUT_MS,
                    static_cast<long>(options_.connectTimeout.count()));
    curl.easySetopt(h, CURLOPT_LOW_SPEED_LIMIT, options_.lowSpeedBytes);
    curl.easySetopt(h, CURLOPT_LOW_SPEED_TIME, static_cast<long>(options_.lowSpeedTime.count()));
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        budget.deadline - std::chrono::steady_clock::now());
    curl.easySetopt(h, CURLOPT_TIMEOUT_MS, static_cast<long>(std::max<long long>(1, left.count())));
    curl.easySetopt(h, CURLOPT_SSL_VERIFYPEER, options_.verifyTls ? 1L : 0L);
    curl.easySetopt(h, CURLOPT_SSL_VERIFYHOST, options_.verifyTls ? 2L : 0L);
    if (!options_.caFile.empty()) {
        curl.easySetopt(h, CURLOPT_CAINFO, options_.caFile.c_str());
    }
    if (!options_.caDir.empty()) {
        curl.easySetopt(h, CURLOPT_CAPATH, options_.caDir.c_str());
    }
    char detail[CURL_ERROR_SIZE] = {};
    curl.easySetopt(h, CURLOPT_ERRORBUFFER, detail);
    if (request.login && sameHost(url, request.url)) {
        curl.easySetopt(h, CURLOPT_USERNAME, request.login->first.c_str());
        curl.easySetopt(h, CURLOPT_PASSWORD, request.login->second.c_str());
    }
    curl.easySetopt(h, CURLOPT_USERAGENT, "Strata");
    if (request.method == "HEAD") {
        curl.easySetopt(h, CURLOPT_NOBODY, 1L);
    }
    std::string range;
    if (request.range) {
        range = std::to_string(request.range->first) + "-" + std::to_string(request.range->second);
        curl.easySetopt(h, CURLOPT_RANGE, range.c_str());
    }
    curl_slist* headers = nullptr;
    for (const std::string& header : request.headers) {
        headers = curl.slistAppend(headers, header.c_str());
    }
    if (request.aws) {
        const std::string sigv4 = "aws:amz:" + request.aws->region + ":s3";
        curl.easySetopt(h, CURLOPT_AWS_SIGV4, sigv4.c_str());
        curl.easySetopt(h, CURLOPT_USERNAME, request.aws->accessKey.c_str());
        curl.easySetopt(h, CURLOPT_PASSWORD, request.aws->secretKey.c_str());
        headers = curl.slistAppend(headers, "x-amz-content-sha256: UNSIGNED-PAYLOAD");
        if (!request.aws->sessionToken.empty()) {
            headers = curl.slistAppend(
                headers, ("x-amz-security-token: " + request.aws->sessionToken).c_str());
        }
    }
    curl.easySetopt(h, CURLOPT_HTTPHEADER, headers);
    curl.easySetopt(h, CURLOPT_HEADERFUNCTION, &onHeader);
    curl.easySetopt(h, CURLOPT_HEADERDATA, &t);
    curl.easySetopt(h, CURLOPT_WRITEFUNCTION, &onBody);
    curl.easySetopt(h, CURLOPT_WRITEDATA, &t);
    curl.easySetopt(h, CURLOPT_XFERINFOFUNCTION, &onProgress);
    curl.easySetopt(h, CURLOPT_XFERINFODATA, &t);
    curl.easySetopt(h, CURLOPT_NOPROGRESS, 0L);

    const CURLcode rc = curl.easyPerform(h);
    curl.slistFreeAll(headers);
    curl.easyGetinfo(h, CURLINFO_RESPONSE_CODE, &t.response.status);
    char* redirect = nullptr;
    curl.easyGetinfo(h, CURLINFO_REDIRECT_URL, &redirect);
    if (redirect != nullptr) {
        t.response.headers["location"] = redirect;  // resolved against the request URL
    }
    t.response.url = url;

    counters_->requests.fetch_add(1, std::memory_order_relaxed);
    counters_->bytesFetched.fetch_add(t.response.bodyBytes, std::memory_order_relaxed);
    if (number > 1) {
        counters_->retries.fetch_add(1, std::memory_order_relaxed);
    }
    if (options_.requestLog) {
        RemoteRequestLogEntry entry;
        entry.method = request.method;
        entry.url = redactCredentials(url);
        entry.range = range.empty() ? std::string() : "bytes=" + range;
        entry.status = t.response.status;
        entry.bytes = t.response.bodyBytes;
        entry.attempt = number;
        if (rc != CURLE_OK && t.abort != Transfer::Abort::ErrorBodyCut) {
            entry.error = curl.easyStrerror(rc);
        }
        options_.requestLog(entry);
    }

    const long status = t.response.status;
    switch (t.abort) {
        case Transfer::Abort::FullBody:
            throw AttemptError{
                {RemoteError::Kind::NoRangeSupport, url, status,
                 "the server does not support Range requests: it answered a request for bytes " +
                     range + " with 200 OK and the whole file" +
                     (t.response.header("content-length").empty()
                          ? std::string()
                          : " (" + t.response.header("content-length") + " bytes)") +
                     "; Strata reads remote files by ranges and did not download it"},
                false};
        case Transfer::Abort::TooLong:
            throw AttemptError{
                {RemoteError::Kind::BadResponse, url, status,
                 request.range
                     ? "the server sent more than the " + std::to_string(t.limit) +
                           " bytes asked for (bytes " + range + ")"
                     : "the response is larger than " + std::to_string(t.limit) + " bytes"},
                false};
        case Transfer::Abort::ErrorBodyCut:
            return std::move(t.response);
        case Transfer::Abort::BadRange:
            throw AttemptError{{RemoteError::Kind::BadResponse, url, status, t.badRange}, false};
        case Transfer::Abort::EmptyObject:
            t.response.contentRange = ContentRange{0, 0, 0, true};
            return std::move(t.response);
        case Transfer::Abort::None:
            break;
    }
    if (rc == CURLE_OPERATION_TIMEDOUT &&
        std::chrono::steady_clock::now() + std::chrono::milliseconds(50) >= budget.deadline) {
        throw AttemptError{{RemoteError::Kind::Timeout, url, status,
                            "did not finish within " + std::to_string(budget.limit.count()) +
                                " s, the time limit for one operation (" +
                                std::to_string(t.response.bodyBytes) + " bytes of the body came)"},
                           false};
    }
    if (rc == CURLE_ABORTED_BY_CALLBACK) {
        throw AttemptError{{RemoteError::Kind::Cancelled, url, status, "cancelled"}, false};
    }
    if (rc == CURLE_UNSUPPORTED_PROTOCOL) {
        throw AttemptError{{RemoteError::Kind::Refused, url, status,
                            "Strata only fetches http:// and https:// URLs"},
                           false};
    }
    if (rc != CURLE_OK) {
        const auto kind = rc == CURLE_OPERATION_TIMEDOUT ? RemoteError::Kind::Timeout
                                                         : RemoteError::Kind::Network;
        throw AttemptError{
            {kind, url, status, transferProblem(curl, rc, detail, options_, t.response.bodyBytes)},
            retryableCurlCode(rc)};
    }
    return std::move(t.response);
}

namespace {

void checkRange(const HttpRequest& request, HttpResponse& response) {
    const std::string header = response.header("content-range");
    if (auto problem = rangeProblem(request, header)) {
        throw AttemptError{
            {RemoteError::Kind::BadResponse, response.url, response.status, std::move(*problem)},
            false};
    }
    response.contentRange = parseContentRange(header);
    const auto& cr = response.contentRange;
    const std::uint64_t expected = cr->last - cr->first + 1;
    if (response.bodyBytes != expected) {
        throw AttemptError{{RemoteError::Kind::BadResponse, response.url, response.status,
                            "the body is shorter than its Content-Range \"" + header +
                                "\": " + std::to_string(response.bodyBytes) + " of " +
                                std::to_string(expected) + " bytes arrived"},
                           true};
    }
}

bool isRedirect(long status) {
    return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
}

}  // namespace

HttpResponse HttpClient::perform(const HttpRequest& request,
                                 const std::function<bool()>& extraCancel,
                                 RequestBudget* budget) const {
    if (request.shownAs.empty()) {
        return performAs(request, extraCancel, budget);
    }
    try {
        return performAs(request, extraCancel, budget);
    } catch (const RemoteError& e) {
        throw RemoteError(e.kind(), request.shownAs, e.httpStatus(), e.detail());
    }
}

HttpResponse HttpClient::performAs(const HttpRequest& request,
                                   const std::function<bool()>& extraCancel,
                                   RequestBudget* budget) const {
    RequestBudget own(options_);
    RequestBudget& spend = budget != nullptr ? *budget : own;
    const std::function<bool()> cancelled = [&] {
        return (options_.cancel != nullptr && options_.cancel->cancelled()) ||
               (extraCancel && extraCancel());
    };
    const auto origin = splitUrl(request.url);
    if (!origin || (origin->scheme != "http" && origin->scheme != "https")) {
        throw RemoteError(RemoteError::Kind::Refused, request.url, 0,
                          "Strata only fetches http:// and https:// URLs");
    }
    std::string url = request.url;
    std::vector<std::string> chain{url};
    unsigned failures = 0;
    std::optional<RemoteError> last;
    while (true) {
        if (cancelled()) {
            throw RemoteError(RemoteError::Kind::Cancelled, url, 0, "cancelled");
        }
        if (std::chrono::steady_clock::now() >= spend.deadline) {
            throw RemoteError(RemoteError::Kind::Timeout, url, last ? last->httpStatus() : 0,
                              (last ? last->detail() + "; " : std::string()) + "gave up after " +
                                  std::to_string(spend.limit.count()) +
                                  " s, the time limit for one operation");
        }
        const auto factor = static_cast<std::chrono::milliseconds::rep>(1)
                            << std::min(failures, 16u);
        std::chrono::milliseconds wait =
            std::min(options_.retryBackoffMax, options_.retryBackoff * factor);
        try {
            HttpResponse response = attempt(request, url, failures + 1, cancelled, spend);
            const long status = response.status;
            if (isRedirect(status) && !response.header("location").empty()) {
                const std::string target = response.header("location");
                const auto parts = splitUrl(target);
                if (!parts || (parts->scheme != "http" && parts->scheme != "https")) {
                    throw RemoteError(RemoteError::Kind::Refused, request.url, status,
                                      "redirected to " + target +
                                          ", which Strata does not fetch (http and https only)");
                }
                if (!options_.allowCrossHostRedirects &&
                    (parts->host != origin->host || parts->port != origin->port)) {
                    throw RemoteError(RemoteError::Kind::Redirect, request.url, status,
                                      "redirected to another host (" + target +
                                          "); Strata does not follow it unless allowed");
                }
                const bool loop = std::find(chain.begin(), chain.end(), target) != chain.end();
                chain.push_back(target);
                if (loop || chain.size() > options_.maxRedirects + 1) {
                    std::string path;
                    for (const std::string& step : chain) {
                        path += (path.empty() ? "" : " -> ") + step;
                    }
                    throw RemoteError(RemoteError::Kind::Redirect, request.url, status,
                                      (loop ? "redirect loop: "
                                            : "more than " + std::to_string(options_.maxRedirects) +
                                                  " redirects: ") +
                                          path);
                }
                url = target;
                continue;
            }
            if (status >= 500 || status == 429) {
                const std::string says = serverSays(response);
                last = RemoteError(RemoteError::Kind::ServerError, url, status,
                                   "the server answered " + statusText(status) +
                                       (says.empty() ? "" : " (" + says + ")"));
                if (const auto after = parseNumber(response.header("retry-after"))) {
                    wait =
                        std::max(wait, std::min(options_.retryBackoffMax,
                                                std::chrono::milliseconds(
                                                    std::min<std::uint64_t>(*after, 3600) * 1000)));
                }
                throw AttemptError{*last, true};
            }
            if (status == 404 || status == 401 || status == 403 || status == 410) {
                const std::string says = serverSays(response);
                throw RemoteError(status == 404 || status == 410 ? RemoteError::Kind::NotFound
                                                                 : RemoteError::Kind::Forbidden,
                                  url, status,
                                  "the server answered " + statusText(status) +
                                      (says.empty() ? "" : " (" + says + ")"));
            }
            if (request.range && status == 206 && !response.contentRange) {
                checkRange(request, response);
            }
            return response;
        } catch (const AttemptError& e) {
            if (!e.retryable || spend.retriesLeft == 0) {
                if (failures == 0) {
                    throw e.error;
                }
                throw RemoteError(e.error.kind(), e.error.url(), e.error.httpStatus(),
                                  e.error.detail() + "; gave up after " +
                                      std::to_string(failures + 1) + " attempts");
            }
            --spend.retriesLeft;
            ++failures;
            last = e.error;
            wait = std::min(wait, std::chrono::duration_cast<std::chrono::milliseconds>(
                                      spend.deadline - std::chrono::steady_clock::now()));
            if (!sleepUnlessCancelled(wait, cancelled)) {
                throw RemoteError(RemoteError::Kind::Cancelled, url, 0, "cancelled");
            }
        }
    }
}

}  // namespace strata
