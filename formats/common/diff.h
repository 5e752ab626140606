// What comparing two files or folders of one format produces: a stream of differences, each
// with a kind, a path in the structure, both sides' bytes and a short description, and a
// summary. Every format's differ (formats/<format>/*_diff.h) streams into a DiffSink without
// holding either side whole; `strata-cli diff`, the GUI's compare view and the editors' "Review
// changes" consume the same stream.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "region.h"
#include "validator.h"

namespace strata {

enum class DiffKind : std::uint8_t {
    Added,     // only in B
    Removed,   // only in A
    Changed,   // in both, different
    Moved,     // in both, same content, another place or order
    Encoding,  // the same content stored differently (codec, layout, wrapping): no content change
};

// "added", "removed", "changed", "moved", "encoding": the names the JSON output uses.
std::string_view diffKindName(DiffKind kind);

struct DiffSide {
    Region region;      // the bytes on this side (invalid when there are none)
    std::string value;  // a short rendering of this side's value, or ""
};

// One changed value inside an item (a JSON path in a document, a field of a header).
struct DiffField {
    std::string path;  // "$.meta.lang", "shape"
    DiffKind kind = DiffKind::Changed;
    std::string a, b;  // short renderings; "" on the side that lacks it
};

struct Difference {
    DiffKind kind = DiffKind::Changed;
    // Where in the structure, '/'-separated, stable for a given item: "train/doc_001",
    // "train/doc_001/$.meta.lang", "tensor/w1/shape", "header/codec", "record 'kato '".
    std::string path;
    std::string description;  // one line for a person
    DiffSide a, b;
    std::vector<DiffField> fields;  // what changed inside the item, when it has parts
};

struct DiffSummary {
    std::uint64_t added = 0, removed = 0, changed = 0, moved = 0, encoding = 0;
    std::uint64_t compared = 0;  // items compared: records, documents, tensors, vectors...
    bool limited = false;        // stopped after the limit; the counts cover what was seen

    void count(DiffKind kind);
    std::uint64_t total() const { return added + removed + changed + moved + encoding; }
    // No difference but encoding ones: the two hold the same content.
    bool contentEqual() const { return added + removed + changed + moved == 0; }
};

class DiffSink {
public:
    virtual ~DiffSink() = default;
    // Receives one difference; returns false to refuse it and stop the comparison (a limit, a
    // consumer that has seen enough). Called from one thread at a time.
    virtual bool add(Difference difference) = 0;
};

struct DiffOptions {
    const CancelToken* cancel = nullptr;
    ProgressCallback progress;
    unsigned threads = 0;  // 0 = one per core
    bool quick = false;    // compare digests where both sides have them instead of values
    std::size_t maxValueChars = 120;  // DiffSide::value is cut to this
    // Shardlake: two index versions over the same data are also compared by their answers, the
    // top `answerK` for `answerQueries` vectors sampled from A's dataset with `answerNprobe`
    // shards probed (unset: A's manifest default). answerQueries = 0 skips it.
    std::size_t answerK = 10;
    std::size_t answerQueries = 100;
    std::optional<std::size_t> answerNprobe;

    bool cancelled() const { return cancel != nullptr && cancel->cancelled(); }
    void reportProgress(double fraction, const std::string& text) const {
        if (progress) {
            progress(fraction, text);
        }
    }
};

class Differ {
public:
    virtual ~Differ() = default;
    virtual JobOutcome run(DiffSink& sink, const DiffOptions& options) = 0;
    // What was compared, counted as the differences streamed (valid after run()).
    const DiffSummary& summary() const { return summary_; }

protected:
    // Counts and forwards; false when the sink wants no more.
    bool report(DiffSink& sink, Difference d) {
        const DiffKind kind = d.kind;
        if (!sink.add(std::move(d))) {
            return false;
        }
        summary_.count(kind);
        return true;
    }
    DiffSummary summary_;
};

// Thrown when two inputs cannot be compared (different formats, a side that cannot be read).
class DiffError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A short, single-line rendering of a value for DiffSide::value.
std::string diffValueText(std::string_view text, std::size_t maxChars);

}  // namespace strata
