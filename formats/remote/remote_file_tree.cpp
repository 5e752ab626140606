// The HTTP and S3 FileTrees, and fileTreeFor().
#include <algorithm>
#include <cstdlib>

#include "json_listing.h"
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

bool pathEndsWithSlash(const std::string& url) {
    const std::string path = url.substr(0, url.find('?'));
    return !path.empty() && path.back() == '/';
}

// The common base of the two remote trees: the session, and the pieces of it they use.
class RemoteTree : public FileTree {
public:
    explicit RemoteTree(RemoteSessionPtr session) : session_(std::move(session)) {}

    bool remote() const override { return true; }
    ByteSourcePtr open(const Location& file) const override { return session_->open(file); }

protected:
    SessionCore& core() const { return *session_->core(); }
    const HttpClient& client() const { return core().client; }
    std::function<bool()> cancelled() const {
        return [core = session_->core()] { return core->cancelledForThisThread(); };
    }
    // The file's source from its first block's answer.
    ByteSourcePtr adopt(const RemoteTarget& target, HttpResponse firstBlock) const {
        return sourceFromFirstBlock(session_->core(), session_->pool(), target,
                                    std::move(firstBlock));
    }

    RemoteSessionPtr session_;
};

class HttpFileTree final : public RemoteTree {
public:
    using RemoteTree::RemoteTree;

    // HEAD the URL: a file answers 200 with its length; a folder redirects to the URL with a
    // trailing '/' (or is asked for with one), which answers 200 when listable.
    std::optional<FileTreeEntry> stat(const Location& location) const override {
        const RemoteTarget target = core().targetFor(location);
        HttpRequest request;
        request.method = "HEAD";
        request.url = target.url;
        request.login = target.login;
        FileTreeEntry entry;
        entry.name = location.fileName();
        try {
            const HttpResponse response = client().perform(request, cancelled());
            if (response.status / 100 != 2) {
                return std::nullopt;
            }
            entry.isDirectory = pathEndsWithSlash(response.url);
            if (!entry.isDirectory) {
                entry.size = std::strtoull(response.header("content-length").c_str(), nullptr, 10);
            }
            return entry;
        } catch (const RemoteError& e) {
            if (e.kind() == RemoteError::Kind::NotFound) {
                return std::nullopt;
            }
            // A folder without a listing answers 403 once redirected to its '/' form.
            if (e.kind() == RemoteError::Kind::Forbidden && pathEndsWithSlash(e.url())) {
                entry.isDirectory = true;
                return entry;
            }
            throw;
        }
    }

    std::vector<FileTreeEntry> list(const Location& folder, std::size_t limit,
                                    bool* truncated) const override {
        return listWith(folder, limit, truncated, nullptr);
    }

    // One ranged GET tells a file (its first block) from a folder (the server redirects to the
    // folder's '/' form, or answers with its listing, however the listing is framed: chunked,
    // with a Content-Length, or as a range of a stored listing).
    FileOrFolder openOrList(const Location& location, std::size_t limit) const override {
        RequestBudget budget(core().options);
        const RemoteTarget target = core().targetFor(location);
        HttpResponse first;
        try {
            first = fetchFirstBlock(core(), target, &budget);
        } catch (const RemoteError& e) {
            if (e.kind() == RemoteError::Kind::Forbidden && pathEndsWithSlash(e.url())) {
                throw noListing(location, e.url(), e.httpStatus());
            }
            throw;
        }
        FileOrFolder out;
        if (!answersAsFolder(first)) {
            out.file = adopt(target, std::move(first));
            return out;
        }
        if (auto entries = first.status == 200 ? parseJsonListing(first.body) : std::nullopt) {
            out.entries = std::move(*entries);
            sortAndLimit(out.entries, limit, &out.truncated);
            return out;
        }
        out.entries = listWith(location, limit, &out.truncated, &budget);
        return out;
    }

private:
    static SourceError noListing(const Location& folder, const std::string& url, long status) {
        return SourceError(folder.text() +
                           ": this HTTP server does not list folders (no JSON directory listing "
                           "at " +
                           redactCredentials(url) + ", HTTP " + std::to_string(status) + ")");
    }

    std::vector<FileTreeEntry> listWith(const Location& folder, std::size_t limit, bool* truncated,
                                        RequestBudget* budget) const {
        const RemoteTarget target = core().targetFor(folder, true);
        HttpRequest request;
        request.url = target.url;
        request.login = target.login;
        request.headers.push_back("Accept: application/json");
        HttpResponse response;
        try {
            response = client().perform(request, cancelled(), budget);
        } catch (const RemoteError& e) {
            // nginx without autoindex answers a folder with 403, other servers with 404.
            if (e.kind() != RemoteError::Kind::Forbidden &&
                e.kind() != RemoteError::Kind::NotFound) {
                throw;
            }
            response.status = e.httpStatus();
        }
        if (response.status == 404) {
            // No such folder (a server that lists none answers its folders with 403).
            throw RemoteError(RemoteError::Kind::NotFound, folder.text(), 404,
                              "no such folder (HTTP 404 Not Found at " + request.url + ")");
        }
        std::optional<std::vector<FileTreeEntry>> entries;
        if (response.status == 200 &&
            response.header("content-type").find("json") != std::string::npos) {
            entries = parseJsonListing(response.body);
        }
        if (!entries) {
            throw noListing(folder, request.url, response.status);
        }
        sortAndLimit(*entries, limit, truncated);
        return std::move(*entries);
    }
    // nginx's autoindex and most other servers' listings leave dot files out.
    bool listsDotFiles() const override { return false; }
};

class S3FileTree final : public RemoteTree {
public:
    using RemoteTree::RemoteTree;

    // A listing gives every object's exact size: an empty one needs no request (and a ranged
    // GET of an empty object is an error on some S3 servers).
    ByteSourcePtr openListed(const Location& file, const FileTreeEntry& listed) const override {
        if (!listed.isDirectory && listed.size == 0) {
            return makeBufferSource(std::vector<std::uint8_t>{}, file.text());
        }
        return open(file);
    }

    std::optional<FileTreeEntry> stat(const Location& location) const override {
        FileTreeEntry entry;
        entry.name = location.fileName();
        const std::string key = location.key();
        if (key.empty()) {
            entry.name = location.bucket();
            entry.isDirectory = true;
            return entry;
        }
        const RemoteTarget target = core().targetFor(location);
        HttpRequest request;
        request.method = "HEAD";
        request.url = target.url;
        request.aws = target.aws;
        request.shownAs = target.shownAs;
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
        bool more = false;
        if (listWith(location, 1, &more, nullptr).empty()) {
            return std::nullopt;
        }
        entry.isDirectory = true;
        return entry;
    }

    std::vector<FileTreeEntry> list(const Location& folder, std::size_t limit,
                                    bool* truncated) const override {
        return listWith(folder, limit, truncated, nullptr);
    }

    // A GET of the object's first block; only a key that is no object is listed as a prefix.
    FileOrFolder openOrList(const Location& location, std::size_t limit) const override {
        RequestBudget budget(core().options);
        FileOrFolder out;
        if (!location.key().empty()) {
            const RemoteTarget target = core().targetFor(location);
            try {
                out.file = adopt(target, fetchFirstBlock(core(), target, &budget));
                return out;
            } catch (const RemoteError& e) {
                if (e.kind() != RemoteError::Kind::NotFound) {
                    throw;
                }
                out.entries = listWith(location, limit, &out.truncated, &budget);
                if (out.entries.empty()) {
                    throw;
                }
                return out;
            }
        }
        out.entries = listWith(location, limit, &out.truncated, &budget);
        return out;
    }

private:
    // Keys under "key/" split at the next '/': objects are files, common prefixes folders.
    std::vector<FileTreeEntry> listWith(const Location& folder, std::size_t limit, bool* truncated,
                                        RequestBudget* budget) const {
        const S3Settings& s3 = core().s3();
        const std::string key = folder.key();
        S3ListRequest page{folder.bucket(),
                           key.empty() ? std::string() : key + "/",
                           "/",
                           session_->options().listPageSize,
                           {}};
        if (limit != 0 && limit < page.maxKeys) {
            page.maxKeys = static_cast<unsigned>(limit + 1);  // enough to tell it was truncated
        }
        std::vector<FileTreeEntry> entries;
        do {
            if (core().cancelledForThisThread()) {
                throw RemoteError(RemoteError::Kind::Cancelled, folder.text(), 0, "cancelled");
            }
            const S3Listing listed = listObjectsV2(client(), s3, page, cancelled(), budget);
            addS3Entries(listed, page.prefix, entries);
            page.continuationToken = listed.truncated ? listed.nextContinuationToken : "";
        } while (!page.continuationToken.empty() && (limit == 0 || entries.size() <= limit));
        const bool more = !page.continuationToken.empty();
        sortS3Entries(entries);
        sortAndLimit(entries, limit, truncated);
        if (truncated != nullptr) {
            *truncated = *truncated || more;
        }
        return entries;
    }
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
