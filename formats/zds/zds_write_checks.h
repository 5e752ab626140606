// New documents of a ZDS write, checked ahead of the writer on pool threads: each must be one
// JSON object with a string `_id`. Results come back in document order, so the first bad
// document is still the one the write reports, and later batches are checked while the writer
// writes earlier ones.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "formats/common/ordered_pool.h"
#include "zds_writer.h"

namespace strata::zds {

struct NewDocCheck {
    std::string id;          // the decoded `_id`
    std::string error;       // why the document cannot be written; empty when it can
    bool lineBreak = false;  // the text holds a raw CR or LF (written as a space)
};

// True for a document given as new JSON text.
bool isNewText(const ZdsWriteDoc& d);

// Checks new document `n` of `c` (simdjson's full parse first; the SAX parser for the message
// when that fails or cannot decide).
NewDocCheck checkNewDocument(const ZdsCollectionWrite& c, std::size_t n);

class NewDocChecks {
public:
    // Starts checking the first batches of `c` on one thread per core.
    NewDocChecks(const ZdsCollectionWrite& c, const CancelToken* cancel);

    // The check of document n (empty for documents that are not new text). Documents must be
    // asked for in order, each once. Null when the write was cancelled.
    const NewDocCheck* next(std::size_t n);

private:
    using Batch = std::vector<NewDocCheck>;
    void submit();

    const ZdsCollectionWrite& c_;
    std::size_t batches_ = 0;
    std::size_t submitted_ = 0;
    Batch current_;
    std::size_t currentBegin_ = 0;
    OrderedPool<Batch> pool_;
};

}  // namespace strata::zds
