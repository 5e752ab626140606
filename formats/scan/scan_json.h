// Scan results as JSON: one object per entry, the shape of `strata-cli scan --jsonl` lines,
// of the results cache and of what `scan --merge` reads back.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "scan_result.h"

namespace strata::scan {

using Json = nlohmann::ordered_json;

// {"type": "entry", "index", "location", "path", "kind", "format", "description", "size",
//  "etag", "modified", "verdict", "errors", "warnings", "diagnostics": [{"severity", "code",
//  "message", "offset", "file"}], "problem", "seconds", "cached"}
Json resultJson(const ScanResult& result);
// The result a resultJson object describes, or nothing when `json` is not one (a summary line,
// a line of something else, a wrong type anywhere). Never throws.
std::optional<ScanResult> resultFromJson(const Json& json);

// One line of JSON Lines: compact, invalid UTF-8 (names, messages quoting bytes) replaced.
std::string jsonLine(const Json& json);

}  // namespace strata::scan
