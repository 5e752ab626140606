// Folder listings of HTTP servers, in the JSON of nginx's `autoindex_format json`:
// [{"name": "a.zs", "type": "file", "size": 123, ...}, {"name": "sub", "type": "directory"}].
// Internal to formats/remote.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "formats/common/file_tree.h"

namespace strata {

// The files and folders a listing names (other kinds, and names that are not one plain name,
// are left out), or nullopt when `body` is not shaped as a listing: a JSON array of objects
// that each have a string "name" and "type".
std::optional<std::vector<FileTreeEntry>> parseJsonListing(std::span<const std::uint8_t> body);

}  // namespace strata
