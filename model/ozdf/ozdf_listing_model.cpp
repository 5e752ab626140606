#include "ozdf_listing_model.h"

#include <limits>

namespace strata::model {

OzdfListingModel::OzdfListingModel(std::shared_ptr<const ozdf::ListedCorpus> corpus,
                                   QObject* parent)
    : QAbstractTableModel(parent), corpus_(std::move(corpus)) {}

int OzdfListingModel::rowCount(const QModelIndex& parent) const {
    // A view holds int rows: a corpus beyond that lists its first 2^31 - 1 documents.
    constexpr std::size_t kMaxRows = std::numeric_limits<int>::max();
    return parent.isValid() ? 0 : static_cast<int>(std::min(corpus_->size(), kMaxRows));
}

int OzdfListingModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant OzdfListingModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || role != Qt::DisplayRole) {
        return {};
    }
    const auto row = static_cast<std::size_t>(index.row());
    switch (index.column()) {
        case Name:
            return QString::fromStdString(corpus_->filename(row));
        case Kind:
            return corpus_->listing().entries[row].isDirectory ? tr("directory") : tr("standalone");
        default:
            return {};
    }
}

QVariant OzdfListingModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    return section == Name ? tr("Document") : section == Kind ? tr("Kind") : QVariant();
}

}  // namespace strata::model
