#include "shardlake_vector_model.h"

#include <algorithm>
#include <bit>
#include <limits>

#include "formats/common/le_reader.h"

namespace strata::model {

ShardlakeVectorModel::ShardlakeVectorModel(QObject* parent) : QAbstractTableModel(parent) {}

void ShardlakeVectorModel::setShard(strata::ByteSourcePtr source,
                                    const strata::shardlake::ShardLayout& layout) {
    beginResetModel();
    source_ = std::move(source);
    offset_ = layout.recordsOffset;
    stride_ = layout.recordSize;
    count_ = layout.layoutKnown ? layout.recordsPresent() : 0;
    components_ = layout.isPq() ? layout.pqM : layout.dims;
    hasIds_ = true;
    codes_ = layout.isPq();
    rowLabel_.clear();
    endResetModel();
}

void ShardlakeVectorModel::setVectors(strata::ByteSourcePtr source, std::uint64_t offset,
                                      std::uint64_t count, std::uint32_t dims,
                                      const QString& rowLabel) {
    beginResetModel();
    source_ = std::move(source);
    offset_ = offset;
    stride_ = std::uint64_t{dims} * 4;
    components_ = dims;
    // Only vectors that lie completely inside the file.
    const std::uint64_t room = source_ && source_->size() > offset ? source_->size() - offset : 0;
    count_ = stride_ == 0 ? 0 : std::min(count, room / stride_);
    hasIds_ = false;
    codes_ = false;
    rowLabel_ = rowLabel;
    endResetModel();
}

void ShardlakeVectorModel::clear() {
    beginResetModel();
    source_.reset();
    count_ = 0;
    components_ = 0;
    endResetModel();
}

strata::Region ShardlakeVectorModel::rowRegion(std::uint64_t row) const {
    if (!source_ || row >= count_) {
        return {};
    }
    return {source_.get(), offset_ + row * stride_, stride_};
}

std::optional<std::uint64_t> ShardlakeVectorModel::idAt(std::uint64_t row) const {
    if (!hasIds_ || !source_ || row >= count_) {
        return std::nullopt;
    }
    return strata::readLe<std::uint64_t>(*source_, offset_ + row * stride_);
}

std::vector<float> ShardlakeVectorModel::vectorAt(std::uint64_t row) const {
    if (codes_ || !source_ || row >= count_) {
        return {};
    }
    const std::uint64_t first = offset_ + row * stride_ + (hasIds_ ? 8 : 0);
    return strata::shardlake::readF32s(*source_, first, components_);
}

int ShardlakeVectorModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid()) {
        return 0;
    }
    return static_cast<int>(std::min<std::uint64_t>(count_, std::numeric_limits<int>::max()));
}

int ShardlakeVectorModel::columnCount(const QModelIndex& parent) const {
    if (parent.isValid() || !source_) {
        return 0;
    }
    const int components =
        static_cast<int>(std::min<std::uint32_t>(components_, kMaxComponentColumns));
    return components + (hasIds_ ? 1 : 0);
}

QVariant ShardlakeVectorModel::cell(std::uint64_t row, int column) const {
    const std::uint64_t base = offset_ + row * stride_;
    if (hasIds_ && column == 0) {
        const auto id = strata::readLe<std::uint64_t>(*source_, base);
        return id ? QVariant(static_cast<qulonglong>(*id)) : QVariant();
    }
    const std::uint64_t component = static_cast<std::uint64_t>(column - (hasIds_ ? 1 : 0));
    if (codes_) {
        const auto code = strata::readLe<std::uint8_t>(*source_, base + 8 + component);
        return code ? QVariant(static_cast<uint>(*code)) : QVariant();
    }
    const std::uint64_t at = base + (hasIds_ ? 8 : 0) + component * 4;
    const auto bits = strata::readLe<std::uint32_t>(*source_, at);
    return bits ? QVariant(static_cast<double>(std::bit_cast<float>(*bits))) : QVariant();
}

QVariant ShardlakeVectorModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || !source_ || static_cast<std::uint64_t>(index.row()) >= count_) {
        return {};
    }
    if (role == Qt::TextAlignmentRole) {
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    }
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole && role != Qt::EditRole) {
        return {};
    }
    const QVariant value = cell(static_cast<std::uint64_t>(index.row()), index.column());
    if (role == Qt::DisplayRole && value.typeId() == QMetaType::Double) {
        return QString::number(value.toDouble(), 'g', 7);
    }
    return value;
}

QVariant ShardlakeVectorModel::headerData(int section, Qt::Orientation orientation,
                                          int role) const {
    if (role != Qt::DisplayRole) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    if (orientation == Qt::Vertical) {
        return rowLabel_.isEmpty() ? QString::number(section)
                                   : QStringLiteral("%1 %2").arg(rowLabel_).arg(section);
    }
    if (hasIds_ && section == 0) {
        return tr("id");
    }
    const int component = section - (hasIds_ ? 1 : 0);
    const bool last = component + 1 == kMaxComponentColumns &&
                      components_ > static_cast<std::uint32_t>(kMaxComponentColumns);
    QString name = (codes_ ? QStringLiteral("c%1") : QStringLiteral("v%1")).arg(component);
    if (last) {
        name += tr(" (of %1)").arg(components_);
    }
    return name;
}

}  // namespace strata::model
