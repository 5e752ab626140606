// Virtual table models of a tensor's values: a 2-D slice of the dense values (any two axes,
// the other axes fixed at chosen indices), and a sparse tensor's non-zeros. Both are paged so a
// page never has more rows or columns than a view can handle; cells are read on demand.
#pragma once

#include <QAbstractTableModel>
#include <QTimer>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "model/ztensor/zt_tensor_data.h"

namespace strata::model {

class ZtValuesModel : public QAbstractTableModel {
    Q_OBJECT
public:
    static constexpr std::uint64_t kPageRows = 100'000;
    static constexpr std::uint64_t kPageColumns = 1'000;

    explicit ZtValuesModel(QObject* parent = nullptr);

    // Shows the last two axes (a 1-D tensor as one column, a scalar as one cell), page 0.
    void setTensor(std::shared_ptr<const ZtTensorData> data);
    const std::shared_ptr<const ZtTensorData>& tensor() const { return data_; }

    int rank() const;
    int rowAxis() const { return rowAxis_; }
    // -1 when the slice has a single column (rank < 2).
    int columnAxis() const { return columnAxis_; }
    // Picks the axes shown as rows and columns (different, inside the rank); resets the pages.
    bool setAxes(int rowAxis, int columnAxis);
    // The index of a fixed axis (ignored for the shown axes).
    bool setIndex(int axis, std::uint64_t index);
    std::uint64_t axisIndex(int axis) const;

    std::uint64_t rowPage() const { return rowPage_; }
    std::uint64_t columnPage() const { return columnPage_; }
    std::uint64_t rowPageCount() const;
    std::uint64_t columnPageCount() const;
    bool setPage(std::uint64_t rowPage, std::uint64_t columnPage);

    // The row-major element index the cell shows, or -1.
    qint64 elementIndex(const QModelIndex& index) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    // DisplayRole: the value as text ("…" while a remote file's bytes are on their way, the
    // cells updating when they have come); Qt::UserRole: as a double.
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    // True while shown cells wait for bytes from a server.
    bool isWaitingForBytes() const { return pendingRefresh_->isActive(); }
    // Absolute indices along the axis, so paging keeps the labels true.
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::uint64_t extent(int axis) const;
    void resetIndices();
    // The element's bytes (from memory, or from a remote file when they have come).
    std::optional<std::vector<std::uint8_t>> elementBytes(std::uint64_t element) const;

    std::shared_ptr<const ZtTensorData> data_;
    QTimer* pendingRefresh_ = nullptr;
    std::vector<std::uint64_t> strides_;
    std::vector<std::uint64_t> indices_;
    int rowAxis_ = 0;
    int columnAxis_ = -1;
    std::uint64_t rowPage_ = 0;
    std::uint64_t columnPage_ = 0;
};

// A sparse tensor's stored entries: one row per non-zero, one column per axis, then the value.
class ZtSparseEntriesModel : public QAbstractTableModel {
    Q_OBJECT
public:
    static constexpr std::uint64_t kPageRows = 100'000;

    explicit ZtSparseEntriesModel(QObject* parent = nullptr);

    // Shows nothing unless `data` is sparse and loaded.
    void setTensor(std::shared_ptr<const ZtTensorData> data);
    std::uint64_t entryCount() const;
    std::uint64_t page() const { return page_; }
    std::uint64_t pageCount() const;
    bool setPage(std::uint64_t page);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const ZtTensorData> data_;
    std::uint64_t page_ = 0;
};

}  // namespace strata::model
