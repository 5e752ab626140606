// The zTensor "Manifest" tab: the CBOR manifest as a tree (key, type, value) and the attributes
// as a table that edits them (each change one undo step) when the file can be rewritten.
#pragma once

#include <QPointer>
#include <QWidget>

#include <memory>

#include "formats/ztensor/zt_file.h"

class QLabel;
class QTableView;
class QTreeView;

namespace strata::model {
class ZtAttributesModel;
class ZtEditor;
}  // namespace strata::model

namespace strata::gui {

class ZtManifestTab : public QWidget {
    Q_OBJECT
public:
    ZtManifestTab(std::shared_ptr<const strata::ztensor::ZtFile> file, model::ZtEditor* editor,
                  QWidget* parent = nullptr);

    QTreeView* treeView() const { return tree_; }
    QTableView* attributesView() const { return attributes_; }
    model::ZtAttributesModel* attributesModel() const { return attributesModel_; }

private:
    void addAttribute();
    void removeAttribute();

    std::shared_ptr<const strata::ztensor::ZtFile> file_;
    QPointer<model::ZtEditor> editor_;
    QTreeView* tree_ = nullptr;
    QTableView* attributes_ = nullptr;
    model::ZtAttributesModel* attributesModel_ = nullptr;
    QLabel* message_ = nullptr;
};

}  // namespace strata::gui
