// The documents of a corpus listed at open (ozdf::ListedCorpus) as a table of names and kinds,
// shown while the corpus is read for editing. Nothing per row is made before it is painted.
#pragma once

#include <QAbstractTableModel>
#include <memory>

#include "formats/ozdf/ozdf_listed_corpus.h"

namespace strata::model {

class OzdfListingModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Kind, ColumnCount };

    explicit OzdfListingModel(std::shared_ptr<const ozdf::ListedCorpus> corpus,
                              QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::shared_ptr<const ozdf::ListedCorpus> corpus_;
};

}  // namespace strata::model
