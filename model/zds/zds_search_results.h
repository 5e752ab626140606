// Searching the documents of a ZDS collection as currently edited (the formats-layer matcher
// applied to each row, edited ones included): matches stream into this table in batches from a
// background job.
#pragma once

#include <QAbstractTableModel>
#include <QPointer>
#include <QString>

#include <cstdint>
#include <string>
#include <vector>

#include "formats/zds/zds_search.h"

namespace strata::model {

class Job;
class JobRunner;
class ZdsTableModel;

struct ZdsSearchRow {
    int stored = 0;  // stored position when the search started
    std::string id;
    std::string snippet;
};

class ZdsSearchResults : public QAbstractTableModel {
    Q_OBJECT
public:
    explicit ZdsSearchResults(QObject* parent = nullptr);
    ~ZdsSearchResults() override;

    // Cancels a running search, clears the results and starts a new one; nullptr (with
    // *error) for a query that cannot run.
    Job* start(JobRunner& runner, ZdsTableModel* table, const strata::zds::ZdsQuery& query,
               QString* error = nullptr);
    void cancel();
    void clear();
    const std::vector<ZdsSearchRow>& hits() const { return hits_; }
    // The stored position of hit `row` in the table now (found by id when rows moved), or -1.
    int storedPosition(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    static constexpr std::size_t kMaxHits = 100000;

signals:
    // Every batch of hits has arrived; `complete` is false when the search was cut short.
    void searchFinished(int hits, bool complete);

private:
    void append(std::vector<ZdsSearchRow> hits);

    QPointer<ZdsTableModel> table_;
    QPointer<Job> job_;
    std::uint64_t generation_ = 0;
    std::vector<ZdsSearchRow> hits_;
};

}  // namespace strata::model
