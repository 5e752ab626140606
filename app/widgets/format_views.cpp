#include "format_views.h"

#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QStyle>

#include <algorithm>

#include "document_view.h"
#include "model/core/document.h"
#include "model/core/remote_access.h"

namespace strata::gui {

void FormatViews::add(FormatId format, Install install) {
    const auto same = [format](const auto& entry) { return entry.first == format; };
    installs_.erase(std::remove_if(installs_.begin(), installs_.end(), same), installs_.end());
    installs_.emplace_back(format, std::move(install));
}

void FormatViews::install(DocumentView& view) const {
    const FormatId format = view.document()->format();
    for (const auto& [registered, install] : installs_) {
        if (registered == format) {
            install(view);
            return;
        }
    }
}

void FormatViews::addNewFile(FormatId format, QString label, NewFile run) {
    newFiles_.push_back({format, std::move(label), std::move(run)});
}

void FormatViews::setIcon(FormatId format, QString path) {
    const auto same = [format](const auto& entry) { return entry.first == format; };
    icons_.erase(std::remove_if(icons_.begin(), icons_.end(), same), icons_.end());
    icons_.emplace_back(format, std::move(path));
}

QIcon FormatViews::icon(FormatId format) const {
    for (const auto& [registered, path] : icons_) {
        if (registered == format && QFile::exists(path)) {
            return QIcon(path);
        }
    }
    return {};
}

namespace {

QIcon fileOrFolderIcon(bool isFolder, const QStyle* style) {
    return isFolder
               ? QIcon::fromTheme(QStringLiteral("folder"), style->standardIcon(QStyle::SP_DirIcon))
               : QIcon::fromTheme(QStringLiteral("text-x-generic"),
                                  style->standardIcon(QStyle::SP_FileIcon));
}

// The format whose file-dialog patterns ("*.zs") match `fileName`, if any.
std::optional<FormatId> formatByName(const FormatRegistry& formats, const QString& fileName) {
    for (const FormatHandler* handler : formats.handlers()) {
        for (const std::string& pattern : handler->fileDialogPatterns()) {
            const QRegularExpression match(
                QRegularExpression::wildcardToRegularExpression(QString::fromStdString(pattern)),
                QRegularExpression::CaseInsensitiveOption);
            if (match.match(fileName).hasMatch()) {
                return handler->id();
            }
        }
    }
    return std::nullopt;
}

}  // namespace

QIcon locationIcon(const FormatViews& views, const FormatRegistry& formats, const QString& location,
                   const QStyle* style) {
    const QString name = location.section(QLatin1Char('/'), -1, -1, QString::SectionSkipEmpty);
    if (const std::optional<FormatId> format = formatByName(formats, name)) {
        if (const QIcon icon = views.icon(*format); !icon.isNull()) {
            return icon;
        }
    }
    if (model::isRemoteUrl(location)) {
        return QIcon::fromTheme(QStringLiteral("network-server"),
                                style->standardIcon(QStyle::SP_DriveNetIcon));
    }
    return fileOrFolderIcon(QFileInfo(location).isDir(), style);
}

QIcon formatIcon(const FormatViews& views, const FormatRegistry& formats, const QString& formatName,
                 bool isFolder, const QStyle* style) {
    for (const FormatHandler* handler : formats.handlers()) {
        const std::string_view name = strata::formatName(handler->id());
        if (formatName == QLatin1String(name.data(), qsizetype(name.size()))) {
            if (const QIcon icon = views.icon(handler->id()); !icon.isNull()) {
                return icon;
            }
        }
    }
    return fileOrFolderIcon(isFolder, style);
}

}  // namespace strata::gui
