#include "zds_validator.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "formats/common/location.h"
#include "formats/common/ordered_pool.h"
#include "formats/common/thread_cancel.h"
#include "formats/common/zip_member_source.h"
#include "zds_docs_checks.h"
#include "zds_json_line.h"
#include "zds_leftovers.h"
#include "zds_live_set.h"
#include "zds_reader.h"

namespace strata::zds {

namespace {

constexpr std::uint64_t kMaxIdBytes = 255;
constexpr std::uint64_t kProgressEvery = 8192;
// docs/ files checked per task on the worker threads.
constexpr std::size_t kDocsPerTask = 256;
constexpr std::uint64_t kMaxMetadataSize = 64ull << 20;

// Builds diagnostics and passes them through the per-code cap of the options.
class Reporter {
public:
    Reporter(DiagnosticSink& sink, const ValidationOptions& options)
        : capped_(sink, options.maxPerCode) {}

    void add(Severity severity, const std::string& code, std::string message,
             std::vector<Region> regions = {}, std::string file = {}) {
        Diagnostic d;
        d.severity = severity;
        d.code = code;
        d.message = std::move(message);
        for (Region& r : regions) {
            if (r.valid()) {
                d.regions.push_back(r);
            }
        }
        d.file = std::move(file);
        capped_.report(std::move(d));
    }
    // A diagnostic made by another Reporter (work done in parallel), passed on in order.
    void forward(Diagnostic diagnostic) { capped_.report(std::move(diagnostic)); }
    void error(const std::string& code, std::string message, Region region = {},
               std::string file = {}) {
        add(Severity::Error, code, std::move(message), {region}, std::move(file));
    }
    void warning(const std::string& code, std::string message, Region region = {},
                 std::string file = {}) {
        add(Severity::Warning, code, std::move(message), {region}, std::move(file));
    }
    void info(const std::string& code, std::string message, Region region = {},
              std::string file = {}) {
        add(Severity::Info, code, std::move(message), {region}, std::move(file));
    }

    void finish() { capped_.finish(); }

private:
    CappedSink capped_;
};

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

std::string_view asText(std::span<const std::uint8_t> bytes) {
    return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

std::span<const std::uint8_t> asBytes(std::string_view s) {
    return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

Region whole(const ByteSourcePtr& src) {
    return src ? Region{src.get(), 0, src->size()} : Region{};
}

bool pathEscapes(std::string_view name) {
    if (name.empty() || name.front() == '/' || name.find('\\') != std::string_view::npos ||
        (name.size() >= 2 && name[1] == ':')) {
        return true;
    }
    std::size_t start = 0;
    while (start <= name.size()) {
        const auto slash = name.find('/', start);
        const auto seg =
            name.substr(start, slash == std::string_view::npos ? name.npos : slash - start);
        if (seg == "..") {
            return true;
        }
        if (slash == std::string_view::npos) {
            break;
        }
        start = slash + 1;
    }
    return false;
}

class ZdsValidator final : public Validator {
public:
    ZdsValidator(std::filesystem::path path, std::shared_ptr<ZdsDataset> dataset,
                 ByteSourcePtr rawFile, FileTreePtr tree)
        : path_(std::move(path)),
          ds_(std::move(dataset)),
          rawKeep_(std::move(rawFile)),
          tree_(tree && tree->remote() ? std::move(tree) : nullptr) {}
    ZdsValidator(std::filesystem::path path, const ZdsCopiedData* copied)
        : path_(std::move(path)), copied_(copied) {}

    JobOutcome run(DiagnosticSink& sink, const ValidationOptions& options) override {
        Reporter r(sink, options);
        const bool completed = runChecks(r, options);
        r.finish();
        if (completed && !tree_) {
            // Killed writes (zds_leftovers.h) leave local files; a URL has none to find.
            reportZdsLeftovers(path_, sink);
        }
        return completed ? JobOutcome::Completed : JobOutcome::Cancelled;
    }

private:
    bool runChecks(Reporter& r, const ValidationOptions& opt) {
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

    Location location() const { return Location::parse(path_.string()); }

    bool isFile() const {
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

    // The archive through libzip (with or without its consistency checks): the file on disk,
    // or a remote file read by range.
    void openWithLibzip(const ByteSourcePtr& raw, bool checkConsistency) const {
        if (tree_) {
            ZipArchive::open(raw, checkConsistency);
        } else {
            ZipArchive::open(path_, checkConsistency);
        }
    }

    bool openArchive(Reporter& r) {
        ByteSourcePtr raw = rawKeep_;
        if (ds_ && ds_->archive()) {
            raw = ds_->archive()->archiveSource();
        }
        if (!raw) {
            try {
                raw = tree_ ? tree_->open(location()) : openMappedFile(path_);
            } catch (const StoreError& e) {
                if (!e.missing()) {
                    throw;
                }
                r.error("ZDS-ZIP-CORRUPT", e.what(), {}, path_.string());
                return false;
            } catch (const SourceError& e) {
                r.error("ZDS-ZIP-CORRUPT", e.what(), {}, path_.string());
                return false;
            }
        }
        std::uint8_t sig[4] = {};
        const std::size_t got = raw->read(0, sig);
        const bool zipLike = got == 4 && sig[0] == 'P' && sig[1] == 'K' &&
                             ((sig[2] == 3 && sig[3] == 4) || (sig[2] == 5 && sig[3] == 6));
        if (!zipLike) {
            r.error("ZDS-NOT-ZIP",
                    "a .zds dataset must be a ZIP archive, and this file does not start with a "
                    "ZIP header",
                    Region{raw.get(), 0, 4}.clipped());
            rawKeep_ = raw;
            return false;
        }
        rawKeep_ = raw;
        try {
            openWithLibzip(raw, true);
        } catch (const ZipError& e) {
            // Try without the consistency check: a readable archive is still worth checking.
            try {
                openWithLibzip(raw, false);
                std::string reason = e.what();
                const auto colon = reason.rfind(": ");
                reason = colon == std::string::npos ? reason : reason.substr(colon + 2);
                r.error("ZDS-ZIP-CORRUPT",
                        "the archive fails libzip's consistency check: " + reason, {},
                        path_.string());
            } catch (const StoreError&) {
                throw;
            } catch (const SourceError& e2) {
                r.error("ZDS-ZIP-CORRUPT", e2.what(), Region{raw.get(), 0, raw->size()});
                return false;
            }
        }
        if (path_.extension() != ".zds") {
            r.warning("ZDS-ZIP-EXTENSION",
                      "a ZDS archive should be named .zds (the reference refuses other names)", {},
                      path_.string());
        }
        return true;
    }

    bool checkArchive(Reporter& r, const ValidationOptions& opt) {
        const ZipArchive& za = *ds_->archive();
        const ByteSource* src = za.archiveSource().get();
        std::unordered_map<std::string, std::uint64_t> seen;
        const auto& members = za.members();
        for (std::size_t i = 0; i < members.size(); ++i) {
            if (opt.cancelled()) {
                return false;
            }
            const ZipMember& m = members[i];
            const Region header = Region{src, m.localHeaderOffset, 30 + m.name.size()}.clipped();
            if (!seen.emplace(m.name, i).second) {
                r.error("ZDS-ZIP-DUPLICATE",
                        "member " + quoteName(m.name) +
                            " appears more than once; readers disagree "
                            "on which copy wins (Strata reads the last)",
                        header);
            }
            if (pathEscapes(m.name)) {
                r.error("ZDS-ZIP-PATH",
                        "member name " + quoteName(m.name) +
                            " is absolute, uses backslashes or "
                            "'..': unpacking it would write outside the target folder",
                        header);
            }
            if (m.isDirectory()) {
                continue;
            }
            if (!m.dataOffset) {
                r.error("ZDS-ZIP-CORRUPT",
                        "member " + quoteName(m.name) + " has no valid local header at offset " +
                            std::to_string(m.localHeaderOffset),
                        header);
                continue;
            }
            const Region data{src, *m.dataOffset, m.compressedSize};
            if (m.method != kZipMethodStore && m.method != kZipMethodDeflate) {
                r.error("ZDS-ZIP-METHOD",
                        "member " + quoteName(m.name) + " uses compression method " +
                            std::to_string(m.method) + "; only STORE and DEFLATE are readable",
                        header);
                continue;
            }
            if (m.method == kZipMethodDeflate &&
                (m.name.ends_with("/meta/data.jsonl") || m.name.ends_with("/meta/index.bin"))) {
                r.warning("ZDS-ZIP-DEFLATED",
                          "member " + quoteName(m.name) +
                              " is DEFLATE-compressed: it cannot be read "
                              "in place, so random access means inflating it (STORE is preferred)",
                          header);
            }
            const ZipCrcCheck check = za.checkCrc(m);
            if (!check.problem.empty()) {
                r.error("ZDS-ZIP-CORRUPT", "member " + quoteName(m.name) + ": " + check.problem,
                        data.clipped());
            } else if (check.actualCrc != m.crc) {
                char buf[96];
                std::snprintf(buf, sizeof buf, ": CRC-32 is 0x%08x, the directory says 0x%08x",
                              check.actualCrc, m.crc);
                r.error("ZDS-ZIP-CRC", "member " + quoteName(m.name) + buf, data.clipped());
            } else if (check.produced != m.uncompressedSize) {
                r.error("ZDS-ZIP-SIZE",
                        "member " + quoteName(m.name) + " holds " + std::to_string(check.produced) +
                            " bytes but the directory claims " + std::to_string(m.uncompressedSize),
                        data.clipped());
            }
        }
        return true;
    }

    void checkLayout(Reporter& r) {
        if (!ds_->hasCollectionsDir && !ds_->singleCollection) {
            r.error("ZDS-NO-COLLECTIONS", "the dataset has no collections/ folder", {},
                    ds_->storage().displayPath("collections"));
            return;
        }
        if (ds_->collections.empty()) {
            r.info("ZDS-NO-COLLECTION", "collections/ is empty: the dataset holds no collection",
                   {}, ds_->storage().displayPath("collections"));
        }
    }

    // ---- zds.json / manifest.json ----

    std::optional<nlohmann::json> parseMetadata(Reporter& r, const ByteSourcePtr& src,
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

    void checkZdsJson(Reporter& r) {
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

    const ZdsCollection* findCollection(const std::string& name) const {
        for (const auto& c : ds_->collections) {
            if (c->name() == name) {
                return c.get();
            }
        }
        return nullptr;
    }

    // The one definition of the live documents (zds_live_set.h), as every other view counts;
    // a checked copy's are its entries, each on its own line under its own key.
    std::uint64_t liveCount(const ZdsCollection& c) {
        const auto copied = copiedCounts_.find(&c);
        if (copied != copiedCounts_.end()) {
            return copied->second;
        }
        // File per document: counted from the list, not by opening 100,000 files a second time.
        return c.mode() == ZdsStorageMode::Docs ? zdsDocsLiveCount(c) : c.documentCount();
    }

    bool manifestStrict(const ZdsCollection& c) {
        if (!c.manifest || c.manifest->size() > kMaxMetadataSize) {
            return false;
        }
        const ByteView v = c.manifest->view(0, c.manifest->size());
        const auto json = nlohmann::json::parse(v.bytes.begin(), v.bytes.end(), nullptr, false);
        return json.is_object() && json.contains("strict") && json["strict"].is_boolean() &&
               json["strict"].get<bool>();
    }

    void checkManifest(Reporter& r, const ZdsCollection& c) {
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

    void checkId(Reporter& r, std::string_view id, Region region, bool fromIndex) {
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
                      where + "is " + std::to_string(id.size()) + " bytes long (at most 255)",
                      region);
        }
        if (!zdsIdCharsOk(id)) {
            r.warning("ZDS-ID-CHARS",
                      where + quoteName(id) + " has characters outside A-Z a-z 0-9 _ . -", region);
        }
    }

    struct LineResult {
        std::string id;
        bool hasId = false;
    };

    // One JSON document's text: UTF-8, JSON object, string _id, duplicate keys.
    LineResult checkJsonText(Reporter& r, std::span<const std::uint8_t> text, Region region,
                             bool lineMode) {
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

    bool checkCollection(Reporter& r, const ValidationOptions& opt, const ZdsCollection& c) {
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
                    r.warning("ZDS-EMPTY-COLLECTION",
                              "collection " + quoteName(c.name()) +
                                  " has neither meta/data.jsonl nor docs/",
                              {}, ds_->storage().displayPath(c.dir()));
                }
                break;
        }
        if (ok) {
            checkManifest(r, c);
        }
        return ok;
    }

    const ZdsCopiedLines* copiedLines(const ZdsCollection& c) const {
        if (copied_ == nullptr) {
            return nullptr;
        }
        const auto it = copied_->collections.find(c.name());
        return it != copied_->collections.end() ? it->second : nullptr;
    }

    // A repair's copy (ZdsCopiedData): every line the bytes copied there, every index entry
    // its key and its line's place, in order, with nothing after them.
    bool checkCopiedJsonl(Reporter& r, const ValidationOptions& opt, const ZdsCollection& c,
                          const ZdsCopiedLines& copied) {
        const ByteSource& data = *c.data;
        const std::uint64_t n = copied.count();
        const ZdxIndex* zdx = copiedIndex(r, c, copied.listedCount());
        std::uint64_t at = 0;
        std::uint64_t entry = 0;
        bool linesMatch = true;
        for (std::uint64_t i = 0; i < n; ++i) {
            if (i % kProgressEvery == 0) {
                if (opt.cancelled()) {
                    return false;
                }
                opt.reportProgress(
                    base_ + span_ * static_cast<double>(i) / static_cast<double>(n),
                    c.name() + ": line " + std::to_string(i) + " of " + std::to_string(n));
            }
            const ZdsCopiedLine line = copied.line(i);
            const std::uint64_t length = line.bytes.size() + 1;
            if (linesMatch && !sameLine(data, at, line.bytes.bytes)) {
                r.error("ZDS-COPY-MISMATCH",
                        "line " + std::to_string(i + 1) +
                            " of data.jsonl is not the copy of the input line written there (" +
                            std::to_string(length) + " bytes with its newline)",
                        Region{&data, at, length}.clipped());
                linesMatch = false;  // the places of the lines after it are unknown
            }
            if (zdx != nullptr && line.listed) {
                checkCopiedEntry(r, *zdx, entry, line.key, at, length);
            }
            entry += line.listed ? 1 : 0;
            at += length;
        }
        if (linesMatch && at != data.size()) {
            r.error(
                "ZDS-COPY-MISMATCH",
                "data.jsonl is " + std::to_string(data.size()) + " bytes; the " +
                    std::to_string(n) + " lines copied there take " + std::to_string(at),
                Region{&data, std::min(at, data.size()), data.size() - std::min(at, data.size())});
        }
        copiedCounts_[&c] = copied.listedCount();
        return !opt.cancelled();
    }

    static bool sameLine(const ByteSource& data, std::uint64_t at,
                         std::span<const std::uint8_t> bytes) {
        const ByteView v = data.view(at, bytes.size() + 1);
        return v.size() == bytes.size() + 1 && v.bytes.back() == '\n' &&
               std::equal(bytes.begin(), bytes.end(), v.bytes.begin());
    }

    // The copy's index, when it is a whole ZDX index of `n` entries (an error otherwise).
    const ZdxIndex* copiedIndex(Reporter& r, const ZdsCollection& c, std::uint64_t n) {
        const ZdxIndex* zdx = c.zdx();
        if (zdx == nullptr || zdx->layout() != ZdxLayout::Binary || !zdx->headerComplete() ||
            zdx->version() != 1) {
            r.error("ZDS-COPY-MISMATCH",
                    "meta/index.bin is not the version 1 ZDX index the repair wrote",
                    whole(c.index), ds_->storage().displayPath(c.path("meta/index.bin")));
            return nullptr;
        }
        checkIndexCount(r, *zdx, c.index.get());
        if (zdx->entryCount() != n) {
            r.error("ZDS-COPY-MISMATCH",
                    "meta/index.bin holds " + std::to_string(zdx->entryCount()) +
                        " entries; the repair wrote " + std::to_string(n),
                    Region{c.index.get(), 8, 8});
        }
        return zdx;
    }

    void checkCopiedEntry(Reporter& r, const ZdxIndex& zdx, std::uint64_t i, const std::string& key,
                          std::uint64_t offset, std::uint64_t length) {
        if (i >= zdx.entryCount()) {
            return;
        }
        const ZdxEntry e = zdx.entry(i);
        if (!e.parsed || e.id != key || e.offset != offset || e.length != length) {
            r.error("ZDS-COPY-MISMATCH",
                    "index entry " + std::to_string(i + 1) +
                        " is not the one written: it should list " + quoteName(key) +
                        " at offset " + std::to_string(offset) + ", length " +
                        std::to_string(length),
                    e.entry);
        }
    }

    bool checkJsonl(Reporter& r, const ValidationOptions& opt, const ZdsCollection& c) {
        const ByteSource& data = *c.data;
        const std::vector<std::uint64_t> starts = scanLineStarts(data);
        const std::uint64_t n = starts.size();
        std::vector<std::string> ids(n);
        std::vector<bool> blank(n, false);
        for (std::uint64_t i = 0; i < n; ++i) {
            if (i % kProgressEvery == 0) {
                if (opt.cancelled()) {
                    return false;
                }
                opt.reportProgress(
                    base_ + span_ * 0.8 * static_cast<double>(i) / static_cast<double>(n),
                    c.name() + ": line " + std::to_string(i) + " of " + std::to_string(n));
            }
            const std::uint64_t end = i + 1 < n ? starts[i + 1] : data.size();
            const Region line{&data, starts[i], end - starts[i]};
            const ByteView v = data.view(line.offset, line.length);
            std::span<const std::uint8_t> text = v.bytes;
            const bool hasNewline = !text.empty() && text.back() == '\n';
            if (hasNewline) {
                text = text.first(text.size() - 1);
            } else {
                r.warning("ZDS-FINAL-NEWLINE",
                          "the last line has no terminating newline (every line must end "
                          "with \\n)",
                          Region{&data, end, 0});
            }
            if (!text.empty() && text.back() == '\r') {
                r.warning("ZDS-CRLF", "line ends with CR LF; ZDS lines end with LF alone",
                          Region{&data, line.offset + text.size() - 1, 1});
                text = text.first(text.size() - 1);
            }
            if (std::all_of(text.begin(), text.end(), [](std::uint8_t ch) {
                    return ch == ' ' || ch == '\t' || ch == '\r';
                })) {
                blank[i] = true;
                r.warning("ZDS-BLANK-LINE", "blank line in data.jsonl", line);
                continue;
            }
            ids[i] = checkJsonText(r, text, line, true).id;
        }
        const bool indexed = c.index && c.zdx()->layout() != ZdxLayout::Unknown;
        std::uint64_t live = 0;
        for (std::uint64_t i = 0; i < n; ++i) {
            live += blank[i] ? 0 : 1;
        }
        if (c.index) {
            live = checkIndex(r, opt, c, starts, ids, blank);
        }
        if (!indexed) {
            checkDuplicateLines(r, c, starts, ids);
        }
        if (c.index) {
            const std::string problem = zdsIndexProblem(c);
            if (!problem.empty()) {
                r.warning("ZDS-LIVE-LINES",
                          "meta/index.bin is not used (" + problem +
                              "): the documents are the last line of each _id in data.jsonl, "
                              "as the reference reads them, so documents deleted only from the "
                              "index are live again",
                          whole(c.index));
            }
        }
        (void)live;
        return !opt.cancelled();
    }

    void checkDuplicateLines(Reporter& r, const ZdsCollection& c,
                             const std::vector<std::uint64_t>& starts,
                             const std::vector<std::string>& ids) {
        std::unordered_map<std::string_view, std::uint64_t> first;
        for (std::uint64_t i = 0; i < ids.size(); ++i) {
            if (ids[i].empty()) {
                continue;
            }
            const auto [it, inserted] = first.emplace(ids[i], i);
            if (!inserted) {
                const std::uint64_t end = i + 1 < starts.size() ? starts[i + 1] : c.data->size();
                const std::uint64_t prevEnd = starts[it->second + 1];
                r.add(Severity::Warning, "ZDS-DUPLICATE-ID",
                      "_id " + quoteName(ids[i]) + " appears on line " +
                          std::to_string(it->second + 1) + " and again on line " +
                          std::to_string(i + 1) +
                          "; with no index the later line wins (an append-style update)",
                      {Region{c.data.get(), starts[i], end - starts[i]},
                       Region{c.data.get(), starts[it->second], prevEnd - starts[it->second]}});
                it->second = i;
            }
        }
    }

    // Returns the number of live documents (distinct lines the index reaches).
    std::uint64_t checkIndex(Reporter& r, const ValidationOptions& opt, const ZdsCollection& c,
                             const std::vector<std::uint64_t>& starts,
                             const std::vector<std::string>& ids, const std::vector<bool>& blank) {
        const ZdxIndex& zdx = *c.zdx();
        const ByteSource* ix = c.index.get();
        const ByteSource* data = c.data.get();
        switch (zdx.layout()) {
            case ZdxLayout::Unknown:
                r.error("ZDS-ZDX-MAGIC",
                        "meta/index.bin does not start with the ZDX magic 'ISDZ' (49 53 44 5A); "
                        "the index must be rebuilt",
                        Region{ix, 0, 4}.clipped());
                return std::count(blank.begin(), blank.end(), false);
            case ZdxLayout::Text:
                r.warning("ZDS-ZDX-TEXT",
                          "meta/index.bin is a legacy text index (id, offset, length per line), "
                          "not the binary ZDX layout",
                          Region{ix, 0, ix->size()});
                break;
            case ZdxLayout::Binary:
                if (!zdx.headerComplete()) {
                    r.error("ZDS-ZDX-TRUNCATED",
                            "meta/index.bin is shorter than the 16-byte ZDX header",
                            Region{ix, 0, ix->size()});
                    return 0;
                }
                if (zdx.version() != 1) {
                    r.error("ZDS-ZDX-VERSION",
                            "ZDX version " + std::to_string(zdx.version()) +
                                " is not supported (only 1)",
                            Region{ix, 4, 4});
                    return 0;
                }
                checkIndexCount(r, zdx, ix);
                break;
        }
        const std::uint64_t entries = zdx.entryCount();
        std::vector<std::uint32_t> coverage(starts.size(), 0);
        std::vector<std::uint64_t> coveredBy(starts.size(), 0);
        std::unordered_map<std::string, std::uint64_t> entryIds;  // id -> its first entry
        entryIds.reserve(entries);
        std::vector<char> idLanded(entries, 0);  // by first entry: an entry of the id landed
        for (std::uint64_t i = 0; i < entries; ++i) {
            if (i % kProgressEvery == 0) {
                if (opt.cancelled()) {
                    return 0;
                }
                opt.reportProgress(base_ + span_ * (0.8 + 0.2 * static_cast<double>(i) /
                                                              static_cast<double>(entries)),
                                   c.name() + ": index entry " + std::to_string(i));
            }
            const ZdxEntry e = zdx.entry(i);
            if (!e.parsed) {
                r.error("ZDS-ZDX-ENTRY",
                        "index line " + std::to_string(i + 1) + " is not id<TAB>offset<TAB>length",
                        e.entry);
                continue;
            }
            checkId(r, e.id, e.idRegion, true);
            const auto [it, inserted] = entryIds.emplace(e.id, i);
            if (!inserted) {
                r.add(Severity::Error, "ZDS-ZDX-DUPLICATE",
                      "id " + quoteName(e.id) + " has two index entries (" +
                          std::to_string(it->second) + " and " + std::to_string(i) + ")",
                      {e.entry, zdx.entry(it->second).entry});
            }
            const auto line = std::lower_bound(starts.begin(), starts.end(), e.offset);
            if (line == starts.end() || *line != e.offset) {
                r.error("ZDS-ZDX-OFFSET",
                        "entry " + quoteName(e.id) + ": offset " + std::to_string(e.offset) +
                            (e.offset >= data->size() ? " is past the end of data.jsonl (" +
                                                            std::to_string(data->size()) + " bytes)"
                                                      : " is not at the start of a line"),
                        e.offsetRegion);
                continue;
            }
            const auto li = static_cast<std::uint64_t>(line - starts.begin());
            const std::uint64_t lineEnd = li + 1 < starts.size() ? starts[li + 1] : data->size();
            const Region lineRegion{data, starts[li], lineEnd - starts[li]};
            if (e.length != lineEnd - e.offset) {
                r.add(Severity::Error, "ZDS-ZDX-LENGTH",
                      "entry " + quoteName(e.id) + ": length " + std::to_string(e.length) +
                          " does not match its line, which is " +
                          std::to_string(lineEnd - e.offset) + " bytes with its newline",
                      {e.lengthRegion, lineRegion});
            }
            if (blank[li]) {
                r.error("ZDS-ZDX-OFFSET", "entry " + quoteName(e.id) + " points at a blank line",
                        e.offsetRegion);
                continue;
            }
            idLanded[it->second] = 1;
            if (ids[li] != e.id) {
                r.add(Severity::Warning, "ZDS-ZDX-ID",
                      "entry " + quoteName(e.id) + " points at the line whose _id is " +
                          quoteName(ids[li]),
                      {e.idRegion, lineRegion});
            }
            if (coverage[li]++ > 0) {
                r.add(Severity::Error, "ZDS-ZDX-OVERLAP",
                      "entries " + quoteName(zdx.entry(coveredBy[li]).id) + " and " +
                          quoteName(e.id) + " both point at line " + std::to_string(li + 1),
                      {e.entry, lineRegion});
            } else {
                coveredBy[li] = i;
            }
        }
        std::uint64_t live = 0;
        for (std::uint64_t li = 0; li < starts.size(); ++li) {
            if (coverage[li] > 0) {
                ++live;
                continue;
            }
            if (blank[li]) {
                continue;
            }
            const std::uint64_t end = li + 1 < starts.size() ? starts[li + 1] : data->size();
            const Region lineRegion{data, starts[li], end - starts[li]};
            const auto entry = ids[li].empty() ? entryIds.end() : entryIds.find(ids[li]);
            if (entry != entryIds.end() && idLanded[entry->second] != 0) {
                r.info("ZDS-ZDX-SUPERSEDED",
                       "line " + std::to_string(li + 1) + " (_id " + quoteName(ids[li]) +
                           ") is an older version the index no longer points at",
                       lineRegion);
            } else {
                r.warning("ZDS-ZDX-UNCOVERED",
                          "line " + std::to_string(li + 1) + " (_id " + quoteName(ids[li]) +
                              ") has no index entry: a deleted document, or the index is "
                              "incomplete",
                          lineRegion);
            }
        }
        return live;
    }

    void checkIndexCount(Reporter& r, const ZdxIndex& zdx, const ByteSource* ix) {
        if (zdx.truncated()) {
            r.error("ZDS-ZDX-TRUNCATED",
                    "meta/index.bin ends in the middle of entry " +
                        std::to_string(zdx.entryCount()) + " (the header declares " +
                        std::to_string(zdx.declaredCount()) + ")",
                    Region{ix, zdx.truncatedAt(), ix->size() - zdx.truncatedAt()});
        } else if (zdx.entryCount() < zdx.declaredCount()) {
            r.error("ZDS-ZDX-COUNT",
                    "the header declares " + std::to_string(zdx.declaredCount()) +
                        " entries but the file holds " + std::to_string(zdx.entryCount()),
                    Region{ix, 8, 8});
        } else if (zdx.entriesEnd() < ix->size()) {
            r.add(Severity::Error, "ZDS-ZDX-COUNT",
                  std::to_string(ix->size() - zdx.entriesEnd()) + " bytes follow the " +
                      std::to_string(zdx.declaredCount()) +
                      " declared entries: the count is too low or the file has junk at its end",
                  {Region{ix, 8, 8}, Region{ix, zdx.entriesEnd(), ix->size() - zdx.entriesEnd()}});
        }
    }

    // What checking a run of docs/ files found: their diagnostics in order, the ids their
    // names give, and each read file's size and shape.
    struct DocsChunk {
        std::vector<Diagnostic> diagnostics;
        std::vector<std::string> ids;
        struct Facts {
            std::string id;
            std::uint64_t size = 0;
            std::optional<std::string> shape;
        };
        std::vector<Facts> facts;
    };

    // Each file is read once (a docs/ folder may hold a million): its name, its JSON and `_id`,
    // and its shape when schemas.jsonl will be checked against it.
    DocsChunk checkDocFiles(const ZdsCollection& c, std::span<const std::string> names,
                            bool wantShapes) {
        const ZdsStorage& st = ds_->storage();
        DocsChunk out;
        CallbackSink sink([&out](Diagnostic d) { out.diagnostics.push_back(std::move(d)); });
        ValidationOptions uncapped;
        uncapped.maxPerCode = std::numeric_limits<std::size_t>::max();
        Reporter r(sink, uncapped);
        for (const std::string& name : names) {
            const std::string rel = c.path("docs/" + name);
            if (!name.ends_with(".json") || name.size() == 5) {
                r.warning("ZDS-DOCS-NAME", "docs/" + name + " is not named <id>.json", {},
                          st.displayPath(rel));
                continue;
            }
            std::string id = name.substr(0, name.size() - 5);
            out.ids.push_back(id);
            const FileReadOnce file = st.readOnce(rel, kMaxMetadataSize);
            if (!file.source) {
                r.error("ZDS-DOCS-UNREADABLE", "docs/" + name + " cannot be read", {},
                        st.displayPath(rel));
                continue;
            }
            const std::size_t reported = out.diagnostics.size();
            checkDocFile(r, rel, name, std::move(id), file, wantShapes, out);
            if (out.diagnostics.size() != reported) {
                st.keep(rel, file.source);  // the diagnostics point into it; the rest are let go
            }
        }
        return out;
    }

    void checkDocFile(Reporter& r, const std::string& rel, const std::string& name, std::string id,
                      const FileReadOnce& file, bool wantShapes, DocsChunk& out) {
        const ByteSourcePtr& src = file.source;
        checkId(r, id, Region{}, false);
        if (src->size() > kMaxMetadataSize) {
            r.warning("ZDS-DOCS-LARGE", "docs/" + name + " is larger than 64 MiB; not parsed",
                      whole(src));
            return;
        }
        const ByteView& v = file.bytes;
        if (v.size() != src->size()) {
            r.error("ZDS-DOCS-UNREADABLE",
                    "docs/" + name + " cannot be read (" + std::to_string(v.size()) + " of " +
                        std::to_string(src->size()) + " bytes)",
                    {}, ds_->storage().displayPath(rel));
            return;
        }
        const LineResult res = checkJsonText(r, v.bytes, whole(src), false);
        if (res.hasId && res.id != id) {
            r.error("ZDS-DOCS-ID",
                    "docs/" + name + " holds _id " + quoteName(res.id) +
                        ", which does not match its file name",
                    whole(src));
        }
        out.facts.push_back({std::move(id), src->size(),
                             wantShapes ? zdsDocShape(v.bytes) : std::optional<std::string>()});
    }

    bool checkDocs(Reporter& r, const ValidationOptions& opt, const ZdsCollection& c) {
        const ZdsStorage& st = ds_->storage();
        const std::string docsDir = st.displayPath(c.path("docs"));
        if (!c.hasDocsDir) {
            r.error("ZDS-DOCS-MISSING", "meta/order.ids lists documents but docs/ does not exist",
                    whole(c.orderIds), docsDir);
        }
        const bool wantShapes = c.docIndex && st.hasFile(c.path("meta/schemas.jsonl"));
        std::unordered_set<std::string> files;
        ZdsDocFacts facts;
        const std::vector<std::string>& names = c.docFiles();
        files.reserve(names.size());
        const unsigned threads = ds_->remote() ? 1 : opt.threads;
        // The metadata files are read and checked on their own beside the documents (locally:
        // a remote dataset keeps one request at a time, in the order it always made them).
        ZdsDocsMetadataCheck metadata(c, manifestStrict(c));
        std::exception_ptr metadataFailed;
        std::thread metadataReader;
        if (!ds_->remote()) {
            metadataReader = startThreadInheritingCancel([&metadata, &metadataFailed] {
                try {
                    metadata.read();
                } catch (...) {
                    metadataFailed = std::current_exception();
                }
            });
        }
        // Whatever way this function leaves, the reader is done first (it reads `c`).
        struct JoinOnExit {
            std::thread& thread;
            void join() {
                if (thread.joinable()) {
                    thread.join();
                }
            }
            ~JoinOnExit() { join(); }
        } reader{metadataReader};
        OrderedPool<DocsChunk> pool(threads, 8, opt.cancel);
        auto take = [&](DocsChunk chunk) {
            for (Diagnostic& d : chunk.diagnostics) {
                r.forward(std::move(d));
            }
            for (std::string& id : chunk.ids) {
                files.insert(std::move(id));
            }
            for (DocsChunk::Facts& f : chunk.facts) {
                facts.add(std::move(f.id), f.size, std::move(f.shape));
            }
        };
        for (std::size_t at = 0; at < names.size(); at += kDocsPerTask) {
            const std::span<const std::string> part(
                names.data() + at, std::min<std::size_t>(kDocsPerTask, names.size() - at));
            if (pool.full()) {
                if (auto chunk = pool.next()) {
                    take(std::move(*chunk));
                }
            }
            if (!pool.submit(
                    [this, &c, part, wantShapes] { return checkDocFiles(c, part, wantShapes); })) {
                return false;
            }
        }
        while (auto chunk = pool.next()) {
            take(std::move(*chunk));
        }
        if (opt.cancelled()) {
            return false;
        }
        if (c.orderIds) {
            checkOrder(r, c, files);
        }
        reader.join();
        if (metadataFailed) {
            std::rethrow_exception(metadataFailed);
        }
        metadata.check(
            files,
            [&r](Severity severity, const std::string& code, std::string message,
                 std::vector<Region> regions, std::string file) {
                r.add(severity, code, std::move(message), std::move(regions), std::move(file));
            },
            &facts);
        return true;
    }

    std::uint64_t checkOrder(Reporter& r, const ZdsCollection& c,
                             const std::unordered_set<std::string>& files) {
        const ByteSource* src = c.orderIds.get();
        const auto starts = scanLineStarts(*src);
        std::unordered_set<std::string> listed;
        std::uint64_t live = 0;
        for (std::size_t i = 0; i < starts.size(); ++i) {
            const std::uint64_t end = i + 1 < starts.size() ? starts[i + 1] : src->size();
            const ByteView v = src->view(starts[i], end - starts[i]);
            std::string id(asText(v.bytes));
            while (!id.empty() && (id.back() == '\n' || id.back() == '\r')) {
                id.pop_back();
            }
            const Region line{src, starts[i], end - starts[i]};
            if (id.empty()) {
                continue;
            }
            if (!listed.insert(id).second) {
                r.error("ZDS-ORDER-DUPLICATE", "order.ids lists " + quoteName(id) + " twice", line);
                continue;
            }
            if (files.count(id) == 0) {
                r.error(
                    "ZDS-ORDER-MISSING",
                    "order.ids lists " + quoteName(id) + " but docs/" + id + ".json does not exist",
                    line);
                continue;
            }
            ++live;
        }
        for (const std::string& id : files) {
            if (listed.count(id) == 0) {
                r.warning("ZDS-ORDER-UNLISTED", "docs/" + id + ".json is not listed in order.ids",
                          whole(c.orderIds));
            }
        }
        return live;
    }

    std::filesystem::path path_;
    std::shared_ptr<ZdsDataset> ds_;
    ByteSourcePtr rawKeep_;
    FileTreePtr tree_;  // null: the local file system
    const ZdsCopiedData* copied_ = nullptr;
    std::map<const ZdsCollection*, std::uint64_t> copiedCounts_;
    double base_ = 0;
    double span_ = 1;
};

}  // namespace

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
