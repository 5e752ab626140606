// Nearest-neighbour queries from the GUI: the query is a pasted JSON array or the vector of a
// record found by id; the search is the formats layer's (same results as strata-cli), and each
// hit is located in its shard so the results table can select the record's bytes.
#pragma once

#include <QAbstractTableModel>
#include <QString>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "formats/shardlake/shardlake_search.h"
#include "formats/shardlake/shardlake_store.h"

namespace strata::model {

class Job;
class JobRunner;

struct ShardlakeQuerySpec {
    // The query vector; when empty, the vector of the record with `id`.
    std::vector<float> vector;
    std::optional<std::uint64_t> id;
    // Where to look for `id` when the index's shards hold PQ codes (the dataset's vectors).
    std::string vectorsKey;
    std::optional<strata::shardlake::Metric> metric;  // the index's own when unset
    std::size_t k = 10;
    std::size_t nprobe = 0;  // 0 = every shard (exact over the index)
};

struct ShardlakeQueryHit {
    std::uint64_t id = 0;
    float score = 0;
    int shard = -1;  // position in the index's shards; -1 when not found
    std::uint64_t record = 0;
};

struct ShardlakeQueryOutcome {
    std::vector<ShardlakeQueryHit> hits;
    std::vector<float> query;
    std::size_t probed = 0;
    QString error;
    bool cancelled = false;
};

// "[0.5, -1, 2e-3]" → floats; nullopt with *error for anything else (an empty array too).
std::optional<std::vector<float>> parseQueryVector(const QString& text, QString* error);

// The raw components of the record with `id`: from the index's raw shards, else from the
// dataset vectors at `vectorsKey`. Empty with *error when it is not there.
std::vector<float> findVectorById(const strata::shardlake::LoadedIndex& index,
                                  const strata::shardlake::Store& store,
                                  const std::string& vectorsKey, std::uint64_t id, QString* error,
                                  const strata::CancelToken* cancel = nullptr);

ShardlakeQueryOutcome runShardlakeQuery(const strata::shardlake::LoadedIndex& index,
                                        const strata::shardlake::Store& store,
                                        const ShardlakeQuerySpec& spec,
                                        const strata::CancelToken* cancel = nullptr);

// Runs the query on the runner; `done` gets the outcome on the GUI thread.
Job* startShardlakeQueryJob(JobRunner& runner,
                            std::shared_ptr<const strata::shardlake::LoadedIndex> index,
                            std::shared_ptr<const strata::shardlake::Store> store,
                            ShardlakeQuerySpec spec,
                            std::function<void(const ShardlakeQueryOutcome&)> done);

// Results as a table: rank, id, score, shard, record.
class ShardlakeQueryResultsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { RankColumn, IdColumn, ScoreColumn, ShardColumn, RecordColumn, ColumnCount };

    explicit ShardlakeQueryResultsModel(QObject* parent = nullptr);
    // `shardKeys` names the index's shards by position.
    void setHits(std::vector<ShardlakeQueryHit> hits, std::vector<std::string> shardKeys);
    const std::vector<ShardlakeQueryHit>& hits() const { return hits_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::vector<ShardlakeQueryHit> hits_;
    std::vector<std::string> shardKeys_;
};

}  // namespace strata::model
