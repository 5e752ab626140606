// The Shards tab: the shards of one index version (records, dims, size, fingerprint status
// checked in the background), the records of the selected shard as a virtual table, and the
// index's coarse quantizer centroids. Clicking a shard or a record selects its bytes.
#pragma once

#include <QPointer>
#include <QWidget>

#include <vector>

class QComboBox;
class QLabel;
class QPushButton;
class QTabWidget;
class QTableView;

namespace strata::model {
class Job;
class ShardlakeSession;
class ShardlakeShardTableModel;
class ShardlakeVectorModel;
}  // namespace strata::model

namespace strata::gui {

class DocumentView;

class ShardlakeShardsPanel : public QWidget {
    Q_OBJECT
public:
    ShardlakeShardsPanel(DocumentView& view, const model::ShardlakeSession& session,
                         QWidget* parent = nullptr);

    // Shows an index version (its shards, centroids) and starts its fingerprint job.
    void showIndex(const QString& version);
    QString currentIndex() const;
    // Shows the records of a shard (row of the shard table) and selects its bytes.
    void showShard(int row);
    // Selects the bytes of a record of the shown shard.
    void selectRecord(int row);

    QComboBox* indexBox() const { return indexBox_; }
    model::ShardlakeShardTableModel* shardModel() const { return shardModel_; }
    model::ShardlakeVectorModel* recordModel() const { return recordModel_; }
    model::ShardlakeVectorModel* centroidModel() const { return centroidModel_; }
    QTableView* shardTable() const { return shardTable_; }
    QTableView* recordTable() const { return recordTable_; }
    model::Job* fingerprintJob() const { return fingerprintJob_; }

signals:
    // "Use as query": the current record's vector (raw shards) or id (PQ shards).
    void recordPicked(const QString& version, const std::vector<float>& vector, quint64 id);

private:
    void showCentroids(const QString& version);
    void pickRecord();

    DocumentView& view_;
    const model::ShardlakeSession& session_;
    QComboBox* indexBox_ = nullptr;
    QTableView* shardTable_ = nullptr;
    QTabWidget* lowerTabs_ = nullptr;
    QTableView* recordTable_ = nullptr;
    QTableView* centroidTable_ = nullptr;
    QLabel* recordLabel_ = nullptr;
    QLabel* centroidLabel_ = nullptr;
    QPushButton* pickButton_ = nullptr;
    model::ShardlakeShardTableModel* shardModel_ = nullptr;
    model::ShardlakeVectorModel* recordModel_ = nullptr;
    model::ShardlakeVectorModel* centroidModel_ = nullptr;
    QPointer<model::Job> fingerprintJob_;
    int shownShard_ = -1;
};

}  // namespace strata::gui
