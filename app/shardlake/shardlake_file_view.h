// The tab for a Shardlake file opened on its own: a lone .sidx shard (its header fields and its
// records as a virtual table) or a coarse quantizer (its centroids).
#pragma once

#include <QWidget>

class QLabel;
class QTableView;
class QTableWidget;

namespace strata::model {
class ShardlakeSession;
class ShardlakeVectorModel;
}  // namespace strata::model

namespace strata::gui {

class DocumentView;

class ShardlakeFileView : public QWidget {
    Q_OBJECT
public:
    ShardlakeFileView(DocumentView& view, const model::ShardlakeSession& session,
                      QWidget* parent = nullptr);

    QTableWidget* headerTable() const { return header_; }
    model::ShardlakeVectorModel* vectorModel() const { return vectors_; }
    QTableView* vectorTable() const { return table_; }

private:
    void showShard();
    void showQuantizer();

    DocumentView& view_;
    const model::ShardlakeSession& session_;
    QLabel* summary_ = nullptr;
    QTableWidget* header_ = nullptr;
    QTableView* table_ = nullptr;
    model::ShardlakeVectorModel* vectors_ = nullptr;
};

}  // namespace strata::gui
