// Reading the records of a ZS file on several threads: workers check, decode and format whole
// data blocks, and the caller receives each block's output in file order.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>

#include "formats/common/validator.h"  // CancelToken
#include "zs_reader.h"

namespace strata::zs {

struct ParallelReadOptions {
    unsigned threads = 0;  // workers; 0 = one per core
    const CancelToken* cancel = nullptr;
};

// Appends one selected record, framed as the caller wants it, to its block's output. Runs on
// worker threads, several blocks at once, so it must not touch shared state.
using RecordFormatter = std::function<void(std::span<const std::uint8_t> record, std::string& out)>;
// Receives the output of one block after another, in file order, on the calling thread.
using TextSink = std::function<void(std::string_view text)>;

// Formats the records `query` selects, or every record of the file when the query is empty:
// the same records in the same order as ZsFile::search and ZsRecordIterator visit them, and on
// damage the same ZsReadError, thrown after the output of every record before the damage.
// At most two blocks per worker are decoded ahead of `emit`; a query that ends in its first
// block decodes only that block. Returns false when cancelled (what was emitted stays so).
bool formatRecords(const ZsFile& file, const RecordQuery& query, const ParallelReadOptions& options,
                   const RecordFormatter& format, const TextSink& emit);

}  // namespace strata::zs
