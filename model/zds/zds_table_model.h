// The documents of one ZDS collection as a virtual table: one row per live document in stored
// order (the collection's live set, zds_live_set.h: the same documents `strata-cli zds ls`
// lists), a column per top-level key of a sample of documents plus columns the user adds (JSON
// pointers). A background job computes the live set and rows appear in batches. Edits replace
// rows with new JSON text; untouched rows keep pointing at their original bytes.
//
// Sorting is the model's own (a background job computes the order: a proxy would parse JSON on
// the GUI thread for every comparison). A sort and every edit under it move persistent indexes
// with the documents, so a view's selection stays on the same documents, and an edit keeps the
// table sorted: an added or edited row goes where the sort puts it.
#pragma once

#include <QAbstractTableModel>
#include <QPointer>
#include <QStringList>
#include <QTimer>

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "formats/common/node.h"
#include "formats/common/region.h"
#include "formats/zds/zds_live_set.h"
#include "formats/zds/zds_reader.h"
#include "model/core/job_runner.h"

namespace strata::model {

// The JSON text of a new or edited document and its `_id`.
struct ZdsText {
    std::string json;
    std::string id;
};

struct ZdsRow {
    std::int64_t original = -1;           // the document's index in the collection, or -1
    std::shared_ptr<const ZdsText> text;  // set for new and edited documents
    bool changed() const { return text != nullptr; }
};

// What a worker needs to read rows without touching the model: the dataset stays alive.
struct ZdsRowReader {
    std::shared_ptr<const zds::ZdsDataset> dataset;
    const zds::ZdsCollection* collection = nullptr;
    std::shared_ptr<const std::vector<std::string>> ids;  // ids of original documents

    // The document's JSON text (line ending stripped).
    std::string text(const ZdsRow& row) const;
    std::string id(const ZdsRow& row) const;
    // The original document's bytes as a region of its source.
    Region region(std::int64_t original) const;
};

class ZdsTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    ZdsTableModel(std::shared_ptr<const zds::ZdsDataset> dataset, std::size_t collection,
                  QObject* parent = nullptr);
    ~ZdsTableModel() override;

    const zds::ZdsCollection& collection() const { return *collection_; }
    const std::shared_ptr<const zds::ZdsDataset>& dataset() const { return dataset_; }
    // True when documents come from the ZDX (their index entries can be shown).
    bool usesIndex() const { return usesIndex_; }
    // What the live set says about the collection's index and data (empty when they agree),
    // and what it was read from; valid once loading has finished.
    QStringList liveNotes() const { return liveNotes_; }
    QString liveBasis() const { return liveBasis_; }

    // Starts the job that lists the documents (ids from the ZDX, or a scan of the lines);
    // rows are added in batches while it runs. Call once.
    Job* startLoading(JobRunner& runner);
    bool loaded() const { return loaded_; }

    // Qt model. Column 0 is `_id`; the others are JSON pointers.
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    // Sorts in a background job when a runner is set (setRunner), else synchronously. Column -1
    // is stored order.
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;
    void setRunner(JobRunner* runner) { runner_ = runner; }
    Job* startSort(JobRunner& runner, int column, Qt::SortOrder order);
    // Back to stored order.
    void clearSort();
    // True when the rows show in a sorted order (not while the first sort is still running).
    bool isSorted() const { return applied_ != nullptr; }
    // True while a sort job is on its way.
    bool isSorting() const;

    QStringList columnPointers() const { return columns_; }
    // Adds a column showing the value at `pointer` ("/a/b" or a plain top-level key).
    void addColumn(const QString& pointer);
    void removeColumn(int column);

    // Stored order. `storedIndex` maps a table row to its stored position and back.
    int documentCount() const { return static_cast<int>(rows_.size()); }
    int storedIndex(int tableRow) const;
    int tableRow(int stored) const;
    const ZdsRow& row(int stored) const { return rows_[static_cast<std::size_t>(stored)]; }
    const std::vector<ZdsRow>& rows() const { return rows_; }
    std::string text(int stored) const;
    std::string id(int stored) const;
    // Where the stored document's bytes are (invalid for new or edited ones).
    Region documentRegion(int stored) const;
    // Its ZDX entry in index.bin (invalid without an index, or for new or edited documents).
    Region indexEntryRegion(int stored) const;
    // The stored position of the row showing original document `original` (a live document
    // of the collection), or -1 (deleted or not listed yet).
    int storedOfOriginal(std::int64_t original) const;
    // The original document whose line in data.jsonl holds `offset`, or -1.
    std::int64_t originalAtOffset(std::uint64_t offset) const;
    // The original document a node of the structure tree stands for: a document of this
    // collection (zds.document) or its ZDX entry (zds.zdx.entry); -1 for other nodes.
    std::int64_t originalForNode(const Node& node) const;
    // True when the rows differ from what loading listed (an edit not undone).
    bool isEdited() const;

    // Checks `json` as the text of a document at stored position `replacing` (-1 for a new one):
    // a JSON object with a valid `_id` that no other document has. Returns an error or "".
    std::string checkText(const std::string& json, int replacing, std::string* id) const;
    bool idInUse(const std::string& id) const;
    // An id not yet in use, made from `base`.
    std::string freeId(const std::string& base) const;

    // A reader for background jobs (valid after loading).
    ZdsRowReader reader() const;

    // Primitive edits used by the undo commands; they keep the id counts right. (The model's own
    // insertRows(row, count, parent) stays visible beside this one.)
    using QAbstractTableModel::insertRows;
    void insertRows(int stored, const std::vector<ZdsRow>& rows);
    void removeStoredRows(int stored, int count);
    void setRow(int stored, const ZdsRow& row);

    // A batch of listed ids, posted by the loading job.
    struct Batch;

signals:
    void loadingProgress(int documents, bool finished);
    void rowsEdited();

private:
    // What the rows are sorted by: a JSON pointer ("" for `_id`) and an order.
    struct SortSpec {
        std::string pointer;
        Qt::SortOrder order = Qt::AscendingOrder;
        QString title;  // of the sort job
    };
    void appendBatch(Batch& batch);
    void finishLoading();
    Job* runSort(JobRunner& runner, std::shared_ptr<const SortSpec> spec);
    // Starts the requested sort again over the rows as they are now (an edit or a batch of
    // rows made the running job's snapshot stale).
    void restartPendingSort();
    // Shows the rows in `view` order (empty: stored order), moving persistent indexes along.
    void setView(std::vector<int> view, std::shared_ptr<const SortSpec> spec);
    // The table row a new or edited `row` at stored position `stored` sorts to, among the table
    // rows other than `skip` (-1: none). Equal keys keep stored order.
    int sortedRowFor(const ZdsRow& row, int stored, int skip) const;
    // The table row of stored position `stored` while sorted (linear).
    int viewRowOf(int stored) const;
    void insertSorted(int stored, const ZdsRow& row);
    void removeSorted(int stored);
    void moveSorted(int stored, const ZdsRow& row);
    void addSampleColumns();
    void countId(const std::string& id, int delta);
    const void* parsedRow(int stored) const;
    QString cell(int stored, int column) const;
    // False (and a refresh is due shortly) while the row's bytes are on their way from a server.
    bool rowReady(int stored) const;

    std::shared_ptr<const zds::ZdsDataset> dataset_;
    const zds::ZdsCollection* collection_;
    bool usesIndex_ = false;
    bool loaded_ = false;
    QPointer<JobRunner> runner_;
    QPointer<Job> sortJob_;
    std::vector<ZdsRow> rows_;
    std::vector<std::int64_t> listed_;             // the originals as loading listed them
    std::vector<int> view_;                        // table row → stored position while sorted
    std::shared_ptr<const SortSpec> applied_;      // what view_ is sorted by, or null
    std::shared_ptr<const SortSpec> pendingSort_;  // what the running sort job sorts by
    std::uint64_t sortGeneration_ = 0;             // a sort result is dropped when this moved on
    std::shared_ptr<const zds::ZdsLiveSet> live_;
    QStringList liveNotes_;
    QString liveBasis_;
    std::shared_ptr<std::vector<std::string>> ids_;
    std::unordered_map<std::string, int> idCounts_;
    QStringList columns_;
    struct ParsedCache;
    std::unique_ptr<ParsedCache> cache_;
    QTimer* pendingRefresh_ = nullptr;  // runs while shown rows wait for a server
};

}  // namespace strata::model
