#include "zds_validator.h"

#include <algorithm>
#include <cstring>
#include <nlohmann/json.hpp>
#include <span>
#include <string>

#include "formats/common/location.h"
#include "zds_docs_checks.h"
#include "zds_json_line.h"
#include "zds_leftovers.h"
#include "zds_live_set.h"
#include "zds_reader.h"
#include "zds_validator_parts.h"

namespace strata::zds {

namespace {

constexpr std::uint64_t kMaxIdBytes = 255;

std::span<const std::uint8_t> asBytes(std::string_view s) {
    return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

}  // namespace

std::string quoteName(std::string_view s) {
    std::string out = "'";
    for (unsigned char c : s.substr(0, 80)) {
        if (c < 0x20 || c == 0x7f) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", c);
            out += buf;
        } else {
            out += static_cast<char>(c);
        }
    }
    if (s.size() > 80) {
        out += "...";
    }
    return out + "'";
}

Region whole(const ByteSourcePtr& src) {
    return src ? Region{src.get(), 0, src->size()} : Region{};
}

JobOutcome ZdsValidator::run(DiagnosticSink& sink, const ValidationOptions& options) {
    Reporter r(sink, options);
    const bool completed = runChecks(r, options);
    r.finish();
    if (completed && !tree_) {
        // Killed writes (zds_leftovers.h) leave local files; a URL has none to find.
        reportZdsLeftovers(path_, sink);
    }
    return completed ? JobOutcome::Completed : JobOutcome::Cancelled;
}

bool ZdsValidator::runChecks(Reporter& r, const ValidationOptions& opt) {
    if (isFile() && !openArchive(r)) {
        return true;
    }
    if (!ds_) {
        try {
            ds_ = tree_ ? ZdsDataset::open(tree_, location(), false, rawKeep_)
                        : ZdsDataset::open(path_);
        } catch (const StoreError&) {
            throw;  // the server failing is not damage to report
        } catch (const SourceError& e) {
            r.error("ZDS-ZIP-CORRUPT", e.what(), {}, path_.string());
            return true;
        }
    }
    if (ds_->archive() && !checkArchive(r, opt)) {
        return false;
    }
    checkLayout(r);
    const std::size_t n = ds_->collections.size();
    for (std::size_t i = 0; i < n; ++i) {
        if (opt.cancelled()) {
            return false;
        }
        base_ = static_cast<double>(i) / static_cast<double>(n);
        span_ = 1.0 / static_cast<double>(n);
        opt.reportProgress(base_, "collection " + ds_->collections[i]->name());
        if (!checkCollection(r, opt, *ds_->collections[i])) {
            return false;
        }
    }
    checkZdsJson(r);
    opt.reportProgress(1.0, "done");
    return true;
}

// ---- container ----

Location ZdsValidator::location() const {
    return Location::parse(path_.string());
}

bool ZdsValidator::isFile() const {
    if (!tree_) {
        std::error_code ec;
        return std::filesystem::is_regular_file(path_, ec);
    }
    if (rawKeep_ || (ds_ && ds_->archive())) {
        return true;
    }
    if (ds_) {
        return false;
    }
    const std::optional<FileTreeEntry> entry = tree_->stat(location());
    return entry && !entry->isDirectory;
}

void ZdsValidator::checkLayout(Reporter& r) {
    if (!ds_->hasCollectionsDir && !ds_->singleCollection) {
        r.error("ZDS-NO-COLLECTIONS", "the dataset has no collections/ folder", {},
                ds_->storage().displayPath("collections"));
        return;
    }
    if (ds_->collections.empty()) {
        r.info("ZDS-NO-COLLECTION", "collections/ is empty: the dataset holds no collection", {},
               ds_->storage().displayPath("collections"));
    }
}

// ---- zds.json / manifest.json ----

std::optional<nlohmann::json> ZdsValidator::parseMetadata(Reporter& r, const ByteSourcePtr& src,
                                                          const std::string& code) {
    if (src->size() > kMaxMetadataSize) {
        r.error(code, "metadata file larger than 64 MiB", whole(src));
        return std::nullopt;
    }
    const ByteView v = src->view(0, src->size());
    auto json = nlohmann::json::parse(v.bytes.begin(), v.bytes.end(), nullptr, false);
    if (json.is_discarded() || !json.is_object()) {
        r.error(code, src->name() + " is not a JSON object", whole(src));
        return std::nullopt;
    }
    return json;
}

void ZdsValidator::checkZdsJson(Reporter& r) {
    if (!ds_->zdsJson) {
        return;
    }
    const auto json = parseMetadata(r, ds_->zdsJson, "ZDS-META-JSON");
    if (!json) {
        return;
    }
    const auto it = json->find("collections");
    if (it == json->end() || !it->is_object()) {
        return;
    }
    for (const auto& [name, value] : it->items()) {
        const ZdsCollection* c = findCollection(name);
        if (c == nullptr) {
            r.warning("ZDS-META-COLLECTION",
                      "zds.json lists collection " + quoteName(name) + ", which does not exist",
                      whole(ds_->zdsJson));
            continue;
        }
        if (value.is_object() && value.contains("count") && value["count"].is_number()) {
            const auto claimed = value["count"].get<double>();
            const auto actual = liveCount(*c);
            if (claimed != static_cast<double>(actual)) {
                r.warning("ZDS-META-COUNT",
                          "zds.json says collection " + quoteName(name) + " holds " +
                              value["count"].dump() + " documents; it holds " +
                              std::to_string(actual),
                          whole(ds_->zdsJson));
            }
        }
    }
}

const ZdsCollection* ZdsValidator::findCollection(const std::string& name) const {
    for (const auto& c : ds_->collections) {
        if (c->name() == name) {
            return c.get();
        }
    }
    return nullptr;
}

// The one definition of the live documents (zds_live_set.h), as every other view counts;
// a checked copy's are its entries, each on its own line under its own key.
std::uint64_t ZdsValidator::liveCount(const ZdsCollection& c) {
    const auto copied = copiedCounts_.find(&c);
    if (copied != copiedCounts_.end()) {
        return copied->second;
    }
    // File per document: counted from the list, not by opening 100,000 files a second time.
    return c.mode() == ZdsStorageMode::Docs ? zdsDocsLiveCount(c) : c.documentCount();
}

bool ZdsValidator::manifestStrict(const ZdsCollection& c) {
    if (!c.manifest || c.manifest->size() > kMaxMetadataSize) {
        return false;
    }
    const ByteView v = c.manifest->view(0, c.manifest->size());
    const auto json = nlohmann::json::parse(v.bytes.begin(), v.bytes.end(), nullptr, false);
    return json.is_object() && json.contains("strict") && json["strict"].is_boolean() &&
           json["strict"].get<bool>();
}

void ZdsValidator::checkManifest(Reporter& r, const ZdsCollection& c) {
    if (!c.manifest) {
        return;
    }
    const auto json = parseMetadata(r, c.manifest, "ZDS-MANIFEST-JSON");
    if (!json) {
        return;
    }
    if (json->contains("collection") && (*json)["collection"].is_string() &&
        (*json)["collection"].get<std::string>() != c.name()) {
        r.warning("ZDS-MANIFEST-NAME",
                  "manifest.json names collection " +
                      quoteName((*json)["collection"].get<std::string>()) + ", not " +
                      quoteName(c.name()),
                  whole(c.manifest));
    }
    if (json->contains("doc_count") && (*json)["doc_count"].is_number()) {
        const auto claimed = (*json)["doc_count"].get<double>();
        const auto actual = liveCount(c);
        if (claimed != static_cast<double>(actual)) {
            r.warning("ZDS-MANIFEST-COUNT",
                      "manifest.json says " + (*json)["doc_count"].dump() +
                          " documents; the collection holds " + std::to_string(actual),
                      whole(c.manifest));
        }
    }
}

// ---- documents ----

void ZdsValidator::checkId(Reporter& r, std::string_view id, Region region, bool fromIndex) {
    const std::string where = fromIndex ? "index entry id " : "_id ";
    if (id.empty()) {
        r.error("ZDS-ID-EMPTY", where + "is empty", region);
        return;
    }
    if (firstInvalidUtf8(asBytes(id)) != std::string::npos) {
        r.error(fromIndex ? "ZDS-ZDX-ID-UTF8" : "ZDS-UTF8",
                where + quoteName(id) + " is not valid UTF-8", region);
        return;
    }
    if (fromIndex) {
        return;  // the character and length rules are reported once, on the line's _id
    }
    if (id.size() > kMaxIdBytes) {
        r.warning("ZDS-ID-LENGTH",
                  where + "is " + std::to_string(id.size()) + " bytes long (at most 255)", region);
    }
    if (!zdsIdCharsOk(id)) {
        r.warning("ZDS-ID-CHARS",
                  where + quoteName(id) + " has characters outside A-Z a-z 0-9 _ . -", region);
    }
}

// One JSON document's text: UTF-8, JSON object, string _id, duplicate keys.
ZdsValidator::LineResult ZdsValidator::checkJsonText(Reporter& r,
                                                     std::span<const std::uint8_t> text,
                                                     Region region, bool lineMode) {
    LineResult out;
    const std::size_t bad = firstInvalidUtf8(text);
    if (bad != std::string::npos) {
        r.error("ZDS-UTF8", "invalid UTF-8 at byte " + std::to_string(bad) + " of the document",
                Region{region.source, region.offset + bad, 1});
        return out;
    }
    const JsonLineFacts facts = analyzeJsonLine(text);
    if (!facts.valid) {
        r.error("ZDS-JSON", "not valid JSON: " + facts.error, region);
        if (lineMode) {
            if (auto scanned = referenceScanId(text)) {
                out.id = *scanned;  // so the index check can still match it
            }
        }
        return out;
    }
    if (!facts.isObject) {
        r.error("ZDS-NOT-OBJECT", "the document is valid JSON but not an object", region);
        return out;
    }
    for (const std::string& key : facts.duplicateKeys) {
        r.warning("ZDS-DUPLICATE-KEY",
                  "key " + quoteName(key) +
                      " appears twice in one object; readers keep "
                      "different copies",
                  region);
    }
    if (lineMode) {
        if (!facts.hasId) {
            r.error("ZDS-MISSING-ID", "the document has no _id", region);
            return out;
        }
        if (!facts.idIsString) {
            r.error("ZDS-ID-TYPE", "_id is not a string", region);
            return out;
        }
        out.id = facts.id;
        out.hasId = true;
        checkId(r, facts.id, region, false);
        const auto scanned = referenceScanId(text);
        if (!scanned || *scanned != facts.id) {
            r.warning("ZDS-ID-SCAN",
                      "_id " + quoteName(facts.id) +
                          " is valid JSON, but a byte scan for "
                          "\"_id\":\" (as the reference's index rebuild does) reads " +
                          (scanned ? quoteName(*scanned) : std::string("no id")),
                      region);
        }
    } else if (facts.hasId) {
        out.hasId = facts.idIsString;
        out.id = facts.id;
    }
    return out;
}

bool ZdsValidator::checkCollection(Reporter& r, const ValidationOptions& opt,
                                   const ZdsCollection& c) {
    bool ok = true;
    switch (c.mode()) {
        case ZdsStorageMode::Jsonl:
            ok = copiedLines(c) != nullptr ? checkCopiedJsonl(r, opt, c, *copiedLines(c))
                                           : checkJsonl(r, opt, c);
            break;
        case ZdsStorageMode::Docs:
            ok = checkDocs(r, opt, c);
            break;
        case ZdsStorageMode::None:
            if (c.index) {
                r.error("ZDS-DATA-MISSING",
                        "meta/index.bin exists but meta/data.jsonl, the data it indexes, "
                        "does not",
                        whole(c.index), ds_->storage().displayPath(c.path("meta/data.jsonl")));
            } else {
                r.warning(
                    "ZDS-EMPTY-COLLECTION",
                    "collection " + quoteName(c.name()) + " has neither meta/data.jsonl nor docs/",
                    {}, ds_->storage().displayPath(c.dir()));
            }
            break;
    }
    if (ok) {
        checkManifest(r, c);
    }
    return ok;
}

const ZdsCopiedLines* ZdsValidator::copiedLines(const ZdsCollection& c) const {
    if (copied_ == nullptr) {
        return nullptr;
    }
    const auto it = copied_->collections.find(c.name());
    return it != copied_->collections.end() ? it->second : nullptr;
}

bool zdsIdCharsOk(std::string_view id) {
    return std::all_of(id.begin(), id.end(), [](char ch) {
        return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
               ch == '_' || ch == '-' || ch == '.';
    });
}

std::size_t firstInvalidUtf8(std::span<const std::uint8_t> s) {
    std::size_t i = 0;
    const std::size_t n = s.size();
    while (i < n) {
        const std::uint8_t c = s[i];
        if (c < 0x80) {
            ++i;
            continue;
        }
        std::size_t len = 0;
        std::uint32_t cp = 0;
        if (c >= 0xC2 && c <= 0xDF) {
            len = 2;
            cp = c & 0x1Fu;
        } else if (c >= 0xE0 && c <= 0xEF) {
            len = 3;
            cp = c & 0x0Fu;
        } else if (c >= 0xF0 && c <= 0xF4) {
            len = 4;
            cp = c & 0x07u;
        } else {
            return i;
        }
        if (i + len > n) {
            return i;
        }
        for (std::size_t k = 1; k < len; ++k) {
            if ((s[i + k] & 0xC0u) != 0x80u) {
                return i;
            }
            cp = (cp << 6) | (s[i + k] & 0x3Fu);
        }
        if ((len == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
            (len == 4 && (cp < 0x10000 || cp > 0x10FFFF))) {
            return i;
        }
        i += len;
    }
    return std::string::npos;
}

std::unique_ptr<Validator> makeZdsValidator(const std::filesystem::path& path,
                                            std::shared_ptr<ZdsDataset> dataset,
                                            ByteSourcePtr rawFile, FileTreePtr tree) {
    return std::make_unique<ZdsValidator>(path, std::move(dataset), std::move(rawFile),
                                          std::move(tree));
}

std::unique_ptr<Validator> makeZdsCopyCheck(const std::filesystem::path& path,
                                            const ZdsCopiedData* copied) {
    return std::make_unique<ZdsValidator>(path, copied);
}

}  // namespace strata::zds
