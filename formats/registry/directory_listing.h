// Bounded looks at the file system for probes: list a folder, read the start of a file. Both
// stop at a fixed size so a probe never walks a million files or reads a whole file.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "format_handler.h"

namespace strata {

// Stops reading at `limit` entries, so a probe costs the same for a folder of a million files:
// the entries kept are then the first the file system returned, not the first by name, and
// `truncated` says so. Not for a format reading its own folder, which needs every entry (the
// Shardlake store lists its folders whole).
DirectoryListing listDirectory(const std::filesystem::path& folder, std::size_t limit);

// Up to `limit` bytes from the start of a regular file as text; empty when it cannot be read.
std::string readFileHead(const std::filesystem::path& file, std::size_t limit = 4096);

// True for a regular file (following symlinks) at `path`; never throws.
bool isRegularFile(const std::filesystem::path& path);
bool isDirectory(const std::filesystem::path& path);

// Lower-case extension with the dot, empty when there is none.
std::string lowerExtension(const std::filesystem::path& path);

}  // namespace strata
