// Vectors of a Shardlake file as a virtual table: the records of a shard (id, then the f32
// components or the PQ codes) or a list of centroids. Nothing is read up front; each cell reads
// its own few bytes when the view asks for it, so only visible rows are ever touched.
#pragma once

#include <QAbstractTableModel>
#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

#include "formats/common/region.h"
#include "formats/shardlake/shardlake_binary.h"

namespace strata::model {

class ShardlakeVectorModel : public QAbstractTableModel {
    Q_OBJECT
public:
    // Columns shown at most; wider vectors say so in the last header.
    static constexpr int kMaxComponentColumns = 512;

    explicit ShardlakeVectorModel(QObject* parent = nullptr);

    // The records of a shard whose layout is known: id column, then dims components (raw) or
    // pq_m codes (PQ).
    void setShard(strata::ByteSourcePtr source, const strata::shardlake::ShardLayout& layout);
    // `count` vectors of `dims` f32 back to back from `offset` (quantizer centroids); rows are
    // labelled "<rowLabel> i".
    void setVectors(strata::ByteSourcePtr source, std::uint64_t offset, std::uint64_t count,
                    std::uint32_t dims, const QString& rowLabel);
    void clear();

    bool hasIds() const { return hasIds_; }
    bool isCodes() const { return codes_; }
    std::uint64_t vectorCount() const { return count_; }
    std::uint32_t components() const { return components_; }
    // Bytes of one row (the whole record), in this model's source.
    strata::Region rowRegion(std::uint64_t row) const;
    std::optional<std::uint64_t> idAt(std::uint64_t row) const;
    // The f32 components of a row (empty for PQ codes or a row out of range).
    std::vector<float> vectorAt(std::uint64_t row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QVariant cell(std::uint64_t row, int column) const;

    strata::ByteSourcePtr source_;
    std::uint64_t offset_ = 0;
    std::uint64_t stride_ = 0;
    std::uint64_t count_ = 0;
    std::uint32_t components_ = 0;
    bool hasIds_ = false;
    bool codes_ = false;
    QString rowLabel_;
};

}  // namespace strata::model
