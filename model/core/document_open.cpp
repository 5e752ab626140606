// Document::open lives apart from the rest of Document so code that builds documents from an
// OpenedDocument (tests, tools) does not pull in every format handler.
#include <QFile>

#include <exception>

#include "document.h"
#include "formats/registry/format_registry.h"

namespace strata::model {

std::unique_ptr<Document> Document::open(const QString& path, QString* error) {
    try {
        std::unique_ptr<strata::OpenedDocument> opened = strata::FormatRegistry::builtin().open(
            std::filesystem::path(QFile::encodeName(path).toStdString()));
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

}  // namespace strata::model
