#include "zt_manifest_models.h"

#include <QList>

#include <utility>
#include <vector>

#include "model/ztensor/zt_editor.h"

namespace strata::model {

namespace {

QString typeName(const nlohmann::json& value) {
    switch (value.type()) {
        case nlohmann::json::value_t::object:
            return QStringLiteral("map");
        case nlohmann::json::value_t::array:
            return QStringLiteral("array");
        case nlohmann::json::value_t::string:
            return QStringLiteral("text");
        case nlohmann::json::value_t::boolean:
            return QStringLiteral("bool");
        case nlohmann::json::value_t::number_unsigned:
            return QStringLiteral("unsigned");
        case nlohmann::json::value_t::number_integer:
            return QStringLiteral("integer");
        case nlohmann::json::value_t::number_float:
            return QStringLiteral("float");
        case nlohmann::json::value_t::binary:
            return QStringLiteral("bytes");
        case nlohmann::json::value_t::null:
            return QStringLiteral("null");
        default:
            return QStringLiteral("?");
    }
}

QString valueText(const nlohmann::json& value) {
    if (value.is_object() || value.is_array()) {
        return value.size() == 1 ? QObject::tr("1 entry")
                                 : QObject::tr("%1 entries").arg(value.size());
    }
    if (value.is_string()) {
        return QString::fromStdString(value.get<std::string>());
    }
    if (value.is_binary()) {
        return QObject::tr("%1 bytes").arg(value.get_binary().size());
    }
    return QString::fromStdString(value.dump());
}

QList<QStandardItem*> makeRow(const QString& key, const nlohmann::json& value) {
    auto* keyItem = new QStandardItem(key);
    auto* typeItem = new QStandardItem(typeName(value));
    auto* valueItem = new QStandardItem(valueText(value));
    for (auto* item : {keyItem, typeItem, valueItem}) {
        item->setEditable(false);
    }
    return {keyItem, typeItem, valueItem};
}

// Adds the children of `value` below `item`, breadth by breadth without recursion, so a deep
// manifest cannot exhaust the stack (the reader has capped the depth anyway).
void addChildren(QStandardItem* root, const nlohmann::json& value) {
    std::vector<std::pair<QStandardItem*, const nlohmann::json*>> pending{{root, &value}};
    while (!pending.empty()) {
        // Plain variables, not a structured binding: the lambda below captures them.
        QStandardItem* item = pending.back().first;
        const nlohmann::json* json = pending.back().second;
        pending.pop_back();
        std::size_t shown = 0;
        auto add = [&](const QString& key, const nlohmann::json& child) {
            QList<QStandardItem*> row = makeRow(key, child);
            item->appendRow(row);
            if (child.is_object() || child.is_array()) {
                pending.emplace_back(row.front(), &child);
            }
        };
        if (json->is_object()) {
            for (auto it = json->begin(); it != json->end() && shown < kZtManifestTreeChildLimit;
                 ++it, ++shown) {
                add(QString::fromStdString(it.key()), it.value());
            }
        } else if (json->is_array()) {
            for (; shown < json->size() && shown < kZtManifestTreeChildLimit; ++shown) {
                add(QString::number(shown), (*json)[shown]);
            }
        }
        if (json->size() > shown) {
            item->appendRow(makeRow(QObject::tr("… %1 more").arg(json->size() - shown), {}));
        }
    }
}

}  // namespace

QStandardItemModel* ztBuildManifestTree(const nlohmann::json& manifest, QObject* parent) {
    auto* model = new QStandardItemModel(parent);
    model->setHorizontalHeaderLabels(
        {QObject::tr("Key"), QObject::tr("Type"), QObject::tr("Value")});
    addChildren(model->invisibleRootItem(), manifest);
    return model;
}

ZtAttributesModel::ZtAttributesModel(std::shared_ptr<const ztensor::ZtFile> file, ZtEditor* editor,
                                     QObject* parent)
    : QAbstractTableModel(parent), file_(std::move(file)), editor_(editor) {
    if (editor != nullptr) {
        connect(editor, &ZtEditor::planChanged, this, [this] {
            beginResetModel();
            endResetModel();
        });
    }
}

const std::vector<std::pair<std::string, std::string>>& ZtAttributesModel::attributes() const {
    return editor_ ? editor_->plan().attributes : file_->attributes();
}

int ZtAttributesModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(attributes().size());
}

int ZtAttributesModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : 2;
}

QVariant ZtAttributesModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() ||
        (role != Qt::DisplayRole && role != Qt::EditRole)) {
        return {};
    }
    const auto& [key, value] = attributes()[static_cast<std::size_t>(index.row())];
    return QString::fromStdString(index.column() == 0 ? key : value);
}

bool ZtAttributesModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (!editor_ || !index.isValid() || role != Qt::EditRole || index.row() >= rowCount()) {
        return false;
    }
    const QString key =
        QString::fromStdString(attributes()[static_cast<std::size_t>(index.row())].first);
    lastError_.clear();
    // The editor's planChanged resets this model.
    return index.column() == 0 ? editor_->renameAttribute(key, value.toString(), &lastError_)
                               : editor_->setAttribute(key, value.toString(), &lastError_);
}

Qt::ItemFlags ZtAttributesModel::flags(const QModelIndex& index) const {
    Qt::ItemFlags flags = QAbstractTableModel::flags(index);
    return editor_ ? flags | Qt::ItemIsEditable : flags;
}

QVariant ZtAttributesModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    return section == 0 ? tr("Key") : tr("Value");
}

}  // namespace strata::model
