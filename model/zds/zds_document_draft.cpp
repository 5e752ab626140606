#include "zds_document_draft.h"

#include <QCoreApplication>

#include "zds_edit_commands.h"
#include "zds_table_model.h"

namespace strata::model {

int findZdsDocument(const ZdsTableModel& model, const std::string& id, int hint) {
    const int count = model.documentCount();
    if (hint >= 0 && hint < count && model.id(hint) == id) {
        return hint;
    }
    for (int stored = 0; stored < count; ++stored) {
        if (model.id(stored) == id) {
            return stored;
        }
    }
    return -1;
}

TextDraft::Applier zdsDraftApplier(QUndoStack* stack, ZdsTableModel* model, std::string id,
                                   int storedHint) {
    return [stack, model, id = std::move(id), storedHint](const QString& text) -> QString {
        if (!model->loaded()) {
            return QCoreApplication::translate("ZdsDraft", "the documents are still being listed");
        }
        const int stored = findZdsDocument(*model, id, storedHint);
        if (stored < 0) {
            return QCoreApplication::translate("ZdsDraft", "document %1 no longer exists")
                .arg(QString::fromStdString(id));
        }
        return replaceZdsDocument(stack, model, stored, text.toStdString());
    };
}

QString zdsDraftKey(const ZdsTableModel& model, const std::string& id) {
    return QString::fromStdString(model.collection().name()) + u'/' + QString::fromStdString(id);
}

}  // namespace strata::model
