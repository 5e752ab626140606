// Read-only byte sources: a memory-mapped file or an in-memory buffer. Every parsed structure
// refers back to a ByteSource through a Region, so any view can show the bytes it came from.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace strata {

// A contiguous run of bytes borrowed from a ByteSource. `keepAlive` pins whatever owns the
// memory (a decoded buffer, say) so a view stays valid after the source drops its cache.
struct ByteView {
    std::span<const std::uint8_t> bytes;
    std::shared_ptr<const void> keepAlive;

    std::size_t size() const { return bytes.size(); }
    bool empty() const { return bytes.empty(); }
    const std::uint8_t* data() const { return bytes.data(); }
};

class ByteSource {
public:
    virtual ~ByteSource() = default;
    ByteSource(const ByteSource&) = delete;
    ByteSource& operator=(const ByteSource&) = delete;

    // Where the bytes come from: a file path, or "archive.zds!member" for archive members.
    virtual const std::string& name() const = 0;
    virtual std::uint64_t size() const = 0;

    // Bytes [offset, offset + length) clipped to the end of the source: a request past the end
    // returns fewer bytes (or none), never fails. Safe to call from several threads at once.
    virtual ByteView view(std::uint64_t offset, std::uint64_t length) const = 0;

    // Copies up to out.size() bytes from offset; returns how many were copied. For reading a
    // long stretch once, piece by piece into a reused buffer, this can cost less than view():
    // a large mapped file copies with pread() instead of faulting its pages into the mapping.
    virtual std::size_t read(std::uint64_t offset, std::span<std::uint8_t> out) const;

    // Whether view() of these bytes would return without waiting for a server. A source that
    // would wait (a remote file) starts fetching them in the background and says false: a view
    // on the GUI thread then draws a placeholder and asks again later instead of blocking.
    // Local sources are always ready. Never throws; a failed fetch reads as ready, and the
    // view() that follows reports the failure.
    virtual bool readyNow(std::uint64_t offset, std::uint64_t length) const;
    // True when the bytes come from a server (view() may wait for the network): views then
    // read what they show piece by piece instead of viewing a large range whole.
    virtual bool isRemote() const { return false; }

protected:
    ByteSource() = default;
};

using ByteSourcePtr = std::shared_ptr<const ByteSource>;

// Thrown when a file cannot be opened or mapped; what() names the file and the reason.
class SourceError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A file or folder of a store (an HTTP server, an S3 bucket) could not be read for a reason of
// the store, not of the data: readers let it through rather than report it as damage, except
// when missing(): nothing is at the location (HTTP 404, no such key) or a folder is where a
// file was asked for. Formats catch this, never a transport's own error type.
class StoreError : public SourceError {
public:
    using SourceError::SourceError;
    virtual bool missing() const { return false; }
};

// Maps a whole file read-only. Opening costs the same for 1 KB and 100 GB: nothing is read
// until a view touches it. An empty file is a valid, empty source. Files of 16 MiB or more
// keep their descriptor open as well, for read().
ByteSourcePtr openMappedFile(const std::filesystem::path& path);

// A regular file, checked readable now (opened, sized, closed) and read again by each view():
// it holds no descriptor and no mapping between reads. For the many small files of a folder
// format (a ZDS collection's docs/ with a million documents): any number of them can be open
// at once, where mappings run out at the kernel's limit (about 65,000). A file that shrinks
// or becomes unreadable after the open gives fewer bytes (as a view past the end does):
// callers that must know compare a whole view's size with size().
ByteSourcePtr openFileOnDemand(const std::filesystem::path& path);

// A small file read whole with one open (open, fstat, read, close), for a pass that looks at
// each of many files once (a validator over a docs/ folder of a million documents): `source`
// is what openFileOnDemand gives (read again by each view, nothing kept open), `bytes` the
// content read now: empty when the file is larger than `limit`, and shorter than
// source->size() when the file shrank while being read. Throws SourceError as
// openFileOnDemand does.
struct FileReadOnce {
    ByteSourcePtr source;
    ByteView bytes;
};
FileReadOnce readFileOnce(const std::filesystem::path& path, std::uint64_t limit);

// For one pass over the whole of `source` (a shard checked, a vectors file parsed): a file read
// on demand is mapped for the pass, since a view of all of it would copy the file into memory;
// nullptr for any other source, whose own views serve (a mapping, a buffer, a remote file).
// Regions built during the pass still name `source`: same bytes, same offsets. The mapping goes
// with the pointer, so holding none between passes keeps a folder of files within the kernel's
// limit. Throws SourceError when the file cannot be mapped (gone since it was opened, say) or
// its size is no longer the one the source was opened with.
ByteSourcePtr mappedForScan(const ByteSource& source);

// Owns a copy of `bytes` (tests, decoded payloads, small generated content).
ByteSourcePtr makeBufferSource(std::vector<std::uint8_t> bytes, std::string name = "<buffer>");
ByteSourcePtr makeBufferSource(std::string_view bytes, std::string name = "<buffer>");
// Owns `bytes`, of which the first `size` are the content: a buffer filled by read(), which
// need not be zeroed first (zeroing a file's worth of memory cost as much as reading it).
ByteSourcePtr makeBufferSource(std::unique_ptr<std::uint8_t[]> bytes, std::size_t size,
                               std::string name);

// Whether two sources hold the same bytes, compared a few MiB at a time.
bool sameBytes(const ByteSource& a, const ByteSource& b);

}  // namespace strata
