// A lazy QAbstractItemModel over a Node tree. The root node is the single top-level row.
// Children are revealed in batches through canFetchMore/fetchMore, so a node with ten million
// records costs only the rows a view looks at; rowCount() is always the number revealed so far.
#pragma once

#include <QAbstractItemModel>
#include <QHash>
#include <QSet>

#include <cstdint>
#include <memory>

#include "formats/common/node.h"

namespace strata::model {

class StructureModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { NameColumn, ValueColumn, OffsetColumn, SizeColumn, StatusColumn, ColumnCount };
    enum Role {
        NodeRole = Qt::UserRole + 1,  // const strata::Node* as quintptr
        KindRole,                     // QString
        OffsetRole,                   // quint64
        LengthRole,                   // quint64
        StatusRole,                   // int (strata::Status)
        SourceRole,                   // const strata::ByteSource* as quintptr
    };

    // How many children one fetchMore reveals.
    static constexpr int kFetchBatch = 1000;

    explicit StructureModel(QObject* parent = nullptr);
    StructureModel(const strata::Node* root, QObject* parent = nullptr);
    ~StructureModel() override;

    // Builds lazy children on a worker thread before revealing them, so expanding a node of a
    // remote file never waits for a server on the GUI thread (rows appear when they are
    // built). Off by default: a local file's children are built as the view asks.
    void setBackgroundFetch(bool on);
    // True while a worker builds children.
    bool isFetching() const;

    // Replaces the tree (a reset). The tree must outlive the model or the next setRoot.
    void setRoot(const strata::Node* root);
    const strata::Node* root() const { return root_; }

    const strata::Node* nodeAt(const QModelIndex& index) const;
    // The index (column 0 unless given) of `node`, revealing rows on the way down as needed:
    // only the path's nodes are built, never the siblings in between. Invalid when `node` is
    // not in this tree.
    QModelIndex indexForNode(const strata::Node* node, int column = 0);

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& index) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    bool hasChildren(const QModelIndex& parent = {}) const override;
    bool canFetchMore(const QModelIndex& parent) const override;
    void fetchMore(const QModelIndex& parent) override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;

private:
    // Children a node can show at most (Qt rows are ints).
    static int childLimit(const strata::Node* node);
    int revealed(const strata::Node* node) const;
    void revealUpTo(const strata::Node* node, const QModelIndex& nodeIndex, int count);

    void fetchInBackground(const strata::Node* node, const QModelIndex& parent, int have);
    void onBackgroundFetched();
    void stopBackgroundFetch();

    const strata::Node* root_ = nullptr;
    struct BackgroundFetch;
    std::unique_ptr<BackgroundFetch> background_;
    // Nodes whose children could not be built on the worker (a failed read): not asked again.
    QSet<const strata::Node*> unfetchable_;
    // How many children of each node are rows so far; absent = none.
    QHash<const strata::Node*, int> revealed_;
    // Set while rows are being inserted: views and testers react to rowsAboutToBeInserted by
    // asking for more rows, which must not start a second insert inside the first.
    bool inserting_ = false;
};

// Offsets and sizes as the tree shows them ("0x1A2B", "1.5 KiB (1536)").
QString formatOffset(quint64 offset);
QString formatSize(quint64 size);

}  // namespace strata::model
