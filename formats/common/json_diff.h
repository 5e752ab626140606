// The differences between two JSON values as JSON paths ("$.meta.lang", "$.tags[2]"), for the
// differs of formats whose items or metadata are JSON (ZDS documents, ZS metadata, Shardlake
// documents, zTensor attributes).
//
// Numbers compare exactly. A parser that turns numbers into doubles makes 12345678901234567890123
// equal to ...124, and 0.1 equal to 0.1000000000000000055511151231257827; parseJsonExact keeps
// every number that is not a 64-bit integer as the text it was written with, and two numbers are
// the same when they are the same decimal number (1.0, 1, 10e-1 and 1e0 are; so are -0 and 0,
// which JSON readers parse as the integer 0).
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "diff.h"

namespace strata {

// At most this many fields per item; the rest are counted in `more`.
inline constexpr std::size_t kMaxJsonDiffFields = 64;

// Parses JSON text (the whole of it) keeping each number exactly: integers that fit 64 bits as
// integers, every other number as its text (a binary value of subtype kJsonNumberTextSubtype,
// which JSON text itself never produces). Empty when the text is not JSON.
std::optional<nlohmann::json> parseJsonExact(std::string_view text);

inline constexpr std::uint64_t kJsonNumberTextSubtype = 0x4e;  // 'N'

// Whether two JSON values are the same value, numbers compared exactly (above).
bool sameJsonValue(const nlohmann::json& a, const nlohmann::json& b);

// A value on one line, numbers as written, invalid UTF-8 replaced.
std::string jsonText(const nlohmann::json& value);

// Appends one DiffField per member or element that differs under `path` (added, removed or
// changed, values rendered to at most `maxChars`); numbers compare exactly, as above.
void diffJsonValues(const nlohmann::json& a, const nlohmann::json& b, const std::string& path,
                    std::vector<DiffField>& out, std::size_t& more, std::size_t maxChars);

}  // namespace strata
