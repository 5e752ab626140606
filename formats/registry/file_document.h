// Generic documents shared by every format until its reader builds a real tree: a file as one
// mapped source under a `<prefix>.file` node, a folder as a `<prefix>.folder` node with one lazy
// child per regular file under it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include "format_handler.h"

namespace strata {

// How many files a folder document lists; the rest are counted as left out.
inline constexpr std::size_t kFolderFileLimit = 10000;

// Maps `path` (throws SourceError when it cannot) and makes a document whose root node, kind
// `<kindPrefix>.file`, covers the whole file. Facts: format, description, size.
std::unique_ptr<OpenedDocument> openFileDocument(const std::filesystem::path& path,
                                                 const Detection& detection,
                                                 std::string_view kindPrefix);
// The same over a source already open (a remote file); the document's path is its name.
std::unique_ptr<OpenedDocument> openFileDocument(const ByteSourcePtr& source,
                                                 const Detection& detection,
                                                 std::string_view kindPrefix);

// Adds a `<kindPrefix>.magic` child covering the first `length` bytes (clipped to the file) with
// a `magic` field showing them in hex. Returns the new node.
Node* addMagicNode(OpenedDocument& document, std::uint64_t length, std::string_view kindPrefix);

// Lists up to kFolderFileLimit regular files under `path` (recursively, sorted by relative path)
// and makes a document whose root, kind `<kindPrefix>.folder`, has one child per file: kind
// `<kindPrefix>.file`, label the relative path, its own mapped source made on first access.
// Facts: format, description, files. Throws SourceError when the folder cannot be listed.
std::unique_ptr<OpenedDocument> openFolderDocument(const std::filesystem::path& path,
                                                   const Detection& detection,
                                                   std::string_view kindPrefix);

// "ab 5a 53 66" for the given bytes.
std::string hexBytes(std::span<const std::uint8_t> bytes);

}  // namespace strata
