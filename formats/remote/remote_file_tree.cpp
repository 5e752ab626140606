// The HTTP and S3 FileTrees, and fileTreeFor().
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>

#include "remote_session.h"
#include "s3_list.h"
#include "session_core.h"

namespace strata {

namespace {

void sortAndLimit(std::vector<FileTreeEntry>& entries, std::size_t limit, bool* truncated) {
    std::sort(entries.begin(), entries.end(),
              [](const FileTreeEntry& a, const FileTreeEntry& b) { return a.name < b.name; });
    if (truncated != nullptr) {
        *truncated = limit != 0 && entries.size() > limit;
    }
    if (limit != 0 && entries.size() > limit) {
        entries.resize(limit);
    }
}

std::string withSlash(std::string url) {
    const auto query = url.find('?');
    const std::string tail = query == std::string::npos ? std::string() : url.substr(query);
    url = url.substr(0, query);
    if (url.empty() || url.back() != '/') {
        url += '/';
    }
    return url + tail;
}

class HttpFileTree final : public FileTree {
public:
    explicit HttpFileTree(RemoteSessionPtr session) : session_(std::move(session)) {}

    bool remote() const override { return true; }
    ByteSourcePtr open(const Location& file) const override { return session_->open(file); }

    // HEAD the URL: a file answers 200 with its length; a folder redirects to the URL with a
    // trailing '/' (or is asked for with one), which answers 200 when listable.
    std::optional<FileTreeEntry> stat(const Location& location) const override {
        HttpRequest request;
        request.method = "HEAD";
        request.url = location.text();
        FileTreeEntry entry;
        entry.name = location.fileName();
        try {
            const HttpResponse response = client().perform(request, cancelled());
            if (response.status / 100 != 2) {
                return std::nullopt;
            }
            const std::string path = response.url.substr(0, response.url.find('?'));
            entry.isDirectory = !path.empty() && path.back() == '/';
            if (!entry.isDirectory) {
                entry.size = std::strtoull(response.header("content-length").c_str(), nullptr, 10);
            }
            return entry;
        } catch (const RemoteError& e) {
            if (e.kind() == RemoteError::Kind::NotFound) {
                return std::nullopt;
            }
            // A folder without a listing answers 403 once redirected to its '/' form.
            const std::string path = e.url().substr(0, e.url().find('?'));
            if (e.kind() == RemoteError::Kind::Forbidden && !path.empty() && path.back() == '/') {
                entry.isDirectory = true;
                return entry;
            }
            throw;
        }
    }

    // Folder listings in the JSON format of nginx's `autoindex_format json`:
    // [{"name": "a.zs", "type": "file", "size": 123, ...}, {"name": "sub", "type": "directory"}]
    std::vector<FileTreeEntry> list(const Location& folder, std::size_t limit,
                                    bool* truncated) const override {
        HttpRequest request;
        request.url = withSlash(folder.text());
        request.headers.push_back("Accept: application/json");
        HttpResponse response;
        try {
            response = client().perform(request, cancelled());
        } catch (const RemoteError& e) {
            // nginx without autoindex answers a folder with 403, other servers with 404.
            if (e.kind() != RemoteError::Kind::Forbidden &&
                e.kind() != RemoteError::Kind::NotFound) {
                throw;
            }
            response.status = e.httpStatus();
        }
        const std::string type = response.header("content-type");
        nlohmann::json listing;
        if (response.status == 200 && type.find("json") != std::string::npos) {
            listing =
                nlohmann::json::parse(response.body.begin(), response.body.end(), nullptr, false);
        }
        if (response.status == 404) {
            // No such folder (a server that lists none answers its folders with 403).
            throw RemoteError(RemoteError::Kind::NotFound, folder.text(), 404,
                              "no such folder (HTTP 404 Not Found at " + request.url + ")");
        }
        if (!listing.is_array()) {
            throw SourceError(folder.text() +
                              ": this HTTP server does not list folders (no JSON directory "
                              "listing at " +
                              request.url + ", HTTP " + std::to_string(response.status) + ")");
        }
        std::vector<FileTreeEntry> entries;
        for (const auto& item : listing) {
            if (!item.is_object() || !item.contains("name") || !item["name"].is_string()) {
                continue;
            }
            FileTreeEntry entry;
            entry.name = item["name"].get<std::string>();
            const std::string kind = item.value("type", std::string());
            entry.isDirectory = kind == "directory";
            if (!entry.isDirectory && kind != "file") {
                continue;  // links and other kinds
            }
            if (entry.name.empty() || entry.name.find('/') != std::string::npos ||
                entry.name == "." || entry.name == "..") {
                continue;
            }
            if (!entry.isDirectory && item.contains("size") && item["size"].is_number_unsigned()) {
                entry.size = item["size"].get<std::uint64_t>();
            }
            entries.push_back(std::move(entry));
        }
        sortAndLimit(entries, limit, truncated);
        return entries;
    }

private:
    const HttpClient& client() const { return session_->core()->client; }
    std::function<bool()> cancelled() const {
        return [core = session_->core()] { return core->cancelledForThisThread(); };
    }

    RemoteSessionPtr session_;
};

class S3FileTree final : public FileTree {
public:
    explicit S3FileTree(RemoteSessionPtr session) : session_(std::move(session)) {}

    bool remote() const override { return true; }
    ByteSourcePtr open(const Location& file) const override { return session_->open(file); }

    std::optional<FileTreeEntry> stat(const Location& location) const override {
        FileTreeEntry entry;
        entry.name = location.fileName();
        const std::string key = location.key();
        if (key.empty()) {
            entry.name = location.bucket();
            entry.isDirectory = true;
            return entry;
        }
        const S3Settings& s3 = session_->core()->s3();
        HttpRequest request;
        request.method = "HEAD";
        request.url = s3.objectUrl(location.bucket(), key);
        request.aws = s3.signing;
        try {
            const HttpResponse response = client().perform(request, cancelled());
            if (response.status / 100 == 2) {
                entry.size = std::strtoull(response.header("content-length").c_str(), nullptr, 10);
                return entry;
            }
        } catch (const RemoteError& e) {
            if (e.kind() != RemoteError::Kind::NotFound) {
                throw;
            }
        }
        const S3Listing page =
            listObjectsV2(client(), s3, location.bucket(), key + "/", "/", 1, std::string());
        if (page.objects.empty() && page.commonPrefixes.empty()) {
            return std::nullopt;
        }
        entry.isDirectory = true;
        return entry;
    }

    // Keys under "key/" split at the next '/': objects are files, common prefixes folders.
    std::vector<FileTreeEntry> list(const Location& folder, std::size_t limit,
                                    bool* truncated) const override {
        const S3Settings& s3 = session_->core()->s3();
        const std::string key = folder.key();
        const std::string prefix = key.empty() ? std::string() : key + "/";
        std::vector<FileTreeEntry> entries;
        std::string token;
        do {
            if (session_->core()->cancelledForThisThread()) {
                throw RemoteError(RemoteError::Kind::Cancelled, folder.text(), 0, "cancelled");
            }
            const S3Listing page = listObjectsV2(client(), s3, folder.bucket(), prefix, "/",
                                                 session_->options().listPageSize, token);
            for (const auto& object : page.objects) {
                if (object.key.size() > prefix.size() && object.key.starts_with(prefix)) {
                    entries.push_back({object.key.substr(prefix.size()), false, object.size});
                }
            }
            for (const std::string& common : page.commonPrefixes) {
                if (common.size() > prefix.size() + 1 && common.starts_with(prefix)) {
                    entries.push_back(
                        {common.substr(prefix.size(), common.size() - prefix.size() - 1), true, 0});
                }
            }
            token = page.truncated ? page.nextContinuationToken : std::string();
        } while (!token.empty() && (limit == 0 || entries.size() <= limit));
        const bool more = !token.empty();
        sortAndLimit(entries, limit, truncated);
        if (truncated != nullptr) {
            *truncated = *truncated || more;
        }
        return entries;
    }

private:
    const HttpClient& client() const { return session_->core()->client; }
    std::function<bool()> cancelled() const {
        return [core = session_->core()] { return core->cancelledForThisThread(); };
    }

    RemoteSessionPtr session_;
};

}  // namespace

FileTreePtr fileTreeFor(const Location& location, const RemoteSessionPtr& session) {
    switch (location.scheme()) {
        case Location::Scheme::File:
            return localFileTree();
        case Location::Scheme::Http:
        case Location::Scheme::Https:
            return std::make_shared<HttpFileTree>(session);
        case Location::Scheme::S3:
            return std::make_shared<S3FileTree>(session);
    }
    return localFileTree();
}

FileTreePtr fileTreeFor(const Location& location, const RemoteOptions& options) {
    if (!location.isRemote()) {
        return localFileTree();
    }
    return fileTreeFor(location, makeRemoteSession(options));
}

}  // namespace strata
