// The Shardlake root browser tab: datasets, index versions and aliases of a storage root, and
// the alias editor (point an alias at another index version; undoable, saved with File > Save).
#pragma once

#include <QPointer>
#include <QWidget>

class QComboBox;
class QLabel;
class QPushButton;
class QTreeView;

namespace strata::model {
class ShardlakeAliasEditor;
class ShardlakeRootModel;
class ShardlakeSession;
}  // namespace strata::model

namespace strata::gui {

class ShardlakeRootBrowser : public QWidget {
    Q_OBJECT
public:
    ShardlakeRootBrowser(const model::ShardlakeSession& session,
                         model::ShardlakeAliasEditor* editor, QWidget* parent = nullptr);

    model::ShardlakeRootModel* model() const { return model_; }
    QTreeView* tree() const { return tree_; }
    QComboBox* aliasBox() const { return aliasBox_; }
    QComboBox* versionBox() const { return versionBox_; }
    QPushButton* buildButton() const { return buildButton_; }
    // Points the alias named in the alias box at the version box's choice (an undoable edit).
    bool applyAlias();

signals:
    // An index version was double-clicked (the views open it in the Shards tab).
    void indexActivated(const QString& version);
    void buildRequested();

private:
    void onCurrentChanged();
    void expandAll();

    QPointer<model::ShardlakeAliasEditor> editor_;
    model::ShardlakeRootModel* model_ = nullptr;
    QTreeView* tree_ = nullptr;
    QComboBox* aliasBox_ = nullptr;
    QComboBox* versionBox_ = nullptr;
    QPushButton* applyButton_ = nullptr;
    QPushButton* buildButton_ = nullptr;
    QLabel* message_ = nullptr;
};

}  // namespace strata::gui
