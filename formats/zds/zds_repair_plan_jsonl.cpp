// The repair's plan of a collection's data.jsonl and index.bin: which lines are the live
// documents, which are quarantined or dropped, and how far the index is trusted.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "zds_json_line.h"
#include "zds_line_index.h"
#include "zds_repair_parts.h"
#include "zds_validator.h"

namespace strata::zds {

namespace {

std::string bytesText(std::uint64_t offset, std::uint64_t length) {
    return "bytes " + std::to_string(offset) + " to " + std::to_string(offset + length);
}

bool isBlank(std::span<const std::uint8_t> bytes) {
    return std::all_of(bytes.begin(), bytes.end(),
                       [](std::uint8_t b) { return b == ' ' || b == '\t' || b == '\r'; });
}

// Whether an index key looks like its line's `_id` with a byte or two changed (same length,
// at most two bytes and fewer than half of them differ): a damaged key rather than a key the
// writer chose (the reference lets a document carry another `_id` than its key).
std::size_t damagedKeyBytes(std::string_view key, std::string_view id) {
    if (key.size() != id.size()) {
        return 0;
    }
    std::size_t differ = 0;
    for (std::size_t i = 0; i < key.size(); ++i) {
        differ += key[i] != id[i] ? 1 : 0;
    }
    return differ <= 2 && 2 * differ < key.size() ? differ : 0;
}

}  // namespace

// ---- data.jsonl + index.bin ----

Region CollectionRepair::lineRegion(std::size_t j) const {
    const std::uint64_t end = j + 1 < starts_.size() ? starts_[j + 1] : c_.data->size();
    return {c_.data.get(), starts_[j], end - starts_[j]};
}

std::optional<std::size_t> CollectionRepair::lineAt(std::uint64_t offset) const {
    const auto it = std::lower_bound(starts_.begin(), starts_.end(), offset);
    if (it == starts_.end() || *it != offset) {
        return std::nullopt;
    }
    return static_cast<std::size_t>(it - starts_.begin());
}

std::string CollectionRepair::lineText(std::size_t j) const {
    const Region r = lineRegion(j);
    return "line " + std::to_string(j + 1) + " (" + bytesText(r.offset, r.length) + ")";
}

void CollectionRepair::planJsonl() {
    write_.layout = ZdsLayout::Jsonl;
    live_ = c_.liveSet();
    starts_ = scanLineStarts(*c_.data);
    if (const std::string* why = untrusted("meta/data.jsonl")) {
        quarantineEveryLine(*why);
        return;
    }
    used_.assign(starts_.size(), false);
    liveLine_.assign(live_->size(), 0);
    lostLive_.assign(live_->size(), false);
    basisAction();
    checkIndexTrust();
    readTrailingEntries();
    for (std::uint64_t i = 0; i < live_->size(); ++i) {
        if (i % kCancelEvery == 0) {
            checkCancel();
        }
        keepLive(i);
    }
    sweepLines();
    keepUnlisted();
    indexAction();
}

// data.jsonl fails its CRC-32, which covers the whole file: any of its bytes may have
// changed, so none of its lines is recovered. Every non-blank line is quarantined and every
// document readers list is lost; the collection is written empty.
void CollectionRepair::quarantineEveryLine(const std::string& why) {
    handled_.insert(c_.path("meta/data.jsonl"));
    handled_.insert(c_.path("meta/index.bin"));  // nothing is left for it to index
    std::uint64_t lines = 0;
    for (std::size_t j = 0; j < starts_.size(); ++j) {
        if (j % kCancelEvery == 0) {
            checkCancel();
        }
        const Region region = lineRegion(j);
        if (isBlank(withoutLineEnd(region.source->view(region.offset, region.length).bytes))) {
            continue;
        }
        quarantine_.push_back(
            {c_.name(), c_.path("meta/data.jsonl"), j + 1, region, "data.jsonl " + why});
        ++lines;
    }
    report_.lostKnown += live_->size();
    loss("meta/data.jsonl " + why + ": which of its bytes changed is unknown, so none of its " +
             std::to_string(lines) + " lines is recovered and the " +
             std::to_string(live_->size()) +
             " documents readers list are lost; its lines are quarantined",
         wholeFile(c_.data));
}

// Whether the index passes its checks. When it does not (it fails its CRC-32, or its
// entries disagree with the lines in any way but a key chosen on purpose), an entry's key is
// not trusted over the `_id` of the line it points at.
void CollectionRepair::checkIndexTrust() {
    if (!c_.index) {
        return;
    }
    const std::string* why = untrusted("meta/index.bin");
    if (why != nullptr) {
        handled_.insert(c_.path("meta/index.bin"));
    }
    if (!live_->fromIndex()) {
        if (why != nullptr) {
            action("meta/index.bin " + *why + ", and it is not used (above)", wholeFile(c_.index));
        }
        return;
    }
    const std::string fault = why != nullptr ? std::string() : firstIndexFault();
    indexDoubt_ = why != nullptr ? *why : fault.empty() ? "" : "fails its checks (" + fault + ")";
    if (!indexDoubt_.empty()) {
        action("meta/index.bin " + indexDoubt_ +
                   ": each entry was checked against its line, and where the two disagree "
                   "the line's own _id is taken",
               wholeFile(c_.index));
    }
}

// The first fault of the index itself (what its own bytes say, not where data.jsonl's lines
// now are), or "": a key that is not an id, entries that cannot be read or follow the
// declared ones, two entries for one line or one id. An entry naming a line with another
// `_id` is no fault: the reference writes such keys when a document carries its own `_id`.
std::string CollectionRepair::firstIndexFault() {
    const ZdxIndex& zdx = *c_.zdx();
    if (zdx.layout() == ZdxLayout::Binary && zdx.entriesEnd() < c_.index->size()) {
        return "bytes follow its declared entries";
    }
    std::vector<bool> covered(starts_.size(), false);
    std::uint64_t parsed = 0;
    for (std::uint64_t i = 0; i < zdx.entryCount(); ++i) {
        if (i % kCancelEvery == 0) {
            checkCancel();
        }
        const ZdxEntry e = zdx.entry(i);
        if (!e.parsed) {
            return "index line " + std::to_string(i + 1) + " is not id, offset and length";
        }
        ++parsed;
        if (!usableKey(e.id)) {
            return "entry " + std::to_string(i) + " has a key that is not a valid id";
        }
        // An entry that misses its line (another offset or length) says nothing about the
        // index itself: data.jsonl may have moved under it. Readers then look the key up
        // among the lines (a relocated entry).
        const auto line = lineAt(e.offset);
        if (!line) {
            continue;
        }
        if (covered[*line]) {
            return "two entries point at " + lineText(*line);
        }
        covered[*line] = true;
    }
    return parsed == live_->size() ? std::string() : "an id has two entries";
}

// RepairOptions::keepSuperseded: the lines kept as history go first, in file order, so that
// without an index the last line of each `_id` is still the live one.
void CollectionRepair::keepUnlisted() {
    if (unlisted_.empty()) {
        return;
    }
    action("kept " + std::to_string(unlisted_.size()) + " superseded or deleted line" +
           (unlisted_.size() == 1 ? "" : "s") +
           " in data.jsonl without index entries (before the live documents), as history");
    write_.documents.insert(write_.documents.begin(), unlisted_.begin(), unlisted_.end());
    unlisted_.clear();
}

void CollectionRepair::basisAction() {
    if (live_->basis() != ZdsLiveBasis::Lines || !c_.index) {
        return;
    }
    action("meta/index.bin is not readable (" + zdsIndexProblem(c_) +
               "): the live documents were taken from the lines of data.jsonl (the last "
               "line of each _id); documents deleted only from that index are live again",
           wholeFile(c_.index));
}

// Ids in entries after the declared ones (a count too low): readers ignore them, but a
// line they name is reported, not silently dropped.
void CollectionRepair::readTrailingEntries() {
    if (!live_->fromIndex() || c_.zdx()->layout() != ZdxLayout::Binary) {
        return;
    }
    const ByteSource& index = *c_.index;
    std::uint64_t at = c_.zdx()->entriesEnd();
    while (at + 2 <= index.size() && trailingIds_.size() < kListedDrops) {
        const ByteView len = index.view(at, 2);
        const std::uint64_t idLength = len.bytes[0] | (std::uint64_t(len.bytes[1]) << 8);
        if (at + 2 + idLength + 12 > index.size()) {
            break;
        }
        const ByteView id = index.view(at + 2, idLength);
        trailingIds_.emplace(reinterpret_cast<const char*>(id.data()), id.size());
        at += 2 + idLength + 12;
    }
}

void CollectionRepair::indexAction() {
    const std::string written = std::to_string(listedCount(write_));
    if (!c_.index) {
        action(
            "meta/index.bin is missing: the live documents are the lines of data.jsonl (the "
            "last line of each _id); a new index lists the " +
            written + " documents kept");
    } else if (live_->fromIndex()) {
        const ZdxIndex& zdx = *c_.zdx();
        std::string text = "meta/index.bin rebuilt: " + written +
                           " entries, each naming its document's line (the old index " +
                           (zdx.layout() == ZdxLayout::Text ? "was a text index and " : "") +
                           "listed " + std::to_string(live_->size()) + " documents)";
        if (zdx.layout() == ZdxLayout::Binary && zdx.entriesEnd() < c_.index->size()) {
            text += "; the " + std::to_string(c_.index->size() - zdx.entriesEnd()) +
                    " bytes after its declared entries were ignored, so lines only they "
                    "may have listed count as deleted";
        }
        action(text, wholeFile(c_.index));
    } else {
        action("meta/index.bin rebuilt from the lines: " + written + " entries");
    }
}

void CollectionRepair::keepLive(std::uint64_t i) {
    const std::string key(live_->id(i));
    const Region region = live_->region(i);
    if (!region.valid()) {
        lostUnreadable(i, key);
        return;
    }
    const auto line = lineAt(region.offset);
    if (line) {
        used_[*line] = true;
        liveLine_[i] = *line + 1;
    }
    const ByteView v = region.source->view(region.offset, region.length);
    const Verdict verdict = judge(withoutLineEnd(v.bytes), std::nullopt);
    const std::string at = line ? lineText(*line) : bytesText(region.offset, region.length);
    if (!verdict.problem.empty()) {
        lostLive_[i] = true;
        ++report_.lostKnown;
        quarantine_.push_back(
            {c_.name(), c_.path("meta/data.jsonl"), line ? *line + 1 : 0, region, verdict.problem});
        loss("document " + shownId(key) + " is lost: its " + at + " is " + verdict.problem +
                 "; quarantined",
             region);
        return;
    }
    if (!usableKey(key)) {
        keepUnderOwnId(i, key, region, at, verdict.id,
                       "its key is not a valid id (empty or not UTF-8)");
        return;
    }
    const bool mismatch = (live_->flags(i) & kZdsLiveKeyMismatch) != 0;
    if (mismatch && !indexDoubt_.empty()) {
        keepUnderOwnId(i, key, region, at, verdict.id, "the index " + indexDoubt_);
        return;
    }
    write_.documents.push_back(ZdsWriteDoc::original(i));
    ++report_.recovered;
    if ((live_->flags(i) & kZdsLiveRelocated) != 0) {
        action("document " + shownId(key) + ": its index entry missed its line; kept from " + at +
                   ", the line with that _id it most likely named (its length, nearest to "
                   "where it pointed; else the last)",
               region);
    }
    if (mismatch) {
        keptUnderKey(key, at, verdict.id, region);
    }
}

// A sound index whose key differs from its line's `_id`. Keys unlike the `_id` are the
// writer's choice; a key and an `_id` a byte or two apart are one of them damaged, and
// nothing (no checksum) tells which: the document stays under the key, where readers of
// the input find it, and the disagreement is a loss, so the repair is not complete.
void CollectionRepair::keptUnderKey(const std::string& key, const std::string& at,
                                    const std::string& ownId, const Region& region) {
    const std::string listed = "document " + shownId(key) +
                               " kept under the key the index lists although its " + at +
                               " carries _id " + shownId(ownId);
    if (const std::size_t n = damagedKeyBytes(key, ownId); n > 0) {
        loss(listed + ": the two differ in " + std::to_string(n) + " byte" + (n == 1 ? "" : "s") +
                 ", so one of them was damaged, and nothing tells which (check it by hand)",
             region);
    } else {
        action(listed, region);
    }
}

bool CollectionRepair::usableKey(std::string_view key) {
    return !key.empty() && key.size() <= kMaxZdxId &&
           firstInvalidUtf8({reinterpret_cast<const std::uint8_t*>(key.data()), key.size()}) ==
               std::string::npos;
}

// A key that is not trusted (`why`) over its line's `_id`: the document is written under
// the line's own `_id` when no other document has that id, else left out. Either way
// readers of the output do not find it under the key readers of the input find it by, so
// the step is reported with the losses.
void CollectionRepair::keepUnderOwnId(std::uint64_t i, const std::string& key, const Region& region,
                                      const std::string& at, const std::string& ownId,
                                      const std::string& why) {
    const std::string listed =
        "the index lists " + shownId(key) + " at " + at + ", whose _id is " + shownId(ownId);
    if (live_->find(ownId) || !ownIds_.insert(ownId).second) {
        lostLive_[i] = true;
        ++report_.lostKnown;
        loss(listed + "; " + why + ", and another entry lists " + shownId(ownId) + ": " +
                 shownId(key) + " is not in the output",
             region);
        return;
    }
    write_.documents.push_back(ZdsWriteDoc::dataLine(region.offset, region.length));
    ++report_.recovered;
    loss(listed + "; " + why + ": the document is written under " + shownId(ownId) +
             ", so readers no longer find it as " + shownId(key),
         region);
}

void CollectionRepair::lostUnreadable(std::uint64_t i, const std::string& key) {
    lostLive_[i] = true;
    ++report_.lostKnown;
    Region entry;
    if (live_->fromIndex() && c_.zdx() != nullptr && live_->entry(i) < c_.zdx()->entryCount()) {
        entry = c_.zdx()->entry(live_->entry(i)).entry;
    }
    loss("document " + shownId(key) +
             " is lost: the index lists it but no line of data.jsonl "
             "holds it",
         entry);
}

// Lines no live document uses: damaged ones are quarantined, others dropped.
void CollectionRepair::sweepLines() {
    std::uint64_t blank = 0;
    std::uint64_t dropped = 0;
    for (std::size_t j = 0; j < starts_.size(); ++j) {
        if (j % kCancelEvery == 0) {
            checkCancel();
            options_.reportProgress(double(j) / double(starts_.size()),
                                    c_.name() + ": line " + std::to_string(j + 1));
        }
        if (used_[j]) {
            continue;
        }
        const Region region = lineRegion(j);
        const ByteView v = region.source->view(region.offset, region.length);
        const auto bytes = withoutLineEnd(v.bytes);
        if (isBlank(bytes)) {
            ++blank;
            continue;
        }
        const Verdict verdict = judge(bytes, std::nullopt);
        if (!verdict.problem.empty()) {
            quarantine_.push_back(
                {c_.name(), c_.path("meta/data.jsonl"), j + 1, region, verdict.problem});
            loss(lineText(j) + " of data.jsonl is " + verdict.problem + "; quarantined" +
                     (live_->fromIndex() ? " (the index does not list it)" : ""),
                 region);
            continue;
        }
        if (options_.keepSuperseded) {
            unlisted_.push_back(ZdsWriteDoc::unlistedLine(region.offset, region.length));
            continue;
        }
        ++report_.supersededLeftOut;
        if (trailingIds_.contains(verdict.id) && !live_->find(verdict.id)) {
            loss(lineText(j) + ": " + shownId(verdict.id) +
                     " is named only in the bytes after the index's declared entries (its "
                     "count is too low), so it is not live and is left out",
                 region);
            continue;
        }
        if (!indexDoubt_.empty() && !live_->find(verdict.id)) {
            // Deleted, or listed by the entries the damage took: nothing tells which.
            quarantine_.push_back({c_.name(), c_.path("meta/data.jsonl"), j + 1, region,
                                   "not listed by an index that " + indexDoubt_});
            loss(lineText(j) + ": " + shownId(verdict.id) + " is not listed by the index, which " +
                     indexDoubt_ + ", so it may have been live; quarantined",
                 region);
            continue;
        }
        if (++dropped <= kListedDrops) {
            action("dropped " + lineText(j) + ": " + whyDropped(verdict.id), region);
        }
    }
    if (dropped > kListedDrops) {
        action("dropped " + std::to_string(dropped - kListedDrops) +
               " more superseded or deleted lines");
    }
    if (blank > 0) {
        action("dropped " + std::to_string(blank) + " blank line" + (blank == 1 ? "" : "s"));
    }
}

std::string CollectionRepair::whyDropped(const std::string& id) const {
    const auto i = live_->find(id);
    if (!i) {
        return shownId(id) + (live_->fromIndex()
                                  ? " is not listed by the index (a deleted document)"
                                  : " is not a live document");
    }
    std::string text = "an older version of " + shownId(id);
    if (liveLine_[*i] != 0) {
        text += " (line " + std::to_string(liveLine_[*i]) + " is the live one" +
                (lostLive_[*i] ? ", and it is damaged; the older version is not restored" : "") +
                ")";
    }
    return text;
}

}  // namespace strata::zds
