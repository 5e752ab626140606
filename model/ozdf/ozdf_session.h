// The OZDF content being edited: the documents of a corpus (or the one document opened on its
// own) as the editor changes them, plus what is on disk, so a save knows which files became
// obsolete. Changed only through the edit commands (ozdf_commands.h).
#pragma once

#include <QObject>
#include <QString>
#include <filesystem>
#include <memory>
#include <vector>

#include "formats/ozdf/ozdf_document.h"
#include "formats/ozdf/ozdf_save.h"
#include "formats/registry/format_handler.h"

namespace strata::model {

class OzdfSession : public QObject {
    Q_OBJECT
public:
    // Reads `path` (a corpus folder, a directory document or a standalone file). Returns nullptr
    // and sets *error when it cannot be read.
    static std::unique_ptr<OzdfSession> load(const QString& path, QString* error);
    // A session over what the format handler already read when it opened `opened` (its
    // ozdf::OzdfState), copied so edits never touch the tree's data; nullptr when it holds none.
    static std::unique_ptr<OzdfSession> fromOpened(const OpenedDocument& opened);
    OzdfSession(ozdf::Corpus corpus, bool isCorpus, QObject* parent = nullptr);
    // A corpus whose footprints were taken off the GUI thread with it (footprintsOf(corpus)).
    OzdfSession(ozdf::Corpus corpus, std::vector<ozdf::DocumentFootprint> onDisk,
                QObject* parent = nullptr);

    // A corpus folder, or a single document (which cannot change name or kind).
    bool isCorpus() const { return isCorpus_; }
    // The corpus folder, or the folder that holds the single document.
    const std::filesystem::path& folder() const { return corpus_.path; }
    QString openedPath() const;

    int documentCount() const { return static_cast<int>(corpus_.documents.size()); }
    const ozdf::Document& document(int index) const;
    const ozdf::Corpus& corpus() const { return corpus_; }
    // Bumped on every change of a document, so a search can tell whether its results are stale.
    quint64 revision(int index) const;
    int indexOf(const std::string& filename) const;

    // For the edit commands.
    void replaceDocument(int index, ozdf::Document document);
    void insertDocument(int index, ozdf::Document document);
    void removeDocument(int index);

    // What a save compares against, and its update once a save succeeds.
    const std::vector<ozdf::DocumentFootprint>& onDisk() const { return onDisk_; }
    void setOnDisk(std::vector<ozdf::DocumentFootprint> footprints);
    // Replaces everything with `corpus` as read again from disk (after an external change).
    void reset(ozdf::Corpus corpus);

signals:
    void documentChanged(int index);
    void documentInserted(int index);
    void documentRemoved(int index);
    void aboutToReset();
    void wasReset();

private:
    ozdf::Corpus corpus_;
    bool isCorpus_ = true;
    std::vector<quint64> revisions_;
    quint64 nextRevision_ = 1;
    std::vector<ozdf::DocumentFootprint> onDisk_;
};

}  // namespace strata::model
