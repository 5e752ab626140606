// Find and replace across an OZDF corpus: a background job finds every paragraph the query
// changes (plain text or regular expression, optionally only in blocks and lists with given
// names) and lists each change for preview; the chosen changes are applied as one undo step.
#pragma once

#include <QRegularExpression>
#include <QString>
#include <QStringList>
#include <QUndoStack>
#include <memory>
#include <optional>
#include <vector>

#include "formats/common/validator.h"
#include "model/core/job.h"
#include "model/core/job_runner.h"
#include "model/ozdf/ozdf_session.h"

namespace strata::model {

struct OzdfFindQuery {
    QString pattern;
    QString replacement;  // regex: \1 or $1 for groups
    bool regex = false;
    bool caseSensitive = true;
    // Upper-cased block or list names to search in; empty: every block and list.
    QStringList blockNames;
};

struct OzdfChange {
    int document = 0;
    std::size_t element = 0;
    std::optional<std::size_t> item;
    std::size_t paragraph = 0;
    QString before;
    QString after;  // normalised as the reader will see it
    int matches = 0;
    // Empty, or why the change cannot be applied (e.g. it would start the paragraph with ###).
    QString problem;
    bool applicable = true;
    bool selected = true;
};

// Every change `query` makes in `corpus`; stops early (returning what it has) when cancelled.
// Throws std::invalid_argument for an invalid regular expression.
std::vector<OzdfChange> findOzdfChanges(const ozdf::Corpus& corpus, const OzdfFindQuery& query,
                                        const CancelToken* cancel = nullptr,
                                        const ProgressCallback& progress = {});

class OzdfFindJob : public Job {
    Q_OBJECT
public:
    using Job::Job;
    std::vector<OzdfChange> changes;
    // The session's document revisions when the search started.
    std::vector<quint64> revisions;
};

// Searches a snapshot of the session in the background; results land in the job.
OzdfFindJob* startOzdfFind(JobRunner& runner, const OzdfSession& session,
                           const OzdfFindQuery& query);

// Applies the selected, applicable changes as one undo step. Refuses (false, *error) when a
// document changed since the search (`revisions`) or nothing is left to apply.
bool applyOzdfChanges(QUndoStack& stack, OzdfSession& session,
                      const std::vector<OzdfChange>& changes, const std::vector<quint64>& revisions,
                      QString* error);

}  // namespace strata::model
