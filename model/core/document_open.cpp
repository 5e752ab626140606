// Document::open lives apart from the rest of Document so code that builds documents from an
// OpenedDocument (tests, tools) does not pull in every format handler.
#include <QFile>
#include <QFileInfo>

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
    return fromPrepared(prepare(path, {}, error, formats));
}

Document::Prepared Document::prepare(const QString& path, const RemoteOpenSettings& settings,
                                     QString* error, const strata::FormatRegistry* formats) {
    if (isRemoteUrl(path)) {
        return fetchUrl(path, settings, error, formats);
    }
    if (isRefusedScheme(path)) {
        if (error != nullptr) {
            *error = tr("%1: Strata opens http://, https:// and s3:// URLs and local files; this "
                        "scheme is refused")
                         .arg(path);
        }
        return {};
    }
    try {
        Prepared prepared;
        prepared.opened =
            orBuiltin(formats).open(std::filesystem::path(QFile::encodeName(path).toStdString()));
        if (!prepared.opened && error != nullptr) {
            *error = tr("%1: no format could open it").arg(path);
        }
        return prepared;
    } catch (const std::exception& e) {
        if (error != nullptr) {
            *error = QString::fromLocal8Bit(e.what());
        }
    }
    return {};
}

bool Document::isPlainFolder(const QString& path, const strata::FormatRegistry* formats) {
    if (isRemoteUrl(path) || !QFileInfo(path).isDir()) {
        return false;
    }
    try {
        const std::filesystem::path folder(QFile::encodeName(path).toStdString());
        return orBuiltin(formats).detect(folder).format == strata::kRawBinaryFormat;
    } catch (const std::exception&) {
        return false;  // unreadable: opening it names the reason
    }
}

std::unique_ptr<Document> Document::openUrl(const QString& url, const RemoteOpenSettings& settings,
                                            QString* error, const strata::FormatRegistry* formats) {
    return fromPrepared(fetchUrl(url, settings, error, formats));
}

std::unique_ptr<Document> Document::fromPrepared(Prepared prepared) {
    if (!prepared.opened) {
        return nullptr;
    }
    auto document = std::make_unique<Document>(std::move(prepared.opened));
    if (prepared.session) {
        document->session_ = std::move(prepared.session);
        document->remoteSettings_ = std::move(prepared.settings);
        document->remoteUrl_ = std::move(prepared.url);
    }
    return document;
}

Document::Prepared Document::share() const {
    return {session_, opened_, remoteSettings_, remoteUrl_};
}

Document::Prepared Document::fetchUrl(const QString& url, const RemoteOpenSettings& settings,
                                      QString* error, const strata::FormatRegistry* formats) {
    const QString text = url.trimmed();
    try {
        std::shared_ptr<strata::RemoteSession> session = makeDocumentSession(settings);
        // The session keeps the URL's password and token; the location holds neither.
        const strata::Location location = session->locate(text.toStdString());
        const strata::ProbeInput input =
            strata::ProbeInput::fromTree(strata::fileTreeFor(location, session), location);
        const strata::Detection detection = orBuiltin(formats).detect(input);
        if (input.isDirectory && detection.format == strata::kRawBinaryFormat) {
            if (error != nullptr) {
                *error = tr("%1: a folder no format claims; File > Open Folder or Bucket lists "
                            "and validates what is in it")
                             .arg(shownUrl(text));
            }
            Prepared folder{std::move(session), nullptr, settings, text};
            folder.plainFolder = true;
            return folder;
        }
        std::unique_ptr<strata::OpenedDocument> opened = orBuiltin(formats).open(input, detection);
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
