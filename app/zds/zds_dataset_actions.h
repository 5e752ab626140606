// The Dataset ▾ menu of a ZDS document: pack, unpack, rebuild the index, compact and convert,
// each run as a job of the view.
#pragma once

#include <QString>

#include <functional>

#include "model/zds/zds_dataset_jobs.h"

class QMenu;

namespace strata::gui {

class DocumentView;

// Adds the dataset jobs (pack, unpack, rebuild index, compact, convert) for the view's dataset
// to `menu`; each runs as a tracked job of the view. A job that rewrote the dataset in place
// asks the window to reopen it (DocumentView::reloadRequested).
void addZdsActions(QMenu* menu, DocumentView& view);

// Where pack writes its archive / unpack its folder: asks the user with a file dialog, or, when
// set, this function instead (tests). An empty answer cancels.
using ZdsJobTargetPicker = std::function<QString(model::ZdsDatasetJob kind, const QString& path)>;
void setZdsJobTargetPicker(ZdsJobTargetPicker picker);

}  // namespace strata::gui
