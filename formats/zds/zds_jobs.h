// ZDS dataset jobs, each with progress and cancel, shared by `strata-cli zds ...` and the GUI:
// pack a folder into a `.zds`, unpack one safely, rebuild ZDX indexes, compact, and convert
// between the JSONL and file-per-document layouts. Every job that changes a dataset goes
// through writeZdsDataset (zds_writer.h), so it is all-or-nothing.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "formats/common/validator.h"
#include "zds_writer.h"

namespace strata::zds {

struct ZdsJobOptions {
    const CancelToken* cancel = nullptr;
    ProgressCallback progress;
    bool deflate = false;    // pack / archive rewrites: DEFLATE instead of STORE
    std::string collection;  // reindex / compact / convert: one collection; empty = all
    // reindex: rebuild from the lines of data.jsonl even when the index is readable (documents
    // deleted only from the index come back; the notes say how many).
    bool fromLines = false;
    // unpack: refuse archives that would expand beyond this, or members whose data would
    // have to expand more than kZdsMaxExpansion times.
    std::uint64_t maxUnpackedBytes = 64ull << 30;

    bool cancelled() const { return cancel != nullptr && cancel->cancelled(); }
};

inline constexpr std::uint64_t kZdsMaxExpansion = 1024;

struct ZdsJobResult {
    bool cancelled = false;
    std::uint64_t documents = 0;     // written or indexed
    std::uint64_t files = 0;         // unpack: files written
    std::vector<std::string> notes;  // what the job found worth saying (lines without ids...)
};

// Thrown when a job refuses its input (unsafe archive, unknown collection); what() says why.
class ZdsJobError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Whether an archive member name stays inside the folder it is unpacked into: relative,
// '/'-separated, no empty, `.` or `..` segment, no backslash or NUL, no drive letter.
bool zdsSafeMemberName(std::string_view name);

// Folder (dataset or single collection) → `.zds` archive holding every file unchanged.
ZdsJobResult packZds(const std::filesystem::path& folder, const std::filesystem::path& archive,
                     const ZdsJobOptions& options = {});

// `.zds` → a new folder `dest` (which must not exist, or be empty). Refuses, before writing
// anything, member names that are absolute, hold `..` or backslashes, or repeat; sizes beyond
// the limits; methods other than STORE and DEFLATE. Each member is checked against its size
// and CRC while it is written; the folder appears only when everything was written.
ZdsJobResult unpackZds(const std::filesystem::path& archive, const std::filesystem::path& dest,
                       const ZdsJobOptions& options = {});

// Rebuilds the index of each collection so that it lists the live documents exactly (the set
// does not change; see zds_live_set.h): JSONL collections get a new meta/index.bin whose every
// entry names its own line; file-per-document collections get meta/doc_index.jsonl, order.ids
// and schemas.jsonl rebuilt from docs/ (as the reference's reindex does). With `fromLines`
// the JSONL index is rebuilt from the lines alone.
ZdsJobResult reindexZds(const std::filesystem::path& dataset, const ZdsJobOptions& options = {});

// Rewrites JSONL collections keeping only the live documents, in file order, bytes unchanged,
// with a new index. What the index and the lines disagree on is said in the notes.
ZdsJobResult compactZds(const std::filesystem::path& dataset, const ZdsJobOptions& options = {});

// Converts collections to `layout` (docs/ files ↔ data.jsonl + index.bin).
ZdsJobResult convertZds(const std::filesystem::path& dataset, ZdsLayout layout,
                        const ZdsJobOptions& options = {});

// The collection a command addresses: `name` when given, else the only one, else `default`.
// Throws ZdsJobError listing the collections when there is no such collection.
const ZdsCollection& chooseZdsCollection(const ZdsDataset& dataset, const std::string& name);

}  // namespace strata::zds
