// Errors from remote byte sources and trees. ByteSource::view() has no error channel, so a
// remote read that cannot give the right bytes throws RemoteError. It derives from SourceError,
// which readers and the CLI/GUI job runners already catch: a failed remote read ends the
// command or job with a message, it never yields wrong bytes or crashes.
#pragma once

#include <string>

#include "formats/common/byte_source.h"
#include "remote_url.h"

namespace strata {

class RemoteError : public StoreError {
public:
    enum class Kind {
        NotFound,        // 404, or no such bucket/key
        Forbidden,       // 401/403: credentials missing, wrong or not allowed
        NoRangeSupport,  // the server answered a Range request with the whole file
        Changed,         // ETag, Last-Modified or length differ from the first response
        BadResponse,     // wrong/missing Content-Range, unparseable length, short body
        Redirect,        // too many redirects, a loop, or a redirect Strata refuses to follow
        Refused,         // a scheme or host Strata does not fetch from
        Timeout,         // connect or low-speed timeout (after retries)
        Network,         // connection refused/dropped (after retries)
        ServerError,     // 5xx/429 after retries, or another unexpected status
        Cancelled,       // the CancelToken was cancelled
        NotAFile,        // the URL is a folder (its answer is a directory listing)
        Unverifiable,    // no ETag or Last-Modified: a change between two requests would go unseen
        Unavailable,     // libcurl cannot be loaded: no remote file can be read in this process
    };

    // The URL and the text are shown with their credentials redacted (redactCredentials).
    RemoteError(Kind kind, const std::string& url, long httpStatus, const std::string& what)
        : StoreError(redactCredentials(url + ": " + what)),
          kind_(kind),
          url_(redactCredentials(url)),
          detail_(redactCredentials(what)),
          httpStatus_(httpStatus) {}

    Kind kind() const { return kind_; }
    // Nothing there (404, no such key), or a folder answering where a file was asked for.
    bool missing() const override { return kind_ == Kind::NotFound || kind_ == Kind::NotAFile; }
    const std::string& url() const { return url_; }
    // What went wrong, without the URL in front.
    const std::string& detail() const { return detail_; }
    // The last HTTP status seen, or 0 when none arrived.
    long httpStatus() const { return httpStatus_; }

private:
    Kind kind_;
    std::string url_;
    std::string detail_;
    long httpStatus_;
};

}  // namespace strata
