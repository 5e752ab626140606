// The documents of an OZDF session as a table: name, kind, block, item and paragraph counts,
// text size and status. Sort with a QSortFilterProxyModel on kSortRole (numbers sort as numbers).
// What a row shows is computed once per document change, not on every paint or sort
// comparison: a corpus of 10,000 documents sorts and filters without walking its text.
#pragma once

#include <QAbstractTableModel>
#include <vector>

#include "model/ozdf/ozdf_session.h"

namespace strata::model {

class OzdfCorpusModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Kind, Blocks, Items, Paragraphs, TextBytes, Status, ColumnCount };
    static constexpr int kSortRole = Qt::UserRole + 1;

    explicit OzdfCorpusModel(OzdfSession& session, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    struct Counts {
        qint64 blocks = 0;
        qint64 items = 0;
        qint64 paragraphs = 0;
        qint64 textBytes = 0;
    };
    static Counts countsOf(const ozdf::Document& document);

private:
    struct Row {
        QString name;
        Counts counts;
        bool accepted = true;
        bool directory = false;
        bool edited = false;
    };
    // What row `index` shows; data() reads only rows_, never the session, whose indexes run
    // ahead of the rows while a document is being inserted or removed.
    Row rowOf(int index) const;
    void rebuild();

    OzdfSession& session_;
    std::vector<Row> rows_;  // one per document of the session, in session order
};

}  // namespace strata::model
