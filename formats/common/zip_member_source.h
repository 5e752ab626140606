// ZIP archives as byte sources: the archive is mapped once, each member becomes its own
// ByteSource named "archive.zds!member". A STORE'd member is a window into the mapped archive
// (no copy); a DEFLATE'd member is inflated on demand: members up to kWholeInflateLimit bytes are
// inflated whole on first access, larger ones are streamed in chunks, restarting from the start
// of the member for a backwards seek (so memory stays bounded whatever the member claims).
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "byte_source.h"

namespace strata {

inline constexpr std::uint64_t kWholeInflateLimit = 256ull << 20;
inline constexpr std::uint16_t kZipMethodStore = 0;
inline constexpr std::uint16_t kZipMethodDeflate = 8;

struct ZipMember {
    std::uint64_t index = 0;  // position in the central directory
    std::string name;
    std::uint16_t method = 0;
    std::uint64_t compressedSize = 0;
    std::uint64_t uncompressedSize = 0;
    std::uint32_t crc = 0;
    std::uint64_t localHeaderOffset = 0;
    // Where the member's data starts (30 + name length + extra length past the local header,
    // read from the local header itself); nothing when the local header is missing or damaged.
    std::optional<std::uint64_t> dataOffset;
    bool isDirectory() const { return !name.empty() && name.back() == '/'; }
};

// Thrown when a file is not a readable ZIP archive; what() carries libzip's reason.
class ZipError : public SourceError {
public:
    using SourceError::SourceError;
};

class CancelToken;

struct ZipCrcCheck {
    bool ok = false;
    bool cancelled = false;  // stopped by the cancel token; nothing else is known
    std::uint32_t actualCrc = 0;
    std::uint64_t produced = 0;  // uncompressed bytes seen
    std::string problem;         // empty when the data decoded (CRC may still differ)
};

class ZipArchive {
public:
    // Opens read-only. With checkConsistency, libzip also cross-checks local and central
    // headers (ZIP_CHECKCONS). Throws ZipError when libzip cannot open it, SourceError when the
    // file cannot be mapped.
    static std::shared_ptr<ZipArchive> open(const std::filesystem::path& path,
                                            bool checkConsistency = false);
    // The same over a source already open (a remote `.zds`): libzip reads it through the
    // source's views, so only the end-of-central-directory record, the central directory and
    // (with checkConsistency) the local headers are fetched, never the members' data. path() is
    // the source's name. Throws ZipError, or what the source's views throw (a RemoteError).
    static std::shared_ptr<ZipArchive> open(const ByteSourcePtr& source,
                                            bool checkConsistency = false);

    const std::filesystem::path& path() const { return path_; }
    const ByteSourcePtr& archiveSource() const { return archive_; }
    const std::vector<ZipMember>& members() const { return members_; }
    // The last member with this exact name (later entries win, as with most unzip tools).
    const ZipMember* find(std::string_view name) const;

    // The member's bytes as a source; nullptr for methods other than STORE and DEFLATE or when
    // the data offset is unknown.
    ByteSourcePtr openMember(const ZipMember& member) const;

    // Streams the member's data (inflating DEFLATE) and compares the CRC-32 with the directory.
    // Reads at most the compressed bytes and produces at most uncompressedSize + 1 bytes. Polls
    // `cancel` (may be null) between chunks.
    ZipCrcCheck checkCrc(const ZipMember& member, const CancelToken* cancel = nullptr) const;

private:
    static std::shared_ptr<ZipArchive> make(std::filesystem::path path, ByteSourcePtr source,
                                            std::int64_t libzipCount);

    std::filesystem::path path_;
    ByteSourcePtr archive_;
    std::vector<ZipMember> members_;
};

}  // namespace strata
