#include "scan_json.h"

namespace strata::scan {

namespace {

Json diagnosticJson(const ScanDiagnostic& d) {
    Json json = Json::object();
    json["severity"] = std::string(severityName(d.severity));
    json["code"] = d.code;
    json["message"] = d.message;
    json["offset"] = d.offset ? Json(*d.offset) : Json(nullptr);
    json["file"] = d.file;
    return json;
}

std::optional<Severity> parseSeverity(std::string_view name) {
    for (const Severity s : {Severity::Info, Severity::Warning, Severity::Error}) {
        if (severityName(s) == name) {
            return s;
        }
    }
    return std::nullopt;
}

// The value at `key` when it has type T; `fallback` when it is missing; nothing when it is
// there with another type (the line is not one of ours).
template <class T>
std::optional<T> field(const Json& json, const char* key, T fallback) {
    const auto it = json.find(key);
    if (it == json.end() || it->is_null()) {
        return fallback;
    }
    if constexpr (std::is_same_v<T, std::string>) {
        return it->is_string() ? std::optional<T>(it->get<std::string>()) : std::nullopt;
    } else if constexpr (std::is_same_v<T, bool>) {
        return it->is_boolean() ? std::optional<T>(it->get<bool>()) : std::nullopt;
    } else if constexpr (std::is_floating_point_v<T>) {
        return it->is_number() ? std::optional<T>(it->get<T>()) : std::nullopt;
    } else {
        return it->is_number_unsigned() ? std::optional<T>(it->get<T>()) : std::nullopt;
    }
}

std::optional<ScanDiagnostic> diagnosticFromJson(const Json& json) {
    if (!json.is_object()) {
        return std::nullopt;
    }
    const auto severity = field<std::string>(json, "severity", "error");
    const auto code = field<std::string>(json, "code", "");
    const auto message = field<std::string>(json, "message", "");
    const auto file = field<std::string>(json, "file", "");
    const auto offset = field<std::uint64_t>(json, "offset", UINT64_MAX);
    const std::optional<Severity> parsed = severity ? parseSeverity(*severity) : std::nullopt;
    if (!parsed || !code || !message || !file || !offset) {
        return std::nullopt;
    }
    ScanDiagnostic d{*parsed, *code, *message, std::nullopt, *file};
    if (*offset != UINT64_MAX) {
        d.offset = *offset;
    }
    return d;
}

bool readEntry(const Json& json, ScanEntry& entry) {
    const auto location = field<std::string>(json, "location", "");
    const auto path = field<std::string>(json, "path", "");
    const auto kind = field<std::string>(json, "kind", "file");
    const auto index = field<std::uint64_t>(json, "index", 0);
    const auto size = field<std::uint64_t>(json, "size", 0);
    const auto etag = field<std::string>(json, "etag", "");
    const auto modified = field<std::string>(json, "modified", "");
    if (!location || location->empty() || !path || !kind || !index || !size || !etag || !modified) {
        return false;
    }
    entry = {*index, Location::parse(*location), *path, *kind == "folder", *size, *etag, *modified};
    return true;
}

bool readDiagnostics(const Json& json, std::vector<ScanDiagnostic>& out) {
    const auto it = json.find("diagnostics");
    if (it == json.end()) {
        return true;
    }
    if (!it->is_array()) {
        return false;
    }
    for (const Json& item : *it) {
        std::optional<ScanDiagnostic> d = diagnosticFromJson(item);
        if (!d) {
            return false;
        }
        out.push_back(std::move(*d));
    }
    return true;
}

}  // namespace

Json resultJson(const ScanResult& r) {
    Json json = Json::object();
    json["type"] = "entry";
    json["index"] = r.entry.index;
    json["location"] = r.entry.location.text();
    json["path"] = r.entry.relativePath;
    json["kind"] = r.entry.isFolder ? "folder" : "file";
    json["format"] = r.format;
    json["description"] = r.description;
    json["size"] = r.entry.size;
    json["etag"] = r.entry.etag;
    json["modified"] = r.entry.modified;
    json["verdict"] = std::string(verdictName(r.verdict));
    json["errors"] = r.errors;
    json["warnings"] = r.warnings;
    Json diagnostics = Json::array();
    for (const ScanDiagnostic& d : r.diagnostics) {
        diagnostics.push_back(diagnosticJson(d));
    }
    json["diagnostics"] = std::move(diagnostics);
    json["problem"] = r.problem;
    json["seconds"] = r.seconds;
    json["cached"] = r.fromCache;
    return json;
}

std::optional<ScanResult> resultFromJson(const Json& json) {
    if (!json.is_object() || field<std::string>(json, "type", "entry") != "entry") {
        return std::nullopt;
    }
    ScanResult r;
    const auto verdict = field<std::string>(json, "verdict", "");
    const std::optional<Verdict> parsed = verdict ? parseVerdict(*verdict) : std::nullopt;
    const auto format = field<std::string>(json, "format", "");
    const auto description = field<std::string>(json, "description", "");
    const auto errors = field<std::size_t>(json, "errors", 0);
    const auto warnings = field<std::size_t>(json, "warnings", 0);
    const auto problem = field<std::string>(json, "problem", "");
    const auto seconds = field<double>(json, "seconds", 0.0);
    const auto cached = field<bool>(json, "cached", false);
    if (!parsed || !format || !description || !errors || !warnings || !problem || !seconds ||
        !cached || !readEntry(json, r.entry) || !readDiagnostics(json, r.diagnostics)) {
        return std::nullopt;
    }
    r.verdict = *parsed;
    r.format = *format;
    r.description = *description;
    r.errors = *errors;
    r.warnings = *warnings;
    r.problem = *problem;
    r.seconds = *seconds;
    r.fromCache = *cached;
    return r;
}

std::string jsonLine(const Json& json) {
    return json.dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace strata::scan
