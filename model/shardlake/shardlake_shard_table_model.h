// The shards of one index version as a table: key, shard id, records, dims, kind, size and
// fingerprint status. Fingerprints (FNV-1a 64 over the whole file) are computed by a
// background job and filled in as each shard finishes.
#pragma once

#include <QAbstractTableModel>
#include <QString>
#include <QVector>

#include <vector>

#include "shardlake_session.h"

namespace strata::model {

class Job;
class JobRunner;

class ShardlakeShardTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        KeyColumn,
        ShardIdColumn,
        RecordsColumn,
        DimsColumn,
        KindColumn,
        SizeColumn,
        FingerprintColumn,
        StatusColumn,
        ColumnCount
    };
    enum class Check { Pending, Running, Match, Mismatch, NoFingerprint, Missing };

    explicit ShardlakeShardTableModel(QObject* parent = nullptr);

    void setShards(std::vector<ShardlakeShardInfo> shards);
    const std::vector<ShardlakeShardInfo>& shards() const { return shards_; }
    const ShardlakeShardInfo* shard(int row) const;
    Check check(int row) const;
    QString computedFingerprint(int row) const;

    // Hashes every shard on the runner; rows update as results arrive. The job stops early
    // when cancelled (rows not reached stay Pending).
    Job* startFingerprints(JobRunner& runner);
    void setComputed(int row, const QString& fingerprint);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QString statusText(int row) const;

    std::vector<ShardlakeShardInfo> shards_;
    QVector<QString> computed_;
    QVector<Check> checks_;
    // Bumped by setShards so results of an older job are ignored.
    int generation_ = 0;
};

}  // namespace strata::model
