#include "zds_repair.h"

#include <stdlib.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "formats/common/diagnostic.h"
#include "zds_docs_meta.h"
#include "zds_json_line.h"
#include "zds_line_index.h"
#include "zds_live_set.h"
#include "zds_reader.h"
#include "zds_repair_checksums.h"
#include "zds_repair_quarantine.h"
#include "zds_validator.h"
#include "zds_writer.h"
#include "zds_zip_salvage.h"

namespace strata::zds {

namespace fs = std::filesystem;

namespace {

// Dropped lines (superseded, deleted) listed one by one per collection; the rest are counted.
constexpr std::size_t kListedDrops = 1000;
constexpr std::size_t kMaxZdxId = 65535;
constexpr std::uint64_t kCancelEvery = 8192;

std::string bytesText(std::uint64_t offset, std::uint64_t length) {
    return "bytes " + std::to_string(offset) + " to " + std::to_string(offset + length);
}

// An id for a message: bytes that are not UTF-8 text as \xNN, cut after 60 bytes.
std::string shownId(std::string_view id) {
    return "'" + zdsShownName(id.substr(0, 60)) + (id.size() > 60 ? "...'" : "'");
}

std::span<const std::uint8_t> withoutLineEnd(std::span<const std::uint8_t> bytes) {
    std::size_t n = bytes.size();
    while (n > 0 && (bytes[n - 1] == '\n' || bytes[n - 1] == '\r')) {
        --n;
    }
    return bytes.first(n);
}

bool isBlank(std::span<const std::uint8_t> bytes) {
    return std::all_of(bytes.begin(), bytes.end(),
                       [](std::uint8_t b) { return b == ' ' || b == '\t' || b == '\r'; });
}

// Whether a document's bytes can go into the output as they are: one JSON object in valid UTF-8
// with an `_id` that is a non-empty string an index entry can hold (docs/ files need no `_id`,
// but one they carry must be their name).
struct Verdict {
    std::string problem;  // empty when usable
    std::string id;
};

Verdict judge(std::span<const std::uint8_t> bytes, std::optional<std::string_view> fileId) {
    const std::size_t bad = firstInvalidUtf8(bytes);
    if (bad != std::string::npos) {
        return {"not valid UTF-8 (at byte " + std::to_string(bad) + ")", {}};
    }
    if (!fileId) {
        // The fast parse proves most lines right; the SAX pass then only runs to say what is wrong.
        if (auto id = provenDocumentId(bytes); id && !id->empty() && id->size() <= kMaxZdxId) {
            return {{}, std::move(*id)};
        }
    }
    JsonLineFacts facts = analyzeJsonLine(bytes);
    if (!facts.valid) {
        return {"not JSON (" + facts.error + ")", {}};
    }
    if (!facts.isObject) {
        return {"not a JSON object", {}};
    }
    if (fileId) {
        if (facts.hasId && (!facts.idIsString || facts.id != *fileId)) {
            return {"its _id is not its file name", {}};
        }
        return {};
    }
    if (!facts.hasId) {
        return {"a JSON object without _id", {}};
    }
    if (!facts.idIsString) {
        return {"a JSON object whose _id is not a string", {}};
    }
    if (facts.id.empty()) {
        return {"a JSON object whose _id is empty", {}};
    }
    if (facts.id.size() > kMaxZdxId) {
        return {"a JSON object whose _id is longer than an index entry can hold (65535 bytes)", {}};
    }
    return {{}, std::move(facts.id)};
}

std::optional<nlohmann::json> readObject(const ByteSourcePtr& source) {
    if (!source) {
        return std::nullopt;
    }
    const ByteView v = source->view(0, source->size());
    auto j = nlohmann::json::parse(v.data(), v.data() + v.size(), nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
        return std::nullopt;
    }
    return j;
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

// The documents a collection's write lists (lines kept as history are not documents).
std::uint64_t listedCount(const ZdsCollectionWrite& write) {
    return static_cast<std::uint64_t>(std::count_if(write.documents.begin(), write.documents.end(),
                                                    [](const ZdsWriteDoc& d) { return d.listed; }));
}

Region wholeFile(const ByteSourcePtr& source) {
    return source ? Region{source.get(), 0, source->size()} : Region{};
}

// What the plans of all collections add to besides the report.
struct PlanState {
    std::vector<ZdsQuarantined> quarantine;
    std::set<std::string> handled;   // untrusted files a plan has reported
    std::set<std::string> leaveOut;  // files of the input the writer must not copy or reuse
};

// Plans the repair of one collection: what is written, what is dropped, what is lost.
class CollectionRepair {
public:
    CollectionRepair(const ZdsCollection& c, const RepairOptions& options, RepairReport& report,
                     const ZdsUntrusted& untrusted, PlanState& state)
        : c_(c),
          options_(options),
          report_(report),
          quarantine_(state.quarantine),
          untrusted_(untrusted),
          handled_(state.handled),
          leaveOut_(state.leaveOut) {
        write_.name = c.name();
        write_.source = &c;
    }

    ZdsCollectionWrite plan() {
        if (c_.mode() == ZdsStorageMode::Jsonl) {
            planJsonl();
        } else if (c_.mode() == ZdsStorageMode::None) {
            if (c_.index) {
                planOrphanIndex();
            } else if (c_.docIndex) {
                planOrphanDocIndex();
            } else {
                write_.layout = ZdsLayout::Jsonl;
                action(
                    "the collection holds neither meta/data.jsonl nor docs/: written as an "
                    "empty collection, so that it is still there");
            }
        } else {
            planDocs();
        }
        manifestActions();
        return std::move(write_);
    }

private:
    std::string where() const { return "collection '" + c_.name() + "': "; }

    void checkCancel() const {
        if (options_.cancel != nullptr && options_.cancel->cancelled()) {
            throw JobCancelled();
        }
    }

    void action(std::string text, const Region& region = {}) {
        report_.actions.push_back({where() + text, region});
    }
    void loss(std::string text, const Region& region = {}) {
        report_.losses.push_back({where() + text, region});
    }

    // Why a file of the collection fails its checksum (null when it does not).
    const std::string* untrusted(const std::string& rel) const {
        return untrusted_.why(c_.path(rel));
    }

    void quarantineFile(const std::string& rel, const ByteSourcePtr& source,
                        const std::string& why) {
        quarantine_.push_back({c_.name(), c_.path(rel), 0, wholeFile(source), rel + " " + why});
        handled_.insert(c_.path(rel));
    }

    // ---- data.jsonl + index.bin ----

    Region lineRegion(std::size_t j) const {
        const std::uint64_t end = j + 1 < starts_.size() ? starts_[j + 1] : c_.data->size();
        return {c_.data.get(), starts_[j], end - starts_[j]};
    }

    std::optional<std::size_t> lineAt(std::uint64_t offset) const {
        const auto it = std::lower_bound(starts_.begin(), starts_.end(), offset);
        if (it == starts_.end() || *it != offset) {
            return std::nullopt;
        }
        return static_cast<std::size_t>(it - starts_.begin());
    }

    std::string lineText(std::size_t j) const {
        const Region r = lineRegion(j);
        return "line " + std::to_string(j + 1) + " (" + bytesText(r.offset, r.length) + ")";
    }

    void planJsonl() {
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
    void quarantineEveryLine(const std::string& why) {
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
    void checkIndexTrust() {
        if (!c_.index) {
            return;
        }
        const std::string* why = untrusted("meta/index.bin");
        if (why != nullptr) {
            handled_.insert(c_.path("meta/index.bin"));
        }
        if (!live_->fromIndex()) {
            if (why != nullptr) {
                action("meta/index.bin " + *why + ", and it is not used (above)",
                       wholeFile(c_.index));
            }
            return;
        }
        const std::string fault = why != nullptr ? std::string() : firstIndexFault();
        indexDoubt_ = why != nullptr  ? *why
                      : fault.empty() ? ""
                                      : "fails its checks (" + fault + ")";
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
    std::string firstIndexFault() {
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
    void keepUnlisted() {
        if (unlisted_.empty()) {
            return;
        }
        action("kept " + std::to_string(unlisted_.size()) + " superseded or deleted line" +
               (unlisted_.size() == 1 ? "" : "s") +
               " in data.jsonl without index entries (before the live documents), as history");
        write_.documents.insert(write_.documents.begin(), unlisted_.begin(), unlisted_.end());
        unlisted_.clear();
    }

    void basisAction() {
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
    void readTrailingEntries() {
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

    void indexAction() {
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

    void keepLive(std::uint64_t i) {
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
            quarantine_.push_back({c_.name(), c_.path("meta/data.jsonl"), line ? *line + 1 : 0,
                                   region, verdict.problem});
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
            action("document " + shownId(key) + ": its index entry missed its line; kept from " +
                       at +
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
    void keptUnderKey(const std::string& key, const std::string& at, const std::string& ownId,
                      const Region& region) {
        const std::string listed = "document " + shownId(key) +
                                   " kept under the key the index lists although its " + at +
                                   " carries _id " + shownId(ownId);
        if (const std::size_t n = damagedKeyBytes(key, ownId); n > 0) {
            loss(listed + ": the two differ in " + std::to_string(n) + " byte" +
                     (n == 1 ? "" : "s") +
                     ", so one of them was damaged, and nothing tells which (check it by hand)",
                 region);
        } else {
            action(listed, region);
        }
    }

    static bool usableKey(std::string_view key) {
        return !key.empty() && key.size() <= kMaxZdxId &&
               firstInvalidUtf8({reinterpret_cast<const std::uint8_t*>(key.data()), key.size()}) ==
                   std::string::npos;
    }

    // A key that is not trusted (`why`) over its line's `_id`: the document is written under
    // the line's own `_id` when no other document has that id, else left out. Either way
    // readers of the output do not find it under the key readers of the input find it by, so
    // the step is reported with the losses.
    void keepUnderOwnId(std::uint64_t i, const std::string& key, const Region& region,
                        const std::string& at, const std::string& ownId, const std::string& why) {
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

    // index.bin without data.jsonl: every document it lists is lost; the collection is written
    // as an empty JSONL collection.
    void planOrphanIndex() {
        write_.layout = ZdsLayout::Jsonl;
        const ZdxIndex& zdx = *c_.zdx();
        std::uint64_t listed = 0;
        for (std::uint64_t n = 0; n < zdx.entryCount(); ++n) {
            const ZdxEntry e = zdx.entry(n);
            if (e.parsed) {
                ++listed;
                ++report_.lostKnown;
                loss("document " + shownId(e.id) + " is lost: meta/data.jsonl is missing", e.entry);
            }
        }
        if (listed == 0) {
            loss("meta/index.bin has no meta/data.jsonl to index; whatever it held is lost",
                 wholeFile(c_.index));
        }
        action("meta/index.bin without meta/data.jsonl: written as an empty collection",
               wholeFile(c_.index));
    }

    // meta/doc_index.jsonl without docs/ or order.ids: every document it lists is lost; the
    // collection is written as an empty file-per-document collection.
    void planOrphanDocIndex() {
        write_.layout = ZdsLayout::Docs;
        const ByteSource& source = *c_.docIndex;
        std::uint64_t listed = 0;
        const auto starts = scanLineStarts(source);
        for (std::size_t j = 0; j < starts.size(); ++j) {
            const std::uint64_t end = j + 1 < starts.size() ? starts[j + 1] : source.size();
            const ByteView v = source.view(starts[j], end - starts[j]);
            const auto line = nlohmann::json::parse(v.data(), v.data() + v.size(), nullptr, false);
            if (line.is_object() && line.contains("doc_id") && line["doc_id"].is_string()) {
                ++listed;
                ++report_.lostKnown;
                loss("document " + shownId(line["doc_id"].get<std::string>()) +
                         " is lost: meta/doc_index.jsonl lists it but there is no docs/ file",
                     Region{&source, starts[j], end - starts[j]});
            }
        }
        if (listed == 0) {
            loss("meta/doc_index.jsonl has no docs/ folder; whatever it listed is lost",
                 wholeFile(c_.docIndex));
        }
        action("meta/doc_index.jsonl without docs/: written as an empty collection",
               wholeFile(c_.docIndex));
    }

    void lostUnreadable(std::uint64_t i, const std::string& key) {
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
    void sweepLines() {
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
                loss(lineText(j) + ": " + shownId(verdict.id) +
                         " is not listed by the index, which " + indexDoubt_ +
                         ", so it may have been live; quarantined",
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

    std::string whyDropped(const std::string& id) const {
        const auto i = live_->find(id);
        if (!i) {
            return shownId(id) + (live_->fromIndex()
                                      ? " is not listed by the index (a deleted document)"
                                      : " is not a live document");
        }
        std::string text = "an older version of " + shownId(id);
        if (liveLine_[*i] != 0) {
            text +=
                " (line " + std::to_string(liveLine_[*i]) + " is the live one" +
                (lostLive_[*i] ? ", and it is damaged; the older version is not restored" : "") +
                ")";
        }
        return text;
    }

    // ---- docs/ files ----

    void planDocs() {
        write_.layout = ZdsLayout::Docs;
        live_ = c_.liveSet();
        checkJournal();
        if (const auto basis = untrustedBasis()) {
            keepEveryDocsFile(*basis);
            return;
        }
        for (std::uint64_t i = 0; i < live_->size(); ++i) {
            if (i % kCancelEvery == 0) {
                checkCancel();
            }
            const std::string key(live_->id(i));
            const Region region = live_->region(i);
            const std::string file = "docs/" + key + ".json";
            if (!region.valid()) {
                ++report_.lostKnown;
                loss("document " + shownId(key) + " is lost: " + file + " does not exist");
                continue;
            }
            if (keepDocsFile(key, region)) {
                write_.documents.push_back(ZdsWriteDoc::original(i));
            }
        }
        dropUnlistedFiles();
    }

    // The writer keeps the journal (the collection's history) and adds the write's entries; a
    // journal with a line that is not an entry is not kept (readers stop replaying there, and
    // the output would not validate): a new journal is written, the old one quarantined.
    void checkJournal() {
        const std::string rel = "meta/journal.log";
        const ByteSourcePtr journal = c_.storage().open(c_.path(rel));
        if (!journal || untrusted(rel) != nullptr) {
            return;  // an untrusted journal is reported with the other untrusted files
        }
        const ByteView v = journal->view(0, journal->size());
        const std::string_view text(reinterpret_cast<const char*>(v.data()), v.size());
        std::string error;
        for (const ZdsTextLine& line : zdsTextLines(text)) {
            if (!parseZdsJournalLine(line.text, &error)) {
                const std::string why = "line " + std::to_string(line.number) +
                                        " is not a journal entry (" + error + ")";
                quarantine_.push_back(
                    {c_.name(), c_.path(rel), 0, wholeFile(journal), "journal.log: " + why});
                leaveOut_.insert(c_.path(rel));
                loss(rel + ": " + why +
                         ": the collection's history is not kept (a new journal is written); "
                         "its bytes are quarantined",
                     wholeFile(journal));
                return;
            }
        }
    }

    // Whether docs/<key>.json can be kept; when it cannot, the document is lost and the file
    // quarantined.
    bool keepDocsFile(const std::string& key, const Region& region) {
        const std::string file = "docs/" + key + ".json";
        std::string problem, reason;  // for the report, for the quarantine
        if (const std::string* why = untrusted(file)) {
            problem = *why;
            reason = file + " " + *why;
            handled_.insert(c_.path(file));
        } else {
            const ByteView v = region.source->view(region.offset, region.length);
            reason = judge(v.bytes, key).problem;
            problem = reason.empty() ? "" : "is " + reason;
        }
        if (!problem.empty()) {
            ++report_.lostKnown;
            quarantine_.push_back({c_.name(), c_.path(file), 0, region, reason});
            loss("document " + shownId(key) + " is lost: " + file + " " + problem + "; quarantined",
                 region);
            return false;
        }
        ++report_.recovered;
        return true;
    }

    // The file that says which docs/ files are live, when it fails its checksum.
    std::optional<std::string> untrustedBasis() const {
        const std::string rel = live_->basis() == ZdsLiveBasis::OrderIds   ? "meta/order.ids"
                                : live_->basis() == ZdsLiveBasis::DocIndex ? "meta/doc_index.jsonl"
                                                                           : "";
        return !rel.empty() && untrusted(rel) != nullptr ? std::optional(rel) : std::nullopt;
    }

    // The list of live documents fails its checksum: which documents are live, and their
    // order, are unknown, so every docs/ file that can be kept is (in name order).
    void keepEveryDocsFile(const std::string& basis) {
        const ByteSourcePtr list = c_.storage().open(c_.path(basis));
        quarantineFile(basis, list, *untrusted(basis));
        loss(basis + " " + *untrusted(basis) +
                 ": which documents are live, and their order, are unknown; every docs/ file is "
                 "kept instead, in name order (a deleted document may be among them), and " +
                 basis + " is quarantined",
             wholeFile(list));
        for (const std::string& file : c_.docFiles()) {
            if (!file.ends_with(".json")) {
                continue;
            }
            const std::string id = file.substr(0, file.size() - 5);
            const ByteSourcePtr source = c_.storage().open(c_.path("docs/" + file));
            if (source && keepDocsFile(id, wholeFile(source))) {
                write_.documents.push_back(ZdsWriteDoc::docsFile(id));
            }
        }
    }

    // docs/ files the live set does not list: deleted documents, left out like superseded lines.
    void dropUnlistedFiles() {
        std::size_t dropped = 0;
        for (const std::string& file : c_.docFiles()) {
            const std::string_view stem = std::string_view(file).substr(0, file.rfind('.'));
            if (live_->find(stem)) {
                continue;
            }
            if (++dropped <= kListedDrops) {
                const ByteSourcePtr source = c_.storage().open(c_.path("docs/" + file));
                action("dropped docs/" + file + ": " + live_->basisText() +
                           " does not list it (a deleted document)",
                       wholeFile(source));
            }
        }
        if (dropped > kListedDrops) {
            action("dropped " + std::to_string(dropped - kListedDrops) +
                   " more unlisted docs/ files");
        }
    }

    // ---- manifest.json ----

    void manifestActions() {
        const std::uint64_t count = listedCount(write_);
        const std::string counted = "doc_count " + std::to_string(count);
        if (const std::string* why = untrusted("meta/manifest.json"); why && c_.manifest) {
            quarantineFile("meta/manifest.json", c_.manifest, *why);
            loss("meta/manifest.json " + *why + ": written afresh with " + counted +
                     " (its other fields are not kept); its bytes are quarantined",
                 wholeFile(c_.manifest));
            return;
        }
        if (!c_.manifest) {
            action("meta/manifest.json was missing: written with " + counted);
            return;
        }
        const auto old = readObject(c_.manifest);
        if (!old) {
            action("meta/manifest.json is not a JSON object: rewritten with " + counted,
                   wholeFile(c_.manifest));
            return;
        }
        const auto it = old->find("doc_count");
        if (it == old->end() || !it->is_number_unsigned() || it->get<std::uint64_t>() != count) {
            action("meta/manifest.json: doc_count " + (it == old->end() ? "absent" : it->dump()) +
                       " set to " + std::to_string(count),
                   wholeFile(c_.manifest));
        }
        const auto name = old->find("collection");
        if (name != old->end() && (!name->is_string() || name->get<std::string>() != c_.name())) {
            action("meta/manifest.json: collection " + name->dump() + " set to '" + c_.name() + "'",
                   wholeFile(c_.manifest));
        }
    }

    const ZdsCollection& c_;
    const RepairOptions& options_;
    RepairReport& report_;
    std::vector<ZdsQuarantined>& quarantine_;
    ZdsCollectionWrite write_;
    std::shared_ptr<const ZdsLiveSet> live_;
    std::vector<std::uint64_t> starts_;    // every line of data.jsonl
    std::vector<bool> used_;               // per line: a live document's
    std::vector<std::uint64_t> liveLine_;  // per live document: its line number, 0 when none
    std::vector<bool> lostLive_;           // per live document: lost
    std::set<std::string> trailingIds_;    // ids after the index's declared entries
    std::vector<ZdsWriteDoc> unlisted_;    // lines kept as history (keepSuperseded)
    const ZdsUntrusted& untrusted_;
    std::set<std::string>& handled_;   // untrusted files a step has reported
    std::set<std::string>& leaveOut_;  // files the writer must not copy or reuse
    std::string indexDoubt_;           // why the index is not trusted over the lines; "" if it is
    std::set<std::string> ownIds_;     // ids documents took from their lines (keepUnderOwnId)
};

// Entries of zds.json's `collections` for collections that do not exist: the writer keeps
// entries for existing collections only.
void droppedZdsJsonEntries(const ZdsDataset& dataset, const nlohmann::json& listed,
                           RepairReport& report) {
    for (auto it = listed.begin(); it != listed.end(); ++it) {
        const std::string& name = it.key();
        const bool exists = std::any_of(dataset.collections.begin(), dataset.collections.end(),
                                        [&](const auto& c) { return c->name() == name; });
        if (!exists) {
            report.actions.push_back({"zds.json lists collection '" + name +
                                          "', which does not exist: its entry " + it->dump() +
                                          " is dropped",
                                      wholeFile(dataset.zdsJson)});
        }
    }
}

// zds.json's counts, which the writer sets for every collection written.
void zdsJsonActions(const ZdsDataset& dataset, const std::vector<ZdsCollectionWrite>& writes,
                    const ZdsUntrusted& untrusted, RepairReport& report) {
    if (dataset.singleCollection || writes.empty() || untrusted.why("zds.json") != nullptr) {
        return;  // an untrusted zds.json is reported with the other untrusted files
    }
    if (!dataset.zdsJson) {
        report.actions.push_back(
            {"zds.json was missing: written with the counts of the "
             "collections",
             {}});
        return;
    }
    const auto old = readObject(dataset.zdsJson);
    if (!old) {
        report.actions.push_back(
            {"zds.json is not a JSON object: rewritten with the counts of the collections",
             wholeFile(dataset.zdsJson)});
        return;
    }
    const nlohmann::json* listed = old->contains("collections") && (*old)["collections"].is_object()
                                       ? &(*old)["collections"]
                                       : nullptr;
    for (const ZdsCollectionWrite& w : writes) {
        const std::uint64_t count = listedCount(w);
        std::string was = "absent";
        if (listed != nullptr && listed->contains(w.name)) {
            const auto& entry = (*listed)[w.name];
            if (entry.is_object() && entry.contains("count")) {
                if (entry["count"].is_number_unsigned() &&
                    entry["count"].get<std::uint64_t>() == count) {
                    continue;
                }
                was = entry["count"].dump();
            }
        }
        report.actions.push_back({"zds.json: the count of collection '" + w.name + "' " + was +
                                      " set to " + std::to_string(count),
                                  wholeFile(dataset.zdsJson)});
    }
    if (listed != nullptr) {
        droppedZdsJsonEntries(dataset, *listed, report);
    }
}

// The collection a dataset-relative path lies in ("" for the dataset's own files).
std::string collectionOf(const std::string& rel) {
    const std::string prefix = "collections/";
    if (!rel.starts_with(prefix)) {
        return {};
    }
    return rel.substr(prefix.size(), rel.find('/', prefix.size()) - prefix.size());
}

// Files that fail their checksum and that no collection's plan dealt with (zds.json, a journal,
// anything else the dataset holds): none reaches the output (the writer leaves them out, and
// writes zds.json afresh); each is a loss, its bytes quarantined.
void reportUntrustedFiles(const ZdsDataset& dataset, const ZdsUntrusted& untrusted,
                          const std::set<std::string>& handled,
                          std::vector<ZdsQuarantined>& quarantine, RepairReport& report) {
    for (const auto& [rel, why] : untrusted.files) {
        if (handled.contains(rel)) {
            continue;
        }
        if (rel.ends_with('/')) {  // a folder: nothing of its own to lose
            const std::string parent = rel.substr(0, rel.rfind('/', rel.size() - 2) + 1);
            if (untrusted.why(parent) != nullptr) {
                continue;  // said of the folder it lies in
            }
            report.actions.push_back(
                {"folder " + zdsShownName(rel) + " " + why + ": no entry is written for it", {}});
            continue;
        }
        const ByteSourcePtr source = dataset.storage().open(rel);
        const std::string outcome =
            rel == "zds.json"
                ? "written afresh with the counts of the collections (its other fields are not "
                  "kept)"
                : "not copied into the output";
        report.losses.push_back({zdsShownName(rel) + " " + why + ": " + outcome +
                                     (source ? "; its bytes are quarantined" : ""),
                                 wholeFile(source)});
        if (source) {
            quarantine.push_back({collectionOf(rel), rel, 0, wholeFile(source), rel + " " + why});
        }
    }
}

// The lines a JSONL collection's repair copies, as the writer writes them: a live document's
// line or a line of data.jsonl, without its final '\n', under the key the writer gives it.
class PlannedLines final : public ZdsCopiedLines {
public:
    explicit PlannedLines(const ZdsCollectionWrite& write)
        : write_(write), live_(write.source->liveSet()) {}

    std::uint64_t count() const override { return write_.documents.size(); }
    std::uint64_t listedCount() const override { return zds::listedCount(write_); }

    ZdsCopiedLine line(std::uint64_t n) const override {
        const ZdsWriteDoc& d = write_.documents[n];
        ZdsCopiedLine out;
        if (d.originalIndex) {
            const Region region = live_->region(*d.originalIndex);
            out.bytes = region.source->view(region.offset, region.length);
            out.key = live_->id(*d.originalIndex);
        } else if (d.dataRange) {
            out.bytes = write_.source->data->view(d.dataRange->first, d.dataRange->second);
        }
        if (!out.bytes.empty() && out.bytes.bytes.back() == '\n') {
            out.bytes.bytes = out.bytes.bytes.first(out.bytes.size() - 1);
        }
        if (d.dataRange && d.listed) {
            out.key = jsonLineId(withoutLineEnd(out.bytes.bytes)).value_or("");
        }
        out.listed = d.listed;
        return out;
    }

    // Whether every document of `write` is such a copy.
    static bool covers(const ZdsCollectionWrite& write) {
        return write.layout == ZdsLayout::Jsonl && write.source != nullptr &&
               write.source->mode() == ZdsStorageMode::Jsonl &&
               std::all_of(write.documents.begin(), write.documents.end(),
                           [](const ZdsWriteDoc& d) {
                               return (d.originalIndex || d.dataRange) && !d.severalLines;
                           });
    }

private:
    const ZdsCollectionWrite& write_;
    std::shared_ptr<const ZdsLiveSet> live_;
};

// The output's final check. When the writer wrote exactly the plan (no notes), the lines of
// each JSONL collection are compared with the input lines the plan checked instead of being
// parsed again (makeZdsCopyCheck); everything else is validated in full.
void validateOutput(const fs::path& target, const std::vector<ZdsCollectionWrite>& writes,
                    bool wroteThePlan, const RepairOptions& options) {
    std::vector<std::unique_ptr<PlannedLines>> planned;
    ZdsCopiedData copied;
    for (const ZdsCollectionWrite& w : writes) {
        if (wroteThePlan && PlannedLines::covers(w)) {
            planned.push_back(std::make_unique<PlannedLines>(w));
            copied.collections.emplace(w.name, planned.back().get());
        }
    }
    auto validator = makeZdsCopyCheck(target, &copied);
    CollectingSink sink;
    ValidationOptions validation;
    validation.cancel = options.cancel;
    if (validator->run(sink, validation) == JobOutcome::Cancelled) {
        throw JobCancelled();
    }
    requireValidOutput(sink.diagnostics());
}

// Writes, validates and publishes: the dataset and the quarantine file are built in a stage
// folder beside the output and given their names only when the dataset validates.
void writeRepaired(const ZdsDataset& dataset, const std::vector<ZdsCollectionWrite>& writes,
                   const std::vector<ZdsQuarantined>& quarantine,
                   const std::set<std::string>& leaveOut, const fs::path& output,
                   const RepairOptions& options, RepairReport& report) {
    runInRepairStage(output, [&](const fs::path& stage) {
        const fs::path target = stage / output.filename();
        ZdsWriteOptions writeOptions;
        writeOptions.cancel = options.cancel;
        writeOptions.progress = options.progress;
        writeOptions.leaveOut = leaveOut;
        const ZdsWriteResult result = writeZdsDataset(&dataset, writes, target, writeOptions);
        if (result.cancelled) {
            throw JobCancelled();
        }
        for (const std::string& note : result.notes) {
            report.losses.push_back({note, {}});
        }
        if (options.beforeOutputCheck) {
            options.beforeOutputCheck(target);
        }
        validateOutput(target, writes, result.notes.empty(), options);
        const fs::path quarantined = stage / "quarantine.jsonl";
        if (!quarantine.empty()) {
            writeZdsQuarantine(quarantined, quarantine);
        }
        publishRepairWithQuarantine(target, output, quarantined, zdsQuarantinePath(output));
    });
}

// An archive libzip cannot open, its members recovered by scanning into a temporary folder
// (removed afterwards) that the planner then reads like any dataset folder.
class SalvagedArchive {
public:
    SalvagedArchive(const fs::path& archive, const std::string& why, const RepairOptions& options,
                    RepairReport& report)
        : archive_(archive) {
        std::string pattern = (fs::temp_directory_path() / "strata-zds-salvage-XXXXXX").string();
        if (::mkdtemp(pattern.data()) == nullptr) {
            throw RepairError("cannot create a temporary folder for " + archive.string());
        }
        folder_ = pattern;
        try {
            scan(why, options, report);
        } catch (...) {
            std::error_code ec;
            fs::remove_all(folder_, ec);
            throw;
        }
    }
    ~SalvagedArchive() {
        std::error_code ec;
        fs::remove_all(folder_, ec);
    }
    SalvagedArchive(const SalvagedArchive&) = delete;
    SalvagedArchive& operator=(const SalvagedArchive&) = delete;

    const fs::path& folder() const { return folder_; }
    // The recovered members whose bytes fail their CRC-32.
    const ZdsUntrusted& untrusted() const { return untrusted_; }

    // Steps that name a recovered file name it as the archive's member instead.
    void renameSteps(RepairReport& report) const {
        const std::string prefix = folder_.string() + "/";
        for (auto* steps : {&report.actions, &report.losses}) {
            for (RepairStep& s : *steps) {
                if (s.bytes.file.starts_with(prefix)) {
                    s.bytes.file = archive_.string() + "!" + s.bytes.file.substr(prefix.size());
                }
            }
        }
    }

private:
    void scan(const std::string& why, const RepairOptions& options, RepairReport& report) {
        const fs::path& archive = archive_;
        const ByteSourcePtr bytes = openMappedFile(archive);
        ZipSalvage salvage = salvageZipMembers(*bytes, folder_, options.cancel);
        if (salvage.members == 0) {
            throw RepairError(archive.string() + ": cannot be read as a ZDS dataset (" + why +
                              ") and holds no ZIP member to recover");
        }
        // A loss even when every member passes its CRC-32: readers cannot open the input, so
        // no comparison of input and output can vouch for the recovery being whole.
        report.losses.push_back(
            {"the archive cannot be opened (" + why + "), so readers find nothing in it: " +
                 std::to_string(salvage.members) + (salvage.members == 1 ? " member" : " members") +
                 " recovered by scanning its local file headers",
             Region{bytes.get(), 0, bytes->size()}});
        for (auto& a : salvage.actions) {
            report.actions.push_back(std::move(a));
        }
        for (auto& l : salvage.losses) {
            report.losses.push_back(std::move(l));
        }
        untrusted_ = std::move(salvage.untrusted);
    }

    fs::path archive_;
    fs::path folder_;
    ZdsUntrusted untrusted_;
};

// An archive libzip reads through its central directory can still fail to start as a ZIP
// does (a damaged first local header): Strata's readers then take it for no archive at all, so
// what they find in it and the output differ.
void requireZipStart(const fs::path& input, RepairReport& report) {
    const ByteSourcePtr bytes = openMappedFile(input);
    const ByteView head = bytes->view(0, std::min<std::uint64_t>(4, bytes->size()));
    const std::string_view start(reinterpret_cast<const char*>(head.data()), head.size());
    if (start != std::string_view("PK\x03\x04", 4) && start != std::string_view("PK\x05\x06", 4)) {
        report.losses.push_back(
            {"the file does not start with a ZIP header, so readers do not open it as an archive "
             "(its members were read through its central directory)",
             Region{bytes.get(), 0, head.size()}});
    }
}

std::shared_ptr<ZdsDataset> openDataset(const fs::path& input, const RepairOptions& options,
                                        RepairReport& report,
                                        std::optional<SalvagedArchive>& salvaged) {
    try {
        return ZdsDataset::open(input);
    } catch (const std::exception& e) {
        std::error_code ec;
        if (!fs::is_regular_file(input, ec)) {
            throw RepairError(input.string() + ": cannot be read as a ZDS dataset: " + e.what());
        }
        salvaged.emplace(input, e.what(), options, report);
    }
    try {
        return ZdsDataset::open(salvaged->folder());
    } catch (const std::exception& e) {
        throw RepairError(input.string() +
                          ": the recovered members do not form a dataset: " + e.what());
    }
}

}  // namespace

fs::path zdsQuarantinePath(const fs::path& output) {
    fs::path p = output;
    p += ".quarantine.jsonl";
    return p;
}

RepairReport repairZdsDataset(const fs::path& input, const fs::path& output,
                              const RepairOptions& options) {
    RepairReport report = beginRepair("documents", output, options, zdsQuarantinePath(output));
    refuseOutputInsideInput(input, output);
    std::optional<SalvagedArchive> salvaged;
    const auto dataset = openDataset(input, options, report, salvaged);
    ZdsUntrusted untrusted = salvaged ? salvaged->untrusted()
                             : dataset->archive()
                                 ? checkZdsArchiveMembers(*dataset->archive(), options, report)
                                 : ZdsUntrusted{};
    distrustDamagedNames(dataset->storage(), untrusted);
    if (dataset->archive() && !salvaged) {
        requireZipStart(input, report);
    }
    PlanState state;
    std::vector<ZdsCollectionWrite> writes;
    try {
        for (const auto& c : dataset->collections) {
            if (zdsUsableName(c->name())) {
                writes.push_back(CollectionRepair(*c, options, report, untrusted, state).plan());
            } else {
                report.lostKnown += c->documentCount();
                report.losses.push_back({"collection '" + zdsShownName(c->name()) +
                                             "' has a damaged name (not UTF-8 text, or a control "
                                             "character): none of its " +
                                             std::to_string(c->documentCount()) +
                                             " documents is written, its files are quarantined",
                                         {}});
            }
        }
    } catch (const RepairError&) {
        throw;
    } catch (const JobCancelled&) {
        throw;
    } catch (const std::exception& e) {
        throw RepairError(input.string() + ": " + e.what());
    }
    if (writes.empty() && !dataset->hasCollectionsDir && !dataset->singleCollection) {
        throw RepairError(input.string() + ": no collection to recover (no collections/ folder)");
    }
    zdsJsonActions(*dataset, writes, untrusted, report);
    reportUntrustedFiles(*dataset, untrusted, state.handled, state.quarantine, report);
    if (!state.quarantine.empty()) {
        report.actions.push_back(
            {zdsQuarantineSummary(state.quarantine, zdsQuarantinePath(output)), {}});
    }
    if (report.recovered == 0 && !report.losses.empty()) {
        throw RepairError(input.string() + ": no document could be recovered");
    }
    if (!options.dryRun) {
        std::set<std::string> leaveOut = untrusted.paths();
        leaveOut.insert(state.leaveOut.begin(), state.leaveOut.end());
        writeRepaired(*dataset, writes, state.quarantine, leaveOut, output, options, report);
        report.written = true;
    }
    if (salvaged) {
        salvaged->renameSteps(report);
    }
    return report;
}

}  // namespace strata::zds
