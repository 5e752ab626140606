#include "remote_access.h"

#include <QCoreApplication>
#include <QLocale>
#include <QRegularExpression>
#include <QSettings>

#include <algorithm>
#include <cstdint>

#include <QUrl>

#include <chrono>
#include <stdexcept>

#include "formats/common/location.h"
#include "formats/remote/remote_error.h"
#include "formats/remote/remote_session.h"
#include "formats/remote/remote_url.h"

namespace strata::model {
namespace {

const char* const kRecentUrlsKey = "recentUrls";
const char* const kEndpointKey = "remote/endpoint";
const char* const kProfileKey = "remote/profile";
const char* const kAnonymousKey = "remote/anonymous";
const char* const kTimeoutKey = "remote/timeoutSeconds";
const char* const kCaFileKey = "remote/caFile";

}  // namespace

RemoteOpenSettings RemoteOpenSettings::load() {
    QSettings settings;
    RemoteOpenSettings out;
    out.endpoint = settings.value(kEndpointKey).toString();
    out.profile = settings.value(kProfileKey).toString();
    out.anonymous = settings.value(kAnonymousKey, false).toBool();
    out.timeoutSeconds = settings.value(kTimeoutKey, 0).toInt();
    out.caFile = settings.value(kCaFileKey).toString();
    return out;
}

void RemoteOpenSettings::save() const {
    QSettings settings;
    settings.setValue(kEndpointKey, endpoint);
    settings.setValue(kProfileKey, profile);
    settings.setValue(kAnonymousKey, anonymous);
    settings.setValue(kTimeoutKey, timeoutSeconds);
    settings.setValue(kCaFileKey, caFile);
}

bool isRemoteUrl(const QString& text) {
    return strata::Location::parse(text.trimmed().toStdString()).isRemote();
}

QString shownUrl(const QString& url) {
    return QString::fromStdString(strata::redactCredentials(url.toStdString()));
}

QString remoteLocationText(const QString& url) {
    try {
        return QString::fromStdString(
            strata::parseTypedUrl(url.trimmed().toStdString()).location.text());
    } catch (const std::invalid_argument&) {
        return shownUrl(url.trimmed());
    } catch (const strata::RemoteError&) {
        return shownUrl(url.trimmed());  // libcurl cannot be loaded: opening will say so
    }
}

bool isRefusedScheme(const QString& text) {
    static const QRegularExpression scheme(QStringLiteral("^[A-Za-z][A-Za-z0-9+.-]*://"));
    const QString t = text.trimmed();
    return scheme.match(t).hasMatch() && !isRemoteUrl(t) &&
           !t.startsWith(QStringLiteral("file://"), Qt::CaseInsensitive);
}

std::shared_ptr<strata::RemoteSession> makeDocumentSession(const RemoteOpenSettings& settings) {
    strata::RemoteOptions options;
    options.endpoint = settings.endpoint.trimmed().toStdString();
    options.profile = settings.profile.trimmed().toStdString();
    options.anonymous = settings.anonymous;
    if (settings.timeoutSeconds > 0) {
        options.operationTimeout = std::chrono::seconds(settings.timeoutSeconds);
    }
    options.caFile = settings.caFile.trimmed().toStdString();
    return strata::makeRemoteSession(std::move(options));
}

NetworkStats networkStatsOf(const strata::RemoteSession& session) {
    const strata::RemoteCounters::Snapshot s = session.counters();
    return {s.requests, s.bytesFetched, s.cacheHits, s.cacheMisses};
}

QString networkSummary(const NetworkStats& stats) {
    auto tr = [](const char* text) { return QCoreApplication::translate("strata::model", text); };
    const QString size = QLocale::c().formattedDataSize(
        static_cast<qint64>(std::min<quint64>(stats.bytesFetched, INT64_MAX)), 1,
        QLocale::DataSizeIecFormat);
    return (stats.requests == 1 ? tr("1 request") : tr("%1 requests").arg(stats.requests)) +
           QStringLiteral(" · ") + tr("%1 fetched").arg(size) + QStringLiteral(" · ") +
           (stats.cacheHits == 1 ? tr("1 cache hit") : tr("%1 cache hits").arg(stats.cacheHits));
}

QStringList recentUrls() {
    return QSettings().value(kRecentUrlsKey).toStringList();
}

void addRecentUrl(const QString& typed) {
    QUrl parsed(typed, QUrl::StrictMode);
    QString url = typed;
    if (parsed.isValid() && (!parsed.password().isEmpty() || parsed.hasQuery())) {
        parsed.setPassword(QString());
        parsed.setQuery(QString());
        url = parsed.toString(QUrl::FullyEncoded);
    }
    QStringList recent = recentUrls();
    recent.removeAll(url);
    recent.prepend(url);
    while (recent.size() > kMaxRecentUrls) {
        recent.removeLast();
    }
    QSettings().setValue(kRecentUrlsKey, recent);
}

void clearRecentUrls() {
    QSettings().remove(kRecentUrlsKey);
}

void removeRecentUrl(const QString& url) {
    QStringList recent = recentUrls();
    recent.removeAll(url);
    QSettings().setValue(kRecentUrlsKey, recent);
}

}  // namespace strata::model
