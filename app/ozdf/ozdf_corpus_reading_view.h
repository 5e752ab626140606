// The Corpus tab while a big corpus is read for editing (model::OzdfCorpusReadJob): its
// documents by name at once, from the folder listing, with the read's progress; choosing one
// shows it in the structure tree and the hex view. The editing corpus table takes its place
// when the read is done.
#pragma once

#include <QWidget>
#include <memory>

#include "formats/ozdf/ozdf_listed_corpus.h"

class QLabel;
class QProgressBar;
class QTableView;

namespace strata::gui {

class DocumentView;

// Local corpora of at least this many documents open with this view while a job reads them;
// smaller ones are read as the views are made. Tests lower it.
extern int ozdfReadInBackgroundFrom;

class OzdfCorpusReadingView : public QWidget {
    Q_OBJECT
public:
    OzdfCorpusReadingView(DocumentView& view, std::shared_ptr<const ozdf::ListedCorpus> corpus,
                          QWidget* parent = nullptr);

    QTableView* table() const { return table_; }
    // The listed document of the current row, or -1.
    int currentDocument() const;
    void showProgress(double fraction, const QString& text);
    // The read stopped before the end (cancelled, failed): the listing stays, editing waits
    // for a reload.
    void showStopped(const QString& why);
    QString statusText() const;

private:
    QLabel* status_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QTableView* table_ = nullptr;
};

}  // namespace strata::gui
