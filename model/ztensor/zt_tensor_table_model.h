// The tensor table: one row per tensor of the file with its name, format, dtype, shape,
// encoding, stored and logical size, ratio and digest status. With an editor it shows the
// pending plan: new names, new encodings, and deleted tensors struck out.
#pragma once

#include <QAbstractTableModel>
#include <QPointer>

#include <memory>
#include <vector>

#include "formats/ztensor/zt_file.h"
#include "model/ztensor/zt_tensor_jobs.h"

namespace strata::model {

class ZtEditor;

class ZtTensorTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Format, DType, Shape, Encoding, Stored, Logical, Ratio, Digest, Count };
    // Numbers for sorting (sizes, ratio); the text otherwise.
    static constexpr int SortRole = Qt::UserRole;
    // The row's tensor index in the file (stable under sorting and filtering).
    static constexpr int TensorRole = Qt::UserRole + 1;

    ZtTensorTableModel(std::shared_ptr<const strata::ztensor::ZtFile> file, ZtEditor* editor,
                       QObject* parent = nullptr);

    const strata::ztensor::ZtFile& file() const { return *file_; }
    // Fills the Digest column (one status per tensor); anything else resets it to Unknown.
    void setDigestStatuses(const std::vector<ZtDigestStatus>& statuses);
    ZtDigestStatus digestStatus(int row) const;
    // Every component region of the tensor (stored bytes), for the hex view and file map.
    std::vector<strata::Region> componentRegions(int row) const;

    static QString digestStatusText(ZtDigestStatus status);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QVariant displayData(int row, int column) const;
    QVariant sortData(int row, int column) const;
    QString encodingText(int row) const;
    std::uint64_t storedSize(int row) const;

    std::shared_ptr<const strata::ztensor::ZtFile> file_;
    QPointer<ZtEditor> editor_;
    std::vector<ZtDigestStatus> digests_;
};

}  // namespace strata::model
