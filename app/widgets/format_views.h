// Format-specific views. Once a document is open, its format adds its own tabs (header panel,
// record browser, tensor table, editors) to the DocumentView's centre, beside the hex view.
// Each format keeps its views in app/<format>/ and registers one install function here, and the
// builders of new files it offers (File > New); this library names no format (the built-in list
// is app/gui/builtin_format_views.h).
#pragma once

#include <QIcon>
#include <QString>

#include <functional>
#include <utility>
#include <vector>

#include "formats/registry/format_handler.h"
#include "formats/registry/format_registry.h"

class QStyle;
class QWidget;

namespace strata::model {
class JobRunner;
}

namespace strata::gui {

class DocumentView;

class FormatViews {
public:
    using Install = std::function<void(DocumentView&)>;
    // The views of documents of `format`; a later registration for the same format replaces it.
    void add(FormatId format, Install install);
    // Installs the views registered for the view's document format (none: nothing).
    void install(DocumentView& view) const;

    // A builder of new files of a format (File > New): asks what to build, runs it as a job on
    // `runner` and calls `created` with the new file's path.
    using NewFile = std::function<void(QWidget* parent, model::JobRunner& runner,
                                       std::function<void(const QString&)> created)>;
    struct NewFileAction {
        FormatId format;
        QString label;  // the menu text, with its mnemonic
        NewFile run;
    };
    void addNewFile(FormatId format, QString label, NewFile run);
    const std::vector<NewFileAction>& newFileActions() const { return newFiles_; }

    // The icon files and entries of `format` show with (the start page, the Browser): a
    // resource or file path; a later one for the same format replaces it.
    void setIcon(FormatId format, QString path);
    // The icon registered for `format`; null when none was, or its file is missing (a
    // library user without the compiled-in resources).
    QIcon icon(FormatId format) const;

private:
    std::vector<std::pair<FormatId, Install>> installs_;
    std::vector<NewFileAction> newFiles_;
    std::vector<std::pair<FormatId, QString>> icons_;
};

// The icon of what `location` names, without reading it: the registered icon of the format
// whose file-dialog patterns its name matches, else a remote location's, a folder's or a
// file's from the theme (the style's as fallback).
QIcon locationIcon(const FormatViews& views, const FormatRegistry& formats, const QString& location,
                   const QStyle* style);
// The registered icon of the format called `formatName` (formatName's spelling, as scans
// report it), else a folder's or a file's.
QIcon formatIcon(const FormatViews& views, const FormatRegistry& formats, const QString& formatName,
                 bool isFolder, const QStyle* style);

}  // namespace strata::gui
