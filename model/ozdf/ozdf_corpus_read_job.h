// Reading a corpus listed at open (ozdf::ListedCorpus) for the editor, as a background job:
// every document read on the pool with progress and cancel, the session's copy and its
// footprints made there too, so the window stays live while 100,000 documents are read.
#pragma once

#include <memory>

#include "formats/ozdf/ozdf_listed_corpus.h"
#include "model/core/job_runner.h"
#include "model/ozdf/ozdf_session.h"

namespace strata::model {

class OzdfCorpusReadJob : public Job {
    Q_OBJECT
public:
    explicit OzdfCorpusReadJob(QString title, QObject* parent = nullptr);

    // The session over the whole corpus once the job finished (null after a failure, a cancel
    // or a second call): the caller takes it.
    std::unique_ptr<OzdfSession> takeSession() { return std::move(session_); }

private:
    friend OzdfCorpusReadJob* startOzdfCorpusRead(JobRunner&,
                                                  std::shared_ptr<const ozdf::ListedCorpus>);
    std::unique_ptr<OzdfSession> session_;
};

OzdfCorpusReadJob* startOzdfCorpusRead(JobRunner& runner,
                                       std::shared_ptr<const ozdf::ListedCorpus> corpus);

}  // namespace strata::model
