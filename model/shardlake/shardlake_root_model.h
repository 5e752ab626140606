// The root browser: datasets, index versions (with the aliases that serve each) and aliases
// (with what they point at), as a three-column tree: name, details, status.
#pragma once

#include <QPointer>
#include <QStandardItemModel>

namespace strata::model {

class ShardlakeAliasEditor;
class ShardlakeSession;

class ShardlakeRootModel : public QStandardItemModel {
    Q_OBJECT
public:
    enum Column { NameColumn, DetailsColumn, StatusColumn };
    // Item data under ItemKindRole: "dataset", "index", "alias", "group"; ItemNameRole: the
    // version or alias name.
    static constexpr int ItemKindRole = Qt::UserRole + 1;
    static constexpr int ItemNameRole = Qt::UserRole + 2;

    // `editor` (may be null) supplies the aliases' current targets; the model follows its edits.
    ShardlakeRootModel(const ShardlakeSession& session, ShardlakeAliasEditor* editor,
                       QObject* parent = nullptr);

    // Rebuilds every row from the session and the editor.
    void rebuild();
    // The row of an index version or alias, for selection.
    QModelIndex indexOf(const QString& kind, const QString& name) const;

private:
    void addDatasets(QStandardItem* group);
    void addIndexes(QStandardItem* group);
    void addAliases(QStandardItem* group);
    QString aliasTarget(const QString& alias, const QString& onDisk) const;

    const ShardlakeSession& session_;
    QPointer<ShardlakeAliasEditor> editor_;
};

}  // namespace strata::model
