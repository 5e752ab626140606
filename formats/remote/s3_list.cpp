#include "s3_list.h"

#include <pugixml.hpp>

#include <algorithm>
#include <charconv>
#include <optional>
#include <tuple>

namespace strata {

S3Listing parseListObjectsV2(std::string_view xml, const std::string& url) {
    pugi::xml_document doc;
    const pugi::xml_parse_result parsed = doc.load_buffer(xml.data(), xml.size());
    const pugi::xml_node root = doc.child("ListBucketResult");
    if (!parsed || !root) {
        throw SourceError(
            url + ": the listing is not an S3 ListBucketResult document" +
            (parsed ? std::string() : std::string(" (") + parsed.description() + ")"));
    }
    S3Listing out;
    for (const pugi::xml_node item : root.children("Contents")) {
        S3Listing::Object object;
        object.key = item.child_value("Key");
        const std::string_view size = item.child_value("Size");
        const auto [end, ec] = std::from_chars(size.data(), size.data() + size.size(), object.size);
        if (ec != std::errc() || end != size.data() + size.size()) {
            throw SourceError(url + ": the listing gives \"" + std::string(size) +
                              "\" as the size of " + object.key);
        }
        object.etag = item.child_value("ETag");
        object.lastModified = item.child_value("LastModified");
        out.objects.push_back(std::move(object));
    }
    for (const pugi::xml_node item : root.children("CommonPrefixes")) {
        out.commonPrefixes.emplace_back(item.child_value("Prefix"));
    }
    out.truncated = std::string_view(root.child_value("IsTruncated")) == "true";
    out.nextContinuationToken = root.child_value("NextContinuationToken");
    if (out.truncated && out.nextContinuationToken.empty()) {
        throw SourceError(url + ": the listing is truncated but has no NextContinuationToken");
    }
    return out;
}

namespace {

// The entry `path` (a key or common prefix) names under `prefix`, if any: a file when nothing
// follows its first part, a folder when a '/' does.
std::optional<FileTreeEntry> entryUnder(std::string_view path, std::string_view prefix) {
    if (!path.starts_with(prefix)) {
        return std::nullopt;
    }
    const std::string_view rest = path.substr(prefix.size());
    const std::size_t slash = rest.find('/');
    if (rest.empty() || slash == 0) {
        return std::nullopt;
    }
    FileTreeEntry entry;
    entry.name = std::string(rest.substr(0, slash));
    entry.isDirectory = slash != std::string_view::npos;
    return entry;
}

}  // namespace

void addS3Entries(const S3Listing& page, std::string_view prefix,
                  std::vector<FileTreeEntry>& entries) {
    for (const auto& object : page.objects) {
        if (std::optional<FileTreeEntry> entry = entryUnder(object.key, prefix)) {
            if (!entry->isDirectory) {
                entry->size = object.size;
                entry->etag = object.etag;
                entry->modified = object.lastModified;
            }
            entries.push_back(std::move(*entry));
        }
    }
    for (const std::string& common : page.commonPrefixes) {
        if (std::optional<FileTreeEntry> entry = entryUnder(common, prefix);
            entry && entry->isDirectory) {
            entries.push_back(std::move(*entry));
        }
    }
}

void sortS3Entries(std::vector<FileTreeEntry>& entries) {
    const auto key = [](const FileTreeEntry& e) { return std::tie(e.name, e.isDirectory); };
    std::sort(entries.begin(), entries.end(),
              [&](const FileTreeEntry& a, const FileTreeEntry& b) { return key(a) < key(b); });
    entries.erase(std::unique(entries.begin(), entries.end(),
                              [](const FileTreeEntry& a, const FileTreeEntry& b) {
                                  return a.isDirectory && b.isDirectory && a.name == b.name;
                              }),
                  entries.end());
}

S3Listing listObjectsV2(const HttpClient& client, const S3Settings& settings,
                        const S3ListRequest& page, const std::function<bool()>& cancelled,
                        RequestBudget* budget) {
    // Parameters sorted by name and encoded, so the query is already in SigV4 canonical form.
    std::string query;
    const auto add = [&](const char* name, const std::string& value) {
        query += (query.empty() ? "" : "&") + std::string(name) + "=" + uriEncode(value, false);
    };
    if (!page.continuationToken.empty()) {
        add("continuation-token", page.continuationToken);
    }
    if (!page.delimiter.empty()) {
        add("delimiter", page.delimiter);
    }
    add("list-type", "2");
    add("max-keys", std::to_string(page.maxKeys));
    if (!page.prefix.empty()) {
        add("prefix", page.prefix);
    }
    HttpRequest request;
    request.url = settings.listUrl(page.bucket, query);
    request.aws = settings.signing;
    // Errors name the folder listed, not the endpoint's URL.
    request.shownAs = "s3://" + page.bucket + "/" + page.prefix;
    const HttpResponse response = client.perform(request, cancelled, budget);
    if (response.status != 200) {
        throw RemoteError(RemoteError::Kind::ServerError, request.shownAs, response.status,
                          "listing the bucket failed: HTTP " + std::to_string(response.status) +
                              " " + response.bodyText());
    }
    return parseListObjectsV2(
        std::string_view(reinterpret_cast<const char*>(response.body.data()), response.body.size()),
        request.shownAs);
}

}  // namespace strata
