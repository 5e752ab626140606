// The index tree of a ZS file as an item model: the root index block, its entries (first key,
// child offset and length), and under each entry that points to an index block, that block's
// entries. A block is read when its row is expanded (canFetchMore/fetchMore), and entries are
// added a bounded batch at a time, so a huge index costs only what is looked at.
#pragma once

#include <QAbstractItemModel>
#include <QByteArray>

#include <cstdint>
#include <memory>
#include <vector>

#include "formats/common/region.h"
#include "formats/zs/zs_reader.h"

namespace strata::model {

class ZsIndexModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { KeyColumn, LevelColumn, OffsetColumn, LengthColumn, ColumnCount };
    enum Role { BlockOffsetRole = Qt::UserRole + 1, KeyBytesRole };

    explicit ZsIndexModel(std::shared_ptr<const zs::ZsFile> file, QObject* parent = nullptr);
    ~ZsIndexModel() override;

    void setHexRendering(bool hex);
    bool hexRendering() const { return hex_; }
    // Entries added per fetchMore (default 1000).
    void setBatchSize(int entries);

    // The block a row points to (the root row: the root index block), clipped to the file.
    strata::Region blockRegion(const QModelIndex& index) const;
    // What went wrong reading the block under `index`, empty when nothing did.
    QString errorText(const QModelIndex& index) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    bool hasChildren(const QModelIndex& parent = {}) const override;
    bool canFetchMore(const QModelIndex& parent) const override;
    void fetchMore(const QModelIndex& parent) override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    struct Entry {
        QByteArray key;
        std::uint64_t offset = 0;
        std::uint64_t length = 0;
    };
    struct Item {
        Item* parent = nullptr;
        int row = 0;
        bool isRoot = false;
        Entry entry;
        // The level the block is expected to have (its parent's minus one); the level read once
        // the block is fetched.
        int level = -1;
        bool read = false;
        QString error;
        std::vector<Entry> pending;  // entries read but not yet shown
        std::vector<std::unique_ptr<Item>> children;
    };

    Item* itemFor(const QModelIndex& index) const;
    void emitKeysChanged(const QModelIndex& parent);
    // Reads the block under `item` and parses its entries into item->pending.
    void readBlock(Item& item) const;

    std::shared_ptr<const zs::ZsFile> file_;
    std::unique_ptr<Item> top_;  // invisible; its only child is the root index block
    bool hex_ = false;
    int batch_ = 1000;
};

}  // namespace strata::model
