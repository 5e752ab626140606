// The zTensor tabs of a DocumentView: Tensors (table and edits), Values, Statistics, Manifest.
// The document gets a ZtEditor when Strata can rewrite the file (v1 with a decoded manifest).
#include "ztensor_views.h"

#include <QTabWidget>

#include "app/widgets/document_view.h"
#include "app/widgets/format_views.h"
#include "app/ztensor/zt_manifest_tab.h"
#include "app/ztensor/zt_stats_tab.h"
#include "app/ztensor/zt_tensors_tab.h"
#include "app/ztensor/zt_values_tab.h"
#include "formats/ztensor/zt_file.h"
#include "formats/ztensor/ztensor_format.h"
#include "model/core/document.h"
#include "model/ztensor/zt_editor.h"

namespace strata::gui {

static void installZtensorViews(DocumentView& view) {
    model::Document* document = view.document();
    const auto opened = document->opened();
    if (!opened || opened->sources.empty()) {
        return;
    }
    // The header and manifest the open read; its regions point into the document's source.
    std::shared_ptr<const ztensor::ZtFile> file = ztensor::openedFile(*opened);
    if (!file) {
        return;
    }
    model::ZtEditor* editor = nullptr;
    if (!document->isReadOnly() && file->manifestDecoded() &&
        (file->layout() == ztensor::ZtLayout::V1_0 || file->layout() == ztensor::ZtLayout::V1_1)) {
        editor = new model::ZtEditor(*document, file);
        document->setEditor(editor);
    }
    QTabWidget* tabs = view.centreTabs();
    auto* tensors = new ZtTensorsTab(view, file, editor, tabs);
    auto* values = new ZtValuesTab(view, file, tabs);
    auto* stats = new ZtStatsTab(view, file, tabs);
    auto* manifest = new ZtManifestTab(file, editor, tabs);
    tensors->setObjectName(QStringLiteral("ztTensorsTab"));
    values->setObjectName(QStringLiteral("ztValuesTab"));
    stats->setObjectName(QStringLiteral("ztStatsTab"));
    manifest->setObjectName(QStringLiteral("ztManifestTab"));
    tabs->addTab(tensors, QObject::tr("Tensors"));
    tabs->addTab(values, QObject::tr("Values"));
    tabs->addTab(stats, QObject::tr("Statistics"));
    tabs->addTab(manifest, QObject::tr("Manifest"));
    // The table is what people open a checkpoint for.
    tabs->setCurrentWidget(tensors);
    QObject::connect(tensors, &ZtTensorsTab::tensorChosen, values, &ZtValuesTab::showTensor);
    QObject::connect(tensors, &ZtTensorsTab::tensorChosen, stats, &ZtStatsTab::setTensor);
}

void registerZtensorViews(FormatViews& views) {
    views.add(kZTensorFormat, installZtensorViews);
    views.setIcon(kZTensorFormat, QStringLiteral(":/icons/application-x-ztensor.svg"));
}

}  // namespace strata::gui
