// The zTensor manifest as a tree (key, type, value) and the attributes as an editable table
// (key, value) whose edits go through the ZtEditor's undo commands.
#pragma once

#include <QAbstractTableModel>
#include <QPointer>
#include <QStandardItemModel>

#include <memory>

#include <nlohmann/json.hpp>

#include "formats/ztensor/zt_file.h"

namespace strata::model {

class ZtEditor;

// Containers with more children than this show the first ones and a "… n more" row.
inline constexpr std::size_t kZtManifestTreeChildLimit = 10'000;

// Columns: key, type (map, array, text, unsigned, …), value (scalars; sizes for containers).
QStandardItemModel* ztBuildManifestTree(const nlohmann::json& manifest, QObject* parent);

class ZtAttributesModel : public QAbstractTableModel {
    Q_OBJECT
public:
    // Read-only without an editor.
    ZtAttributesModel(std::shared_ptr<const strata::ztensor::ZtFile> file, ZtEditor* editor,
                      QObject* parent = nullptr);

    // The last refused edit's reason.
    QString lastError() const { return lastError_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    const std::vector<std::pair<std::string, std::string>>& attributes() const;

    std::shared_ptr<const strata::ztensor::ZtFile> file_;
    QPointer<ZtEditor> editor_;
    QString lastError_;
};

}  // namespace strata::model
