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
    std::string name;  // what the user wrote (ByteSource::name())
    std::optional<AwsSigning> aws;
};

// One ranged GET of the first block; throws RemoteError as described in remote_session.h.
ByteSourcePtr openRemoteByteSource(const std::shared_ptr<SessionCore>& core,
                                   const std::shared_ptr<FetchPool>& pool,
                                   const RemoteTarget& target);

}  // namespace strata
