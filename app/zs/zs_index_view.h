// The ZS index tab: the index tree read lazily as rows are expanded. Clicking a row selects
// the block it points to; double-clicking also shows the hex view.
#pragma once

#include <QWidget>

#include <memory>

#include "formats/zs/zs_reader.h"

class QCheckBox;
class QTreeView;

namespace strata::model {
class ZsIndexModel;
}

namespace strata::gui {

class DocumentView;

class ZsIndexView : public QWidget {
    Q_OBJECT
public:
    ZsIndexView(std::shared_ptr<const zs::ZsFile> file, DocumentView& view,
                QWidget* parent = nullptr);

    model::ZsIndexModel* model() const { return model_; }
    QTreeView* tree() const { return tree_; }

private:
    void activate(const QModelIndex& index);

    DocumentView& view_;
    model::ZsIndexModel* model_ = nullptr;
    QTreeView* tree_ = nullptr;
    QCheckBox* hex_ = nullptr;
};

// Makes the hex view the current centre tab (after a double-click in a ZS tab).
void showHexTab(DocumentView& view);

}  // namespace strata::gui
