// Writes ZDS collections so that data.jsonl, index.bin (ZDX), manifest.json and zds.json agree.
// A document is either "the bytes of document i of the source collection" (copied, never
// re-serialised, so untouched data stays byte-identical) or new JSON text.
//
// Crash safety: in a folder, each written collection is built complete in a sibling folder and
// swapped in with one atomic rename (RENAME_EXCHANGE), so a reader sees the old collection or
// the new one, never a mix; zds.json follows through an AtomicFile. A `.zds` archive is written
// whole beside the old one and renamed over it. A cancelled or failed write leaves the dataset
// as it was.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "formats/common/validator.h"
#include "zds_reader.h"

namespace strata::zds {

class ZdsWriteError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct ZdsWriteDoc {
    // Copy live document `index` of the source collection (ZdsCollection::document order).
    static ZdsWriteDoc original(std::uint64_t index) { return {index, {}, {}, {}}; }
    // Copy bytes [offset, offset + length) of the source's data.jsonl (one line; a final '\n'
    // is dropped): for collections whose index is missing or damaged (reindex, compact).
    static ZdsWriteDoc dataLine(std::uint64_t offset, std::uint64_t length) {
        return {std::nullopt, {}, std::pair{offset, length}, {}};
    }
    // New JSON text: one object with a string `_id`. Raw line breaks (only legal as whitespace
    // in JSON) are written as spaces so the document stays on one line.
    static ZdsWriteDoc text(std::string json) { return {std::nullopt, std::move(json), {}, {}}; }
    // Copy docs/<id>.json of the source (a file-per-document source), listed or not.
    static ZdsWriteDoc docsFile(std::string id) { return {std::nullopt, {}, {}, std::move(id)}; }
    // Copy a line of the source's data.jsonl as dataLine does, without an index entry: a line
    // no live document uses (an older version, a deleted document) kept as history. JSONL
    // output only; it is not a document, so it is not counted and its `_id` may repeat.
    static ZdsWriteDoc unlistedLine(std::uint64_t offset, std::uint64_t length) {
        ZdsWriteDoc d = dataLine(offset, length);
        d.listed = false;
        return d;
    }
    // Copy bytes [offset, offset + length) of the source's data.jsonl, whole lines of any kind,
    // exactly as they are (a final '\n' is added when the range ends without one), without
    // index entries: a collection's history kept by a save (keepingHistory). JSONL output only.
    static ZdsWriteDoc unlistedLines(std::uint64_t offset, std::uint64_t length) {
        ZdsWriteDoc d = unlistedLine(offset, length);
        d.severalLines = true;
        return d;
    }

    std::optional<std::uint64_t> originalIndex;
    std::string json;
    std::optional<std::pair<std::uint64_t, std::uint64_t>> dataRange;
    std::optional<std::string> docsFileId;
    bool listed = true;         // gets an index entry (false only for unlisted lines)
    bool severalLines = false;  // unlistedLines: a run of lines copied as it is
};

enum class ZdsLayout { Jsonl, Docs };

struct ZdsCollectionWrite {
    std::string name;
    // Where original documents come from; may be null when every document is new text. A
    // JSONL source gives its line bytes, a docs/ source its file (re-serialised only when the
    // layout changes, since docs/ files carry no `_id`).
    const ZdsCollection* source = nullptr;
    std::vector<ZdsWriteDoc> documents;
    ZdsLayout layout = ZdsLayout::Jsonl;
};

struct ZdsWriteOptions {
    const CancelToken* cancel = nullptr;
    ProgressCallback progress;
    // Archives: DEFLATE the members this write produces (STORE by default, for random access).
    bool deflate = false;
    // Files of the original (paths relative to its root, as ZdsCollection::path gives them)
    // whose bytes must not reach the output: a repair's members that fail their CRC-32. They
    // are not carried over, and manifest.json, zds.json, doc_index.jsonl and journal.log among
    // them are not read for the fields and history a write keeps (they are written afresh).
    // A folder ("name/") listed here gets no entry of its own in an archive.
    std::set<std::string> leaveOut;

    bool leftOut(const std::string& rel) const { return leaveOut.contains(rel); }

    bool cancelled() const { return cancel != nullptr && cancel->cancelled(); }
    void reportProgress(double fraction, const std::string& text) const {
        if (progress) {
            progress(fraction, text);
        }
    }
};

struct ZdsWriteResult {
    bool cancelled = false;
    std::uint64_t documents = 0;  // written over all collections
    // Copied documents the write could not keep as listed (unreadable, or an index entry that
    // names another document's line), each in words.
    std::vector<std::string> notes;
};

// Writes `collections` into the dataset at `target`, which is a folder, or a `.zds` archive
// when it names an existing regular file or ends in `.zds` / `.zip`. Everything else the
// dataset held (other collections, other files) comes from `original` (may be null for a new
// dataset; may be the dataset at `target` itself, or another one for Save As). zds.json gets
// the count of every collection, keeping its other fields; manifest.json keeps its fields and
// gets `doc_count` and `collection`. A single-collection folder gets no zds.json.
// Throws ZdsWriteError (bad documents, an id written twice, unsafe ids, I/O).
ZdsWriteResult writeZdsDataset(const ZdsDataset* original,
                               const std::vector<ZdsCollectionWrite>& collections,
                               const std::filesystem::path& target,
                               const ZdsWriteOptions& options = {});

// Every live document of `c` as an original, in stored order (a plain rewrite: an unchanged,
// already compact data.jsonl comes out byte-identical).
ZdsCollectionWrite unchangedCollection(const ZdsCollection& c);

// The write of an edited JSONL collection as the format intends edits (an update adds a line,
// a delete drops the index entry): every line of the source's data.jsonl stays, in order and
// byte for byte, so superseded and deleted lines (and any other line) remain as history without
// index entries; each original document in `write` keeps its line and gets an index entry; a
// new text whose `_id` is a live document's (an edit) follows that document's old line, so the
// edit keeps its place and its old version is the line before it; other new texts are appended
// after the old lines, in the order given. The last line of each `_id` is thus still its live
// one. Anything else (docs/ layout, no JSONL source) comes back as it was. Dropping the history
// is compacting (compactZds).
ZdsCollectionWrite keepingHistory(ZdsCollectionWrite write);

// True when `target` would be written as an archive.
bool zdsTargetIsArchive(const std::filesystem::path& target);

}  // namespace strata::zds
