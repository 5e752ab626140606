#include "json_output.h"

#include <iostream>

namespace strata::cli {

Json detectionJson(const std::filesystem::path& path, const Detection& detection) {
    Json json = Json::object();
    json["format"] = std::string(formatName(detection.format));
    json["description"] = detection.description;
    json["confidence"] = detection.confidence;
    json["path"] = path.string();
    return json;
}

Json factsJson(const std::vector<std::pair<std::string, std::string>>& facts) {
    Json json = Json::object();
    for (const auto& [key, value] : facts) {
        json[key] = value;
    }
    return json;
}

Json diagnosticJson(const Diagnostic& diagnostic) {
    Json json = Json::object();
    json["severity"] = std::string(severityName(diagnostic.severity));
    json["code"] = diagnostic.code;
    json["message"] = diagnostic.message;
    if (!diagnostic.regions.empty() && diagnostic.regions.front().valid()) {
        json["offset"] = diagnostic.regions.front().offset;
        json["length"] = diagnostic.regions.front().length;
    } else {
        json["offset"] = nullptr;
        json["length"] = nullptr;
    }
    json["path"] = diagnostic.fileName();
    json["node"] = diagnostic.nodePath;
    return json;
}

void printJson(const Json& json) {
    // Replace invalid UTF-8 (file names, messages quoting file bytes) instead of throwing.
    std::cout << json.dump(2, ' ', false, Json::error_handler_t::replace) << '\n';
}

}  // namespace strata::cli
