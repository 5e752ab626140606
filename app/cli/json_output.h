// JSON shapes printed by strata-cli --json. Keys keep the order they are written in.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "formats/common/diagnostic.h"
#include "formats/registry/format_handler.h"

namespace strata::cli {

using Json = nlohmann::ordered_json;

// {"format", "description", "confidence", "path"}
Json detectionJson(const std::filesystem::path& path, const Detection& detection);
// {"key": "value", ...} in the facts' order.
Json factsJson(const std::vector<std::pair<std::string, std::string>>& facts);
// {"severity", "code", "message", "offset", "length", "path", "node"}; offset and length are
// null when the diagnostic has no region.
Json diagnosticJson(const Diagnostic& diagnostic);

// One JSON document on stdout, indented, with a final newline.
void printJson(const Json& json);

}  // namespace strata::cli
