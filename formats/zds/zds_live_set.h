// The live documents of a ZDS collection: the one definition that listing, lookup, the GUI
// table, counts, validation and every job that rewrites a collection share.
//
// JSONL collections: the index (meta/index.bin, binary ZDX or the legacy text layout) when it
// is present and readable: one document per key, the last entry of a key winning, as the
// reference reads it. Without a readable index (absent, bad magic or version, truncated, or
// listing nothing) the reference rebuilds it from data.jsonl, and so does this: the last line
// of each `_id`. Where index and lines disagree the set says so (notes, per-document flags) and
// is never widened silently: an entry that does not point at a line with its `_id` is looked up
// by `_id` among the lines; a line the index does not list stays out.
//
// File-per-document collections: the ids of meta/order.ids (the reference's list), else those
// of meta/doc_index.jsonl, else the files in docs/; each document's bytes are docs/<id>.json.
// In a local folder or archive no file is opened (nor docs/ listed) to make the set: a
// document's file is opened when its region is first asked for, and one that is not there
// reads as unreadable then (a million documents list without a million opens). A remote
// collection opens each as the set is computed.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "formats/common/region.h"
#include "zds_line_index.h"
#include "zds_reader.h"

namespace strata::zds {

enum class ZdsLiveBasis {
    Index,      // meta/index.bin in the binary ZDX layout
    TextIndex,  // meta/index.bin in the legacy text layout
    Lines,      // data.jsonl without a usable index: the last line of each `_id`
    OrderIds,   // file per document: meta/order.ids
    DocIndex,   // file per document: meta/doc_index.jsonl
    DocFiles,   // file per document: the files in docs/
    None,       // no documents at all
};

// How a document's bytes were found; 0 when its index entry points straight at its line.
enum ZdsLiveFlag : std::uint8_t {
    kZdsLiveRelocated = 1,    // the entry missed its line; the last line with the `_id` is used
    kZdsLiveKeyMismatch = 2,  // the bytes' own `_id` is not the key the index lists them under
    kZdsLiveUnreadable = 4,   // no bytes: no line with the `_id`, or no docs/ file
};

struct ZdsLiveCensus {
    std::uint64_t lines = 0;       // non-blank lines of data.jsonl
    std::uint64_t withoutId = 0;   // lines without a string `_id`
    std::uint64_t superseded = 0;  // older lines of a live `_id`
    std::uint64_t unlisted = 0;    // lines whose `_id` the index does not list (deleted, or lost)
};

class ZdsLiveSet {
public:
    ZdsLiveBasis basis() const { return basis_; }
    bool fromIndex() const {
        return basis_ == ZdsLiveBasis::Index || basis_ == ZdsLiveBasis::TextIndex;
    }
    // What the set was read from, for a status line: "meta/index.bin", "data.jsonl lines", ...
    std::string basisText() const;
    // Where index and data disagree or a fallback was taken, in words; empty when all agree.
    const std::vector<std::string>& notes() const { return notes_; }

    std::uint64_t size() const { return docs_.size(); }
    std::string_view id(std::uint64_t i) const;
    // The document's bytes: its line with the line ending, or the whole docs/ file; invalid
    // when unreadable.
    Region region(std::uint64_t i) const;
    // For a docs/ file opened on demand, asking opens it.
    std::uint8_t flags(std::uint64_t i) const;
    // The index entry (ZDX entry number, order.ids / doc_index.jsonl line) it comes from, or the
    // number of its line in data.jsonl for the Lines basis.
    std::uint64_t entry(std::uint64_t i) const { return docs_[i].entry; }

    // Lookups (each builds its table once, thread-safe).
    std::optional<std::uint64_t> find(std::string_view id) const;
    std::optional<std::uint64_t> atOffset(const ByteSource* source, std::uint64_t offset) const;
    std::optional<std::uint64_t> forEntry(std::uint64_t entry) const;

    // Counts of how many documents carry each flag as the set was computed (a docs/ file that
    // is listed but cannot be opened is flagged by flags() once it has been tried).
    std::uint64_t countFlag(ZdsLiveFlag flag) const;
    // Set when the set was computed with a census of every line (JSONL only).
    const std::optional<ZdsLiveCensus>& census() const { return census_; }

private:
    friend class ZdsLiveSetBuilder;
    struct Doc {
        const ByteSource* source = nullptr;
        std::uint64_t offset = 0;
        std::uint64_t length = 0;
        std::uint64_t idStart = 0;
        std::uint64_t entry = 0;
        std::uint32_t idLength = 0;
        std::uint8_t flags = 0;
    };
    ZdsLiveBasis basis_ = ZdsLiveBasis::None;
    std::vector<std::string> notes_;
    std::vector<Doc> docs_;
    std::string ids_;  // every id, one after another
    std::optional<ZdsLiveCensus> census_;
    // Set when the docs/ files are opened on demand: the collection they are in.
    const ZdsCollection* docsOf_ = nullptr;
    Region openedDoc(std::uint64_t i) const;

    mutable std::once_flag byIdOnce_, byOffsetOnce_, byEntryOnce_;
    mutable std::unordered_map<std::string_view, std::uint64_t> byId_;
    mutable std::vector<std::uint64_t> byOffset_;  // documents with bytes, sorted by offset
    mutable std::vector<std::uint64_t> byEntry_;   // documents sorted by entry
};

struct ZdsLiveOptions {
    ZdsIndexOptions index;     // cancel, progress, threads
    bool census = false;       // also count the lines that are not live, and why (JSONL)
    bool ignoreIndex = false;  // JSONL: the lines alone, even with a readable index
};

// Computes the live set of `c` (ZdsCollection::liveSet caches it). Nothing when cancelled.
std::shared_ptr<const ZdsLiveSet> computeZdsLiveSet(const ZdsCollection& c,
                                                    const ZdsLiveOptions& options = {});

// The size computeZdsLiveSet gives a file-per-document collection (every id it lists, once),
// counted without opening a document file.
std::uint64_t zdsDocsLiveCount(const ZdsCollection& c);

// Why a present meta/index.bin is not read as the index ("" when it is readable).
std::string zdsIndexProblem(const ZdsCollection& c);

// One id looked up through a JSONL collection's readable index without computing the live set:
// the index alone and the one line its last entry for the id points at. Found and Absent are
// what liveSet() would say (the document and its line, unflagged; or no such live document);
// anything else (no readable index, an entry that misses its line) needs the live set. Lets
// `zds get` on a remote collection read the index and one line, not the whole of data.jsonl.
// A file-per-document collection with meta/order.ids is looked up the same way: order.ids and
// the one docs/ file, not an open of every document.
struct ZdsIndexedLookup {
    enum class Outcome { Found, Absent, NeedsLiveSet } outcome = Outcome::NeedsLiveSet;
    ZdsDocument document;  // when Found
};
ZdsIndexedLookup lookUpThroughIndex(const ZdsCollection& c, std::string_view id);

}  // namespace strata::zds
