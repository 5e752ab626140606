// Where a file or folder is: a local path, an http(s):// URL or an s3://bucket/key URI. Readers
// that navigate folders (ZDS datasets, OZDF corpora, Shardlake roots) join names onto a
// Location and ask a FileTree (file_tree.h) for the bytes, so the same code reads a local folder
// and a bucket prefix.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace strata {

class Location {
public:
    enum class Scheme { File, Http, Https, S3 };

    Location() = default;
    // "http://", "https://" and "s3://" are remote; "file://" and anything else is a local path.
    // A remote text is "scheme://authority" followed by the path as names are written (not
    // percent-encoded: a space, '%', '?' or '#' is part of a name), so names from a listing join
    // onto it as they are; a trailing '/' is dropped (folders are prefixes). Turning it into a
    // URL, and a URL the user typed into it, is the remote session's job
    // (formats/remote/remote_url.h). It never holds a password or a query string.
    static Location parse(std::string_view text);
    static Location local(const std::filesystem::path& path);

    Scheme scheme() const { return scheme_; }
    bool isRemote() const { return scheme_ != Scheme::File; }
    bool empty() const { return text_.empty(); }
    // As the user wrote it (normalised): a path, or a URL without a trailing '/'.
    const std::string& text() const { return text_; }
    // The local path (File only).
    std::filesystem::path localPath() const { return std::filesystem::path(text_); }
    // S3: the bucket, and the key (no leading '/'; a folder's key has no trailing '/').
    std::string bucket() const;
    std::string key() const;

    // The last '/'-separated part ("data.zs"), and its lower-case extension with the dot.
    std::string fileName() const;
    std::string extension() const;
    // `name` may hold '/'-separated parts; never goes above this location ("..", absolute
    // names and backslashes are refused with std::invalid_argument).
    Location child(std::string_view name) const;
    Location parent() const;

    bool operator==(const Location& other) const = default;

private:
    Scheme scheme_ = Scheme::File;
    std::string text_;
};

}  // namespace strata
