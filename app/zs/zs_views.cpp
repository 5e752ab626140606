// The ZS tabs of a DocumentView: header, index tree, records and the per-block chart.
#include "zs_views.h"

#include <QCoreApplication>
#include <QTabWidget>

#include "app/widgets/document_view.h"
#include "app/widgets/format_views.h"
#include "formats/zs/zs_format.h"
#include "model/core/document.h"
#include "new_zs_file_dialog.h"
#include "zs_chart_view.h"
#include "zs_header_panel.h"
#include "zs_index_view.h"
#include "zs_records_view.h"

namespace strata::gui {

static void installZsViews(DocumentView& view) {
    const auto opened = view.document()->opened();
    if (!opened || opened->sources.empty()) {
        return;
    }
    // The reader the open built (its block cache is shared with the tree and validation).
    const std::shared_ptr<const zs::ZsFile> file = zs::openedFile(*opened);
    if (!file) {
        return;
    }
    QTabWidget* tabs = view.centreTabs();
    tabs->addTab(new ZsHeaderPanel(file, view, tabs), QObject::tr("ZS Header"));
    if (!file->readable()) {
        return;  // nothing past the header can be read
    }
    tabs->addTab(new ZsIndexView(file, view, tabs), QObject::tr("Index"));
    auto* records = new ZsRecordsView(file, view, tabs);
    tabs->addTab(records, QObject::tr("Records"));
    tabs->addTab(new ZsChartView(file, view, tabs), QObject::tr("Blocks Chart"));
    // The records are what a ZS file holds: show them first.
    tabs->setCurrentWidget(records);
}

void registerZsViews(FormatViews& views) {
    views.add(kZsFormat, installZsViews);
    views.setIcon(kZsFormat, QStringLiteral(":/icons/application-x-zs.svg"));
    views.addNewFile(kZsFormat, QCoreApplication::translate("ZsViews", "ZS File from &Text…"),
                     showNewZsFileDialog);
}

}  // namespace strata::gui
