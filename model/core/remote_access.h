// What the document layer needs to open http://, https:// and s3:// files: telling URLs from
// paths, the S3 settings the user picked (remembered with the recent URLs in QSettings), and
// the network totals a remote document shows in the status bar.
#pragma once

#include <QString>
#include <QStringList>

#include <memory>

namespace strata {
class RemoteSession;
}

namespace strata::model {

// S3 settings for one open; empty fields fall back to the environment and ~/.aws (as in
// strata-cli without --endpoint-url / --profile).
struct RemoteOpenSettings {
    QString endpoint;        // "http://127.0.0.1:9000" for an S3-compatible store
    QString profile;         // credentials profile in ~/.aws/credentials
    bool anonymous = false;  // unsigned requests (public buckets)
    // Any URL: the time limit of one operation in seconds (0: the default, 300), and the
    // certificates of the authorities HTTPS servers are checked against (empty:
    // CURL_CA_BUNDLE, SSL_CERT_FILE or the system's).
    int timeoutSeconds = 0;
    QString caFile;

    // The settings last used in File > Open URL…, and storing them for next time.
    static RemoteOpenSettings load();
    void save() const;
};

// True for http://, https:// and s3:// (case-insensitive).
bool isRemoteUrl(const QString& text);
// A URL as the window may show it: its password and token values as *** (redactCredentials).
QString shownUrl(const QString& url);
// The location a typed URL opens (its path decoded, no password, no query): what the
// document's path() will be; the URL shown as it is when it is not one.
QString remoteLocationText(const QString& url);
// True for "scheme://..." that Strata does not fetch (ftp://, gopher://); file:// is a path.
bool isRefusedScheme(const QString& text);

// A session of its own for one remote document (its block cache and counters).
std::shared_ptr<strata::RemoteSession> makeDocumentSession(const RemoteOpenSettings& settings);

// Totals of one remote document's session.
struct NetworkStats {
    quint64 requests = 0;
    quint64 bytesFetched = 0;
    quint64 cacheHits = 0;
    quint64 cacheMisses = 0;
};
NetworkStats networkStatsOf(const strata::RemoteSession& session);
// "12 requests · 1.5 MiB fetched · 40 cache hits", for the status bar.
QString networkSummary(const NetworkStats& stats);

// URLs opened before, most recent first (at most kMaxRecentUrls). No secret is kept:
// addRecentUrl drops a URL's password and query string (one that needs them is typed again).
constexpr int kMaxRecentUrls = 10;
QStringList recentUrls();
void addRecentUrl(const QString& url);
void clearRecentUrls();
// Takes one URL off the recent list (the start page's "Remove from List").
void removeRecentUrl(const QString& url);

}  // namespace strata::model
