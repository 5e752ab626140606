// Byte-pattern search over a file: hex with wildcards, UTF-8 or UTF-16LE text. Runs as a job,
// scanning the mapped source in chunks with the overlay's edits applied.
#pragma once

#include <QList>
#include <QString>
#include <QVector>

#include <cstdint>
#include <functional>
#include <optional>

#include "model/core/byte_overlay.h"
#include "model/core/job_runner.h"

namespace strata::model {

struct SearchPattern {
    enum class Mode { Hex, Utf8, Utf16Le };

    // A byte matches position i when (byte & masks[i]) == values[i]. Mask 0 is a wildcard
    // ("??"); 0xDF on an ASCII letter matches both cases.
    QVector<std::uint8_t> values;
    QVector<std::uint8_t> masks;
    // What the user typed, for job titles and status text.
    QString text;

    int size() const { return int(values.size()); }
    bool isEmpty() const { return values.isEmpty(); }
    // True when every byte must match exactly (the fast searcher applies).
    bool isExact() const;
    bool matches(const std::uint8_t* bytes) const;

    // Parses user text. Hex: pairs of hex digits, spaces optional, "??" (or "?" per nibble) as
    // wildcards: "ab 5a ?? 01". Text modes encode the string; caseInsensitive folds ASCII
    // letters. Returns nullopt and sets *error for unusable input (bad hex, empty pattern).
    static std::optional<SearchPattern> parse(const QString& text, Mode mode,
                                              bool caseInsensitive = false,
                                              QString* error = nullptr);
};

struct ByteSearchOptions {
    quint64 from = 0;
    // Find next: continue at the start after reaching the end (up to `from`).
    bool wrap = true;
    // Find all: collect every match (up to maxResults) instead of stopping at the first.
    bool findAll = false;
    // Find previous: the nearest match starting before `from` (wrapping to the end).
    bool backward = false;
    int maxResults = 10000;
    static constexpr std::uint64_t kChunkSize = 4ull << 20;
};

class ByteSearchJob : public Job {
    Q_OBJECT
public:
    using Job::Job;
    // Matches delivered so far, in the order found.
    const QList<quint64>& results() const { return results_; }
    // True when findAll stopped at maxResults with more matches left.
    bool truncated() const { return truncated_; }
    int patternLength() const { return patternLength_; }

signals:
    void found(quint64 offset);

private:
    friend struct ByteSearchAccess;
    QList<quint64> results_;
    bool truncated_ = false;
    int patternLength_ = 0;
};

// Find next / previous (options.findAll false: at most one result) or find all. `file` must outlive
// the call only; the job keeps its own reference to the source and a copy of the edits.
ByteSearchJob* startByteSearch(JobRunner& runner, const ByteOverlay* file, SearchPattern pattern,
                               const ByteSearchOptions& options);
ByteSearchJob* startByteSearch(JobRunner& runner, const ByteOverlay* file, SearchPattern pattern,
                               quint64 from, bool wrap = true);

// The synchronous scan behind the job, for tests and the CLI: calls onMatch for each match in
// [begin, end) in order until it returns false; returns false when cancelled.
bool scanForPattern(const ByteSource& source, const ByteOverlay::EditMap& edits,
                    const SearchPattern& pattern, std::uint64_t begin, std::uint64_t end,
                    const strata::CancelToken* cancel,
                    const std::function<bool(std::uint64_t offset)>& onMatch,
                    const std::function<void(std::uint64_t scanned)>& onProgress = {});

}  // namespace strata::model
