#include "json_listing.h"

#include <nlohmann/json.hpp>

namespace strata {

std::optional<std::vector<FileTreeEntry>> parseJsonListing(std::span<const std::uint8_t> body) {
    const nlohmann::json listing = nlohmann::json::parse(body.begin(), body.end(), nullptr, false);
    if (!listing.is_array()) {
        return std::nullopt;
    }
    std::vector<FileTreeEntry> entries;
    for (const auto& item : listing) {
        if (!item.is_object() || !item.contains("name") || !item["name"].is_string() ||
            !item.contains("type") || !item["type"].is_string()) {
            return std::nullopt;
        }
        FileTreeEntry entry;
        entry.name = item["name"].get<std::string>();
        const std::string kind = item["type"].get<std::string>();
        entry.isDirectory = kind == "directory";
        if (!entry.isDirectory && kind != "file") {
            continue;  // links and other kinds
        }
        if (entry.name.empty() || entry.name.find('/') != std::string::npos || entry.name == "." ||
            entry.name == "..") {
            continue;
        }
        if (!entry.isDirectory && item.contains("size") && item["size"].is_number_unsigned()) {
            entry.size = item["size"].get<std::uint64_t>();
        }
        if (item.contains("mtime") && item["mtime"].is_string()) {
            entry.modified = item["mtime"].get<std::string>();
        }
        entries.push_back(std::move(entry));
    }
    return entries;
}

}  // namespace strata
