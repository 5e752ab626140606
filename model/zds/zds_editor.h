// The content editor of a ZDS dataset: one document table per collection (the edits live
// there, as undo commands on the document's stack) and the save that writes the edited
// collections through the formats-layer writer, copying unchanged documents' bytes.
#pragma once

#include <QList>
#include <QString>

#include <memory>
#include <vector>

#include "formats/zds/zds_reader.h"
#include "formats/zds/zds_writer.h"
#include "model/core/format_editor.h"

namespace strata::model {

class ZdsTableModel;

class ZdsEditor : public FormatEditor {
    Q_OBJECT
public:
    ZdsEditor(Document& document, std::shared_ptr<const zds::ZdsDataset> dataset);
    ~ZdsEditor() override;

    const std::shared_ptr<const zds::ZdsDataset>& dataset() const { return dataset_; }
    int collectionCount() const { return static_cast<int>(tables_.size()); }
    ZdsTableModel* table(int collection) const;
    // Starts listing the documents of every collection; returns the jobs.
    QList<Job*> startLoading(JobRunner& runner);
    bool loaded() const;

    // True when the collection's rows differ from what was read (edits, order).
    bool collectionChanged(int collection) const;
    // What a save writes for one collection: the old lines of data.jsonl as they are (history
    // included), unchanged rows as index entries for their lines, new and edited rows appended
    // (keepingHistory); for docs/ collections every row in stored order.
    zds::ZdsCollectionWrite collectionWrite(int collection) const;

    // Whether a save into a `.zds` DEFLATEs the members it writes (default: STORE'd, so that
    // data.jsonl and index.bin can be read in place).
    bool deflateOnSave() const { return deflate_; }
    void setDeflateOnSave(bool deflate) { deflate_ = deflate; }

    Job* startSave(JobRunner& runner, const QString& path, QString* error) override;
    Job* startWriteCopy(JobRunner& runner, const QString& path, QString* error) override;
    bool savesToFolder() const override;

private:
    // Save (markSaved) or a copy for review (not).
    Job* startWrite(JobRunner& runner, const QString& path, QString* error, bool markSaved);
    std::shared_ptr<const zds::ZdsDataset> dataset_;
    std::vector<ZdsTableModel*> tables_;
    bool deflate_ = false;
};

}  // namespace strata::model
