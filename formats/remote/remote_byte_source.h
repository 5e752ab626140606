// A ByteSource over HTTP(S) Range requests (S3 objects too, signed). Reads go through the
// session's block cache; missing neighbouring blocks are fetched in one request, independent
// runs in parallel on the session's workers, and a reader moving forward gets the next blocks
// prefetched. The first response pins the object's ETag / Last-Modified / length; later
// responses must match (If-Match asks the server to check too), else every later read throws
// RemoteError(Changed).
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "formats/common/byte_source.h"
#include "http_client.h"

namespace strata {

struct SessionCore;
class FetchPool;

struct RemoteTarget {
    std::string url;   // what is fetched
    std::string name;  // the location's text (ByteSource::name()): no secret in it
    std::optional<AwsSigning> aws;
    std::optional<std::pair<std::string, std::string>> login;
    // What errors name instead of `url` (HttpRequest::shownAs): an S3 object's s3://bucket/key.
    std::string shownAs;
};

// The answer to one ranged GET of the first block. A small file from a server without Range
// support comes whole, and so does a folder's JSON listing (see answersAsFolder). Throws
// RemoteError as described in remote_session.h.
HttpResponse fetchFirstBlock(SessionCore& core, const RemoteTarget& target,
                             RequestBudget* budget = nullptr);
// True when that answer is a folder's: it came from a URL ending in '/' (the server redirected
// to the folder), or it is a whole JSON document shaped as a listing.
bool answersAsFolder(const HttpResponse& firstBlock);
// The source for the file that answered (not a folder's answer).
ByteSourcePtr sourceFromFirstBlock(const std::shared_ptr<SessionCore>& core,
                                   const std::shared_ptr<FetchPool>& pool,
                                   const RemoteTarget& target, HttpResponse firstBlock);
// Both, refusing a folder with RemoteError(NotAFile).
ByteSourcePtr openRemoteByteSource(const std::shared_ptr<SessionCore>& core,
                                   const std::shared_ptr<FetchPool>& pool,
                                   const RemoteTarget& target);

}  // namespace strata
