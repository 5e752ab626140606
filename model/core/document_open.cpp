// Document::open lives apart from the rest of Document so code that builds documents from an
// OpenedDocument (tests, tools) does not pull in every format handler.
#include <QFile>

#include <exception>
#include <stdexcept>

#include "document.h"
#include "formats/builtin/builtin_formats.h"
#include "formats/common/location.h"
#include "formats/remote/remote_session.h"
#include "formats/remote/remote_url.h"

namespace strata::model {
namespace {

const strata::FormatRegistry& orBuiltin(const strata::FormatRegistry* formats) {
    return formats != nullptr ? *formats : strata::builtinFormats();
}

}  // namespace

std::unique_ptr<Document> Document::open(const QString& path, QString* error,
                                         const strata::FormatRegistry* formats) {
    if (isRemoteUrl(path)) {
        return openUrl(path, {}, error, formats);
    }
    if (isRefusedScheme(path)) {
        if (error != nullptr) {
            *error = tr("%1: Strata opens http://, https:// and s3:// URLs and local files; this "
                        "scheme is refused")
                         .arg(path);
        }
        return nullptr;
    }
    try {
        std::unique_ptr<strata::OpenedDocument> opened =
            orBuiltin(formats).open(std::filesystem::path(QFile::encodeName(path).toStdString()));
        if (!opened) {
            if (error != nullptr) {
                *error = tr("%1: no format could open it").arg(path);
            }
            return nullptr;
        }
        return std::make_unique<Document>(std::move(opened));
    } catch (const std::exception& e) {
        if (error != nullptr) {
            *error = QString::fromLocal8Bit(e.what());
        }
    }
    return nullptr;
}

std::unique_ptr<Document> Document::openUrl(const QString& url, const RemoteOpenSettings& settings,
                                            QString* error, const strata::FormatRegistry* formats) {
    RemoteOpen remote = fetchUrl(url, settings, error, formats);
    return remote.opened ? fromRemote(std::move(remote)) : nullptr;
}

std::unique_ptr<Document> Document::fromRemote(RemoteOpen remote) {
    if (!remote.opened) {
        return nullptr;
    }
    auto document = std::make_unique<Document>(std::move(remote.opened));
    document->session_ = std::move(remote.session);
    document->remoteSettings_ = std::move(remote.settings);
    document->remoteUrl_ = std::move(remote.url);
    return document;
}

Document::RemoteOpen Document::fetchUrl(const QString& url, const RemoteOpenSettings& settings,
                                        QString* error, const strata::FormatRegistry* formats) {
    const QString text = url.trimmed();
    try {
        std::shared_ptr<strata::RemoteSession> session = makeDocumentSession(settings);
        // The session keeps the URL's password and token; the location holds neither.
        const strata::Location location = session->locate(text.toStdString());
        std::unique_ptr<strata::OpenedDocument> opened =
            orBuiltin(formats).open(strata::fileTreeFor(location, session), location);
        if (!opened && error != nullptr) {
            *error = tr("%1: no format could open it").arg(shownUrl(text));
        }
        return {std::move(session), std::move(opened), settings, text};
    } catch (const strata::RemoteError& e) {
        if (error != nullptr) {
            *error = QString::fromStdString(e.what());
        }
    } catch (const std::invalid_argument& e) {
        if (error != nullptr) {
            *error = QString::fromStdString(e.what());  // names the URL, redacted
        }
    } catch (const std::exception& e) {
        if (error != nullptr) {
            *error = shownUrl(text) + QStringLiteral(": ") +
                     QString::fromStdString(strata::redactCredentials(e.what()));
        }
    }
    return {};
}

}  // namespace strata::model
