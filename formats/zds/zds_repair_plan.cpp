// The repair's plan of one collection: how a document's bytes are judged, and what is kept of
// a collection with docs/ files or with no data at all, and of its manifest.json.
#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "zds_docs_meta.h"
#include "zds_json_line.h"
#include "zds_line_index.h"
#include "zds_repair_parts.h"
#include "zds_validator.h"

namespace strata::zds {

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

std::uint64_t listedCount(const ZdsCollectionWrite& write) {
    return static_cast<std::uint64_t>(std::count_if(write.documents.begin(), write.documents.end(),
                                                    [](const ZdsWriteDoc& d) { return d.listed; }));
}

Region wholeFile(const ByteSourcePtr& source) {
    return source ? Region{source.get(), 0, source->size()} : Region{};
}

ZdsCollectionWrite CollectionRepair::plan() {
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

// index.bin without data.jsonl: every document it lists is lost; the collection is written
// as an empty JSONL collection.
void CollectionRepair::planOrphanIndex() {
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
void CollectionRepair::planOrphanDocIndex() {
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

// ---- docs/ files ----

void CollectionRepair::planDocs() {
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
void CollectionRepair::checkJournal() {
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
            const std::string why =
                "line " + std::to_string(line.number) + " is not a journal entry (" + error + ")";
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
bool CollectionRepair::keepDocsFile(const std::string& key, const Region& region) {
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
std::optional<std::string> CollectionRepair::untrustedBasis() const {
    const std::string rel = live_->basis() == ZdsLiveBasis::OrderIds   ? "meta/order.ids"
                            : live_->basis() == ZdsLiveBasis::DocIndex ? "meta/doc_index.jsonl"
                                                                       : "";
    return !rel.empty() && untrusted(rel) != nullptr ? std::optional(rel) : std::nullopt;
}

// The list of live documents fails its checksum: which documents are live, and their
// order, are unknown, so every docs/ file that can be kept is (in name order).
void CollectionRepair::keepEveryDocsFile(const std::string& basis) {
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
void CollectionRepair::dropUnlistedFiles() {
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
        action("dropped " + std::to_string(dropped - kListedDrops) + " more unlisted docs/ files");
    }
}

// ---- manifest.json ----

void CollectionRepair::manifestActions() {
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

}  // namespace strata::zds
