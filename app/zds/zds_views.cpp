// The ZDS tabs of a DocumentView: the document table with its editor, search and jobs.
#include "zds_views.h"

#include <QTabWidget>

#include "app/widgets/document_view.h"
#include "app/widgets/format_views.h"
#include "formats/zds/zds_format.h"
#include "formats/zds/zds_reader.h"
#include "model/core/document.h"
#include "model/core/job.h"
#include "model/zds/zds_editor.h"
#include "zds_documents_tab.h"

namespace strata::gui {

static void installZdsViews(DocumentView& view) {
    model::Document* document = view.document();
    if (document->root() == nullptr || document->root()->kind() != "zds.dataset") {
        return;  // a lone index file or an archive that does not open: bytes only
    }
    // The dataset the ZDS handler parsed when it opened the document (its tree, validator and
    // the document's sources are built on it).
    const std::shared_ptr<const zds::ZdsDataset> dataset =
        document->opened() != nullptr ? zds::openedDataset(*document->opened()) : nullptr;
    if (dataset == nullptr) {
        emit view.message(QObject::tr("The document table is not available."));
        return;
    }
    auto* editor = new model::ZdsEditor(*document, dataset);
    document->setEditor(editor);
    for (model::Job* job : editor->startLoading(*view.jobRunner())) {
        view.trackJob(job);
    }
    auto* tab = new ZdsDocumentsTab(view, editor);
    tab->setObjectName(QStringLiteral("zdsDocumentsTab"));
    // Browsing and fixing documents is what a ZDS dataset is opened for: show them first.
    view.centreTabs()->setCurrentIndex(view.centreTabs()->addTab(tab, QObject::tr("Documents")));
}

void registerZdsViews(FormatViews& views) {
    views.add(kZdsFormat, installZdsViews);
    views.setIcon(kZdsFormat, QStringLiteral(":/icons/application-x-zds.svg"));
}

}  // namespace strata::gui
