// The differences between two JSON values as JSON paths ("$.meta.lang", "$.tags[2]"), for the
// differs of formats whose items or metadata are JSON (ZDS documents, ZS metadata).
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "diff.h"

namespace strata {

// At most this many fields per item; the rest are counted in `more`.
inline constexpr std::size_t kMaxJsonDiffFields = 64;

// Appends one DiffField per member or element that differs under `path` (added, removed or
// changed, values rendered to at most `maxChars`); numbers of any type compare by value.
void diffJsonValues(const nlohmann::json& a, const nlohmann::json& b, const std::string& path,
                    std::vector<DiffField>& out, std::size_t& more, std::size_t maxChars);

}  // namespace strata
