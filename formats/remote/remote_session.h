// A remote session: the block cache, the request workers, the counters and the settings that
// every remote file and tree opened through it shares. Open remote files with
// RemoteSession::open() (or a tree from fileTreeFor()), then read them as any ByteSource.
//
// How errors surface: ByteSource::view() cannot return an error, so a remote read that cannot
// deliver the right bytes throws RemoteError (remote_error.h), a SourceError. Readers already
// treat SourceError from a source as "this file cannot be read"; the CLI's runGuarded and the
// GUI's JobRunner catch std::exception and report the message. A view never returns bytes of a
// different version of the object: once a changed ETag/Last-Modified/length is seen, every later
// view of that source throws RemoteError(Changed).
#pragma once

#include <memory>

#include "formats/common/byte_source.h"
#include "formats/common/file_tree.h"
#include "formats/common/location.h"
#include "formats/common/thread_cancel.h"
#include "remote_error.h"
#include "remote_options.h"

namespace strata {

struct SessionCore;
class FetchPool;

class RemoteSession {
public:
    explicit RemoteSession(RemoteOptions options = {});
    ~RemoteSession();
    RemoteSession(const RemoteSession&) = delete;
    RemoteSession& operator=(const RemoteSession&) = delete;

    const RemoteOptions& options() const;
    RemoteCounters::Snapshot counters() const;
    // Bytes held by the shared in-memory block cache (at most options().cacheBytes).
    std::size_t cachedBytes() const;

    // Opens an http://, https:// or s3:// file: one ranged GET of its first block, which pins
    // the object's ETag / Last-Modified / length. Throws RemoteError (404, 403, no Range
    // support, a folder...) naming the URL.
    ByteSourcePtr open(const Location& location) const;

    // The location of a URL as the user typed it (parseTypedUrl: its path percent-decoded).
    // Its password and query string stay with the session, which adds them to the requests
    // for that location and for what lies under it; the location holds neither, so it can be
    // shown anywhere. Throws std::invalid_argument for a malformed URL.
    Location locate(std::string_view typed) const;

    // Shared with every source opened here: sources keep them alive after the session goes.
    const std::shared_ptr<SessionCore>& core() const { return core_; }
    const std::shared_ptr<FetchPool>& pool() const { return pool_; }

private:
    std::shared_ptr<SessionCore> core_;
    std::shared_ptr<FetchPool> pool_;
};

using RemoteSessionPtr = std::shared_ptr<RemoteSession>;

RemoteSessionPtr makeRemoteSession(RemoteOptions options = {});

// Reads made by this thread while the scope lives also stop when `token` is cancelled (a job's
// own token, beside the session-wide RemoteOptions::cancel); threads started with
// startThreadInheritingCancel inherit it (formats/common/thread_cancel.h).
using RemoteCancelScope = ThreadCancelScope;

// The tree that holds `location`: the local file system for local paths, an HTTP tree for
// http(s):// (stat via HEAD, list via JSON directory listings) and an S3 tree for s3://
// (stat via HEAD, list via ListObjectsV2). The remote trees share `session`.
FileTreePtr fileTreeFor(const Location& location, const RemoteSessionPtr& session);
// As above with a new session made from `options` (local locations make none).
FileTreePtr fileTreeFor(const Location& location, const RemoteOptions& options = {});

}  // namespace strata
