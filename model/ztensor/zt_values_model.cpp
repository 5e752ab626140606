#include "zt_values_model.h"

#include <algorithm>

#include "model/ztensor/zt_element.h"

namespace strata::model {

namespace {

std::uint64_t pagesFor(std::uint64_t count, std::uint64_t perPage) {
    return count == 0 ? 1 : (count + perPage - 1) / perPage;
}

// Rows (or columns) on `page` of `count` items.
int itemsOnPage(std::uint64_t count, std::uint64_t page, std::uint64_t perPage) {
    const std::uint64_t start = page * perPage;
    return start >= count ? 0 : static_cast<int>(std::min(perPage, count - start));
}

}  // namespace

ZtValuesModel::ZtValuesModel(QObject* parent)
    : QAbstractTableModel(parent), pendingRefresh_(new QTimer(this)) {
    pendingRefresh_->setSingleShot(true);
    pendingRefresh_->setInterval(150);
    connect(pendingRefresh_, &QTimer::timeout, this, [this] {
        if (rowCount() > 0 && columnCount() > 0) {
            emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
        }
    });
}

std::optional<std::vector<std::uint8_t>> ZtValuesModel::elementBytes(std::uint64_t element) const {
    const std::uint64_t size = ztensor::ztDTypeSize(data_->dtype);
    const std::uint64_t at = element * size;
    const strata::Region& region = data_->denseRegion;
    if (region.valid()) {
        if (at + size > region.length) {
            return std::nullopt;
        }
        if (!region.source->readyNow(region.offset + at, size)) {
            pendingRefresh_->start();
            return std::vector<std::uint8_t>{};
        }
        try {
            const strata::ByteView v = region.source->view(region.offset + at, size);
            return std::vector<std::uint8_t>(v.bytes.begin(), v.bytes.end());
        } catch (const std::exception&) {
            return std::nullopt;  // the server failed: the cell stays blank
        }
    }
    if (at + size > data_->dense.size()) {
        return std::nullopt;
    }
    const std::uint8_t* p = data_->dense.data() + at;
    return std::vector<std::uint8_t>(p, p + size);
}

void ZtValuesModel::setTensor(std::shared_ptr<const ZtTensorData> data) {
    beginResetModel();
    data_ = std::move(data);
    strides_.clear();
    if (data_) {
        // Element counts fit: the tensor's byte size was computed without overflow.
        strides_.assign(data_->shape.size(), 1);
        for (std::size_t i = data_->shape.size(); i-- > 1;) {
            strides_[i - 1] = strides_[i] * data_->shape[i];
        }
    }
    const int r = rank();
    rowAxis_ = r >= 2 ? r - 2 : 0;
    columnAxis_ = r >= 2 ? r - 1 : -1;
    resetIndices();
    rowPage_ = columnPage_ = 0;
    endResetModel();
}

int ZtValuesModel::rank() const {
    return data_ ? static_cast<int>(data_->shape.size()) : 0;
}

void ZtValuesModel::resetIndices() {
    indices_.assign(data_ ? data_->shape.size() : 0, 0);
}

std::uint64_t ZtValuesModel::extent(int axis) const {
    if (!data_ || !data_->hasDense) {
        return 0;
    }
    if (axis < 0) {
        return 1;
    }
    if (rank() == 0) {
        return 1;  // a scalar: one cell
    }
    return data_->shape[static_cast<std::size_t>(axis)];
}

bool ZtValuesModel::setAxes(int rowAxis, int columnAxis) {
    const int r = rank();
    const bool valid = r >= 2 ? rowAxis >= 0 && rowAxis < r && columnAxis >= 0 && columnAxis < r &&
                                    rowAxis != columnAxis
                              : rowAxis == 0 && columnAxis == -1;
    if (!valid) {
        return false;
    }
    beginResetModel();
    rowAxis_ = rowAxis;
    columnAxis_ = columnAxis;
    rowPage_ = columnPage_ = 0;
    endResetModel();
    return true;
}

bool ZtValuesModel::setIndex(int axis, std::uint64_t index) {
    if (axis < 0 || axis >= rank() || index >= data_->shape[static_cast<std::size_t>(axis)]) {
        return false;
    }
    indices_[static_cast<std::size_t>(axis)] = index;
    if (axis != rowAxis_ && axis != columnAxis_ && rowCount() > 0 && columnCount() > 0) {
        emit dataChanged(this->index(0, 0), this->index(rowCount() - 1, columnCount() - 1));
    }
    return true;
}

std::uint64_t ZtValuesModel::axisIndex(int axis) const {
    return axis >= 0 && axis < rank() ? indices_[static_cast<std::size_t>(axis)] : 0;
}

std::uint64_t ZtValuesModel::rowPageCount() const {
    return pagesFor(extent(rowAxis_), kPageRows);
}

std::uint64_t ZtValuesModel::columnPageCount() const {
    return pagesFor(extent(columnAxis_), kPageColumns);
}

bool ZtValuesModel::setPage(std::uint64_t rowPage, std::uint64_t columnPage) {
    if (rowPage >= rowPageCount() || columnPage >= columnPageCount()) {
        return false;
    }
    beginResetModel();
    rowPage_ = rowPage;
    columnPage_ = columnPage;
    endResetModel();
    return true;
}

int ZtValuesModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : itemsOnPage(extent(rowAxis_), rowPage_, kPageRows);
}

int ZtValuesModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : itemsOnPage(extent(columnAxis_), columnPage_, kPageColumns);
}

qint64 ZtValuesModel::elementIndex(const QModelIndex& index) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount()) {
        return -1;
    }
    if (rank() == 0) {
        return 0;
    }
    std::uint64_t linear = 0;
    for (int axis = 0; axis < rank(); ++axis) {
        std::uint64_t at = indices_[static_cast<std::size_t>(axis)];
        if (axis == rowAxis_) {
            at = rowPage_ * kPageRows + static_cast<std::uint64_t>(index.row());
        } else if (axis == columnAxis_) {
            at = columnPage_ * kPageColumns + static_cast<std::uint64_t>(index.column());
        }
        linear += at * strides_[static_cast<std::size_t>(axis)];
    }
    return static_cast<qint64>(linear);
}

QVariant ZtValuesModel::data(const QModelIndex& index, int role) const {
    if (role != Qt::DisplayRole && role != Qt::UserRole && role != Qt::TextAlignmentRole) {
        return {};
    }
    const qint64 element = elementIndex(index);
    if (element < 0) {
        return {};
    }
    if (role == Qt::TextAlignmentRole) {
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    }
    const auto bytes = elementBytes(static_cast<std::uint64_t>(element));
    if (!bytes || (bytes->empty() && role == Qt::UserRole)) {
        return {};
    }
    if (bytes->empty()) {
        return QStringLiteral("…");  // on its way from the server
    }
    if (role == Qt::UserRole) {
        return ztElementValue(data_->dtype, bytes->data());
    }
    return ztElementText(data_->dtype, bytes->data());
}

QVariant ZtValuesModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole) {
        return {};
    }
    if (orientation == Qt::Horizontal) {
        if (columnAxis_ < 0) {
            return tr("value");
        }
        return QString::number(columnPage_ * kPageColumns + static_cast<std::uint64_t>(section));
    }
    return QString::number(rowPage_ * kPageRows + static_cast<std::uint64_t>(section));
}

ZtSparseEntriesModel::ZtSparseEntriesModel(QObject* parent) : QAbstractTableModel(parent) {}

void ZtSparseEntriesModel::setTensor(std::shared_ptr<const ZtTensorData> data) {
    beginResetModel();
    data_ = data && data->sparseData ? std::move(data) : nullptr;
    page_ = 0;
    endResetModel();
}

std::uint64_t ZtSparseEntriesModel::entryCount() const {
    return data_ ? data_->sparseData->nnz : 0;
}

std::uint64_t ZtSparseEntriesModel::pageCount() const {
    return pagesFor(entryCount(), kPageRows);
}

bool ZtSparseEntriesModel::setPage(std::uint64_t page) {
    if (page >= pageCount()) {
        return false;
    }
    beginResetModel();
    page_ = page;
    endResetModel();
    return true;
}

int ZtSparseEntriesModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : itemsOnPage(entryCount(), page_, kPageRows);
}

int ZtSparseEntriesModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() || !data_ ? 0 : static_cast<int>(data_->shape.size()) + 1;
}

QVariant ZtSparseEntriesModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || !data_ || index.row() >= rowCount() ||
        (role != Qt::DisplayRole && role != Qt::UserRole)) {
        return {};
    }
    const std::uint64_t entry = page_ * kPageRows + static_cast<std::uint64_t>(index.row());
    const auto axis = static_cast<std::size_t>(index.column());
    if (axis < data_->shape.size()) {
        const std::uint64_t coordinate = ztSparseCoordinate(*data_, entry, axis);
        return role == Qt::UserRole ? QVariant(static_cast<quint64>(coordinate))
                                    : QVariant(QString::number(coordinate));
    }
    const std::uint64_t size = ztensor::ztDTypeSize(data_->dtype);
    const auto values = data_->sparseData->values.bytes();
    if ((entry + 1) * size > values.size()) {
        return {};
    }
    const std::uint8_t* p = values.data() + entry * size;
    return role == Qt::UserRole ? QVariant(ztElementValue(data_->dtype, p))
                                : QVariant(ztElementText(data_->dtype, p));
}

QVariant ZtSparseEntriesModel::headerData(int section, Qt::Orientation orientation,
                                          int role) const {
    if (role != Qt::DisplayRole) {
        return {};
    }
    if (orientation == Qt::Vertical) {
        return QString::number(page_ * kPageRows + static_cast<std::uint64_t>(section));
    }
    if (data_ && static_cast<std::size_t>(section) < data_->shape.size()) {
        return tr("axis %1").arg(section);
    }
    return tr("value");
}

}  // namespace strata::model
