#include "zds_jobs.h"

#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <map>
#include <set>
#include <system_error>
#include <unordered_map>

#include "formats/common/atomic_file.h"
#include "formats/common/bounds.h"
#include "formats/common/le_reader.h"
#include "formats/common/zip_member_source.h"
#include "zds_line_index.h"
#include "zds_live_set.h"
#include "zds_reader.h"

namespace strata::zds {

namespace fs = std::filesystem;

namespace {

constexpr std::uint64_t kCopyChunk = 4ull << 20;
constexpr std::uint64_t kSmallMember = 1ull << 20;  // any ratio is fine below this

}  // namespace

bool zdsSafeMemberName(std::string_view name) {
    if (!name.empty() && name.back() == '/') {
        name.remove_suffix(1);
    }
    if (name.empty() || name.front() == '/' || name.find('\\') != std::string_view::npos ||
        name.find('\0') != std::string_view::npos || name.find(':') == 1) {
        return false;
    }
    std::size_t start = 0;
    while (true) {
        const auto slash = name.find('/', start);
        const auto part = name.substr(start, slash == name.npos ? name.npos : slash - start);
        if (part.empty() || part == "." || part == "..") {
            return false;
        }
        if (slash == name.npos) {
            return true;
        }
        start = slash + 1;
    }
}

namespace {

ZdsWriteOptions writeOptions(const ZdsJobOptions& options) {
    ZdsWriteOptions w;
    w.cancel = options.cancel;
    w.progress = options.progress;
    w.deflate = options.deflate;
    return w;
}

std::vector<const ZdsCollection*> selectCollections(const ZdsDataset& ds,
                                                    const ZdsJobOptions& options) {
    if (!options.collection.empty()) {
        return {&chooseZdsCollection(ds, options.collection)};
    }
    std::vector<const ZdsCollection*> out;
    for (const auto& c : ds.collections) {
        out.push_back(c.get());
    }
    return out;
}

void noteCount(std::vector<std::string>* notes, std::uint64_t n, const std::string& what) {
    if (notes != nullptr && n > 0) {
        notes->push_back(std::to_string(n) + " " + what);
    }
}

void copyMember(const ZipArchive& archive, const ZipMember& m, const fs::path& to,
                const ZdsJobOptions& options) {
    const ByteSourcePtr src = archive.openMember(m);
    if (!src) {
        throw ZdsJobError(m.name + ": cannot read this member (method " + std::to_string(m.method) +
                          ")");
    }
    std::error_code ec;
    fs::create_directories(to.parent_path(), ec);
    AtomicFile out(to);
    uLong crc = crc32(0, nullptr, 0);
    std::uint64_t produced = 0;
    for (std::uint64_t at = 0; at < m.uncompressedSize; at += kCopyChunk) {
        if (options.cancelled()) {
            return;  // the AtomicFile is dropped
        }
        const ByteView v = src->view(at, kCopyChunk);
        if (v.empty()) {
            break;
        }
        crc = crc32(crc, v.data(), static_cast<uInt>(v.size()));
        produced += v.size();
        out.write(v.bytes);
        if (v.size() < kCopyChunk) {
            break;
        }
    }
    if (produced != m.uncompressedSize) {
        throw ZdsJobError(m.name + ": data ends after " + std::to_string(produced) +
                          " bytes; the archive says " + std::to_string(m.uncompressedSize));
    }
    if (static_cast<std::uint32_t>(crc) != m.crc) {
        throw ZdsJobError(m.name + ": CRC-32 mismatch: the data is damaged");
    }
    out.commit();
}

// Refuses the whole archive before anything is written.
void checkArchiveSafe(const ZipArchive& archive, const ZdsJobOptions& options) {
    std::set<std::string> names;
    std::uint64_t total = 0;
    for (const ZipMember& m : archive.members()) {
        if (!zdsSafeMemberName(m.name)) {
            throw ZdsJobError("refusing to unpack: member name \"" + m.name +
                              "\" would be written outside the target folder");
        }
        std::string name = m.name;
        if (m.isDirectory()) {
            continue;
        }
        if (!names.insert(name).second) {
            throw ZdsJobError("refusing to unpack: member \"" + name + "\" appears twice");
        }
        if (m.method != kZipMethodStore && m.method != kZipMethodDeflate) {
            throw ZdsJobError("refusing to unpack: member \"" + name +
                              "\" uses compression method " + std::to_string(m.method));
        }
        if (m.method == kZipMethodStore && m.uncompressedSize != m.compressedSize) {
            throw ZdsJobError("refusing to unpack: stored member \"" + name +
                              "\" claims a size that is not its stored size");
        }
        const auto limit =
            checkedMul(std::max<std::uint64_t>(m.compressedSize, 1), kZdsMaxExpansion);
        if (m.uncompressedSize > kSmallMember && limit && m.uncompressedSize > *limit) {
            throw ZdsJobError("refusing to unpack: member \"" + name + "\" claims " +
                              std::to_string(m.uncompressedSize) + " bytes from " +
                              std::to_string(m.compressedSize) + " compressed (more than " +
                              std::to_string(kZdsMaxExpansion) + " times)");
        }
        total = saturatingEnd(total, m.uncompressedSize);
    }
    if (total > options.maxUnpackedBytes) {
        throw ZdsJobError("refusing to unpack: the members add up to " + std::to_string(total) +
                          " bytes, more than the limit of " +
                          std::to_string(options.maxUnpackedBytes));
    }
}

ZdsJobResult rewrite(const fs::path& path, const ZdsDataset& ds,
                     const std::vector<ZdsCollectionWrite>& writes, const ZdsJobOptions& options) {
    ZdsJobResult result;
    ZdsWriteResult w = writeZdsDataset(&ds, writes, path, writeOptions(options));
    result.cancelled = w.cancelled;
    result.documents = w.documents;
    result.notes = std::move(w.notes);
    return result;
}

ZdsLiveOptions liveOptions(const ZdsJobOptions& options, bool census) {
    ZdsLiveOptions o;
    o.index.cancel = options.cancel;
    o.index.progress = options.progress;
    o.census = census;
    return o;
}

void addNotes(std::vector<std::string>& notes, const std::string& collection,
              const std::vector<std::string>& more) {
    for (const std::string& n : more) {
        notes.push_back(collection + ": " + n);
    }
}

// What compaction drops, in words.
void noteDropped(std::vector<std::string>& notes, const ZdsCollection& c,
                 const ZdsLiveCensus& census) {
    const std::uint64_t dropped = census.superseded + census.unlisted + census.withoutId;
    if (dropped == 0) {
        return;
    }
    std::string why;
    auto part = [&](std::uint64_t n, const std::string& what) {
        if (n > 0) {
            why += (why.empty() ? "" : ", ") + std::to_string(n) + " " + what;
        }
    };
    part(census.superseded, "older versions of a live document");
    part(census.unlisted, "not listed by the index (deleted)");
    part(census.withoutId, "without a string _id");
    notes.push_back(c.name() + ": " + std::to_string(dropped) + " lines are not live and are " +
                    "dropped (" + why + ")");
}

// ZDX bytes for the live documents of a folder collection: each key with the line its document
// was found at, so the set a reader finds does not change; documents without a line cannot be
// indexed and are left out, with a note.
std::string liveIndexBytes(const ZdsCollection& c, const ZdsLiveSet& live,
                           std::vector<std::string>& notes) {
    std::string zdx = encodeZdxHeader(0);
    std::uint64_t entries = 0;
    for (std::uint64_t i = 0; i < live.size(); ++i) {
        const Region r = live.region(i);
        if (!r.valid()) {
            notes.push_back(c.name() + ": document '" + std::string(live.id(i)) +
                            "' has no line in data.jsonl; it is no longer indexed");
            continue;
        }
        try {
            appendZdxEntry(zdx, live.id(i), r.offset, r.length);
        } catch (const std::length_error& e) {
            throw ZdsJobError(c.name() + ": " + e.what());
        }
        ++entries;
    }
    const std::string header = encodeZdxHeader(entries);
    std::copy(header.begin(), header.end(), zdx.begin());
    return zdx;
}

// Documents that `wider` lists and `narrower` does not.
std::uint64_t countNewIds(const ZdsLiveSet& wider, const ZdsLiveSet& narrower) {
    std::uint64_t n = 0;
    for (std::uint64_t i = 0; i < wider.size(); ++i) {
        n += narrower.find(wider.id(i)) ? 0 : 1;
    }
    return n;
}

// docs/ collection: every file in docs/ (listed ones first, in their order), so the rewritten
// metadata lists each of them.
ZdsCollectionWrite docsFromDisk(const ZdsCollection& c, std::vector<std::string>& notes) {
    ZdsCollectionWrite w;
    w.name = c.name();
    w.source = &c;
    w.layout = ZdsLayout::Docs;
    const auto live = c.liveSet();
    std::set<std::string> onDisk;
    for (const std::string& name : c.docFiles()) {
        if (name.size() > 5 && name.ends_with(".json")) {
            onDisk.insert(name.substr(0, name.size() - 5));
        }
    }
    std::set<std::string> taken;
    std::uint64_t missing = 0;
    for (std::uint64_t i = 0; i < live->size(); ++i) {
        const std::string id(live->id(i));
        if (onDisk.count(id) == 0) {
            ++missing;
        } else if (taken.insert(id).second) {
            w.documents.push_back(ZdsWriteDoc::docsFile(id));
        }
    }
    std::uint64_t added = 0;
    for (const std::string& id : onDisk) {
        if (taken.insert(id).second) {
            w.documents.push_back(ZdsWriteDoc::docsFile(id));
            ++added;
        }
    }
    noteCount(&notes, missing, c.name() + " ids listed without a docs/ file are no longer listed");
    noteCount(&notes, added, c.name() + " files in docs/ that were not listed are now listed");
    return w;
}

}  // namespace

const ZdsCollection& chooseZdsCollection(const ZdsDataset& ds, const std::string& name) {
    const std::string want = name.empty() && ds.collections.size() != 1 ? "default" : name;
    for (const auto& c : ds.collections) {
        if (want.empty() || c->name() == want) {
            return *c;
        }
    }
    std::string list;
    for (const auto& c : ds.collections) {
        list += (list.empty() ? "" : ", ") + c->name();
    }
    throw ZdsJobError("no collection \"" + want + "\" in " + ds.path().string() +
                      (list.empty() ? " (it holds none)" : " (it holds: " + list + ")"));
}

ZdsJobResult packZds(const fs::path& folder, const fs::path& archive,
                     const ZdsJobOptions& options) {
    std::error_code ec;
    if (!fs::is_directory(folder, ec)) {
        throw ZdsJobError(folder.string() + " is not a folder");
    }
    if (fs::exists(archive, ec) && !fs::is_regular_file(archive, ec)) {
        throw ZdsJobError(archive.string() + " exists and is not a file");
    }
    const auto ds = ZdsDataset::open(folder);
    if (ds->collections.empty() && !ds->hasCollectionsDir) {
        throw ZdsJobError(folder.string() + " is not a ZDS dataset (no collections/)");
    }
    ZdsWriteOptions w = writeOptions(options);
    const ZdsWriteResult r = writeZdsDataset(ds.get(), {}, archive, w);
    ZdsJobResult result;
    result.cancelled = r.cancelled;
    for (const auto& c : ds->collections) {
        result.documents += c->documentCount();
    }
    return result;
}

ZdsJobResult unpackZds(const fs::path& archivePath, const fs::path& dest,
                       const ZdsJobOptions& options) {
    const auto archive = ZipArchive::open(archivePath, true);
    checkArchiveSafe(*archive, options);
    std::error_code ec;
    if (fs::exists(dest, ec) && !(fs::is_directory(dest, ec) && fs::is_empty(dest, ec))) {
        throw ZdsJobError(dest.string() + " already exists and is not an empty folder");
    }
    const fs::path absDest = fs::absolute(dest);
    const fs::path stage = absDest.parent_path() / ("." + absDest.filename().string() +
                                                    ".strata-stage-" + std::to_string(::getpid()));
    fs::remove_all(stage, ec);
    fs::create_directories(stage, ec);
    if (ec) {
        throw ZdsJobError("cannot create " + stage.string() + ": " + ec.message());
    }
    struct Cleanup {
        fs::path path;
        ~Cleanup() {
            std::error_code e;
            fs::remove_all(path, e);
        }
    } cleanup{stage};

    ZdsJobResult result;
    const auto& members = archive->members();
    std::uint64_t total = 0;
    for (const ZipMember& m : members) {
        total += m.isDirectory() ? 0 : m.uncompressedSize;
    }
    std::uint64_t done = 0;
    for (const ZipMember& m : members) {
        if (options.cancelled()) {
            result.cancelled = true;
            return result;
        }
        if (m.isDirectory()) {
            fs::create_directories(stage / m.name, ec);
            continue;
        }
        try {
            copyMember(*archive, m, stage / m.name, options);
        } catch (const FileWriteError& e) {
            throw ZdsJobError(e.what());
        }
        ++result.files;
        done += m.uncompressedSize;
        options.progress ? options.progress(total == 0 ? 1.0 : double(done) / double(total), m.name)
                         : void();
    }
    if (options.cancelled()) {
        result.cancelled = true;
        return result;
    }
    fs::remove(absDest, ec);  // an empty folder, if any
    fs::rename(stage, absDest, ec);
    if (ec) {
        throw ZdsJobError("cannot move the unpacked files to " + dest.string() + ": " +
                          ec.message());
    }
    return result;
}

ZdsJobResult reindexZds(const fs::path& path, const ZdsJobOptions& options) {
    const auto ds = ZdsDataset::open(path);
    ZdsJobResult result;
    std::vector<ZdsCollectionWrite> writes;
    for (const ZdsCollection* c : selectCollections(*ds, options)) {
        if (c->mode() == ZdsStorageMode::Docs) {
            writes.push_back(docsFromDisk(*c, result.notes));
            continue;
        }
        if (c->mode() != ZdsStorageMode::Jsonl) {
            continue;
        }
        ZdsLiveOptions lo = liveOptions(options, true);
        lo.ignoreIndex = options.fromLines;
        const auto live = computeZdsLiveSet(*c, lo);
        if (!live) {
            result.cancelled = true;
            return result;
        }
        addNotes(result.notes, c->name(), live->notes());
        if (live->census()) {
            noteCount(&result.notes, live->census()->superseded,
                      "lines in " + c->name() +
                          " are superseded by a later line with the same id (compact drops "
                          "them)");
            if (live->fromIndex()) {
                noteCount(&result.notes, live->census()->unlisted,
                          "lines in " + c->name() +
                              " carry ids the index does not list and stay out of it "
                              "(--from-lines indexes them, and brings deleted documents back)");
            }
        }
        if (options.fromLines && c->index) {
            if (const auto listed = c->liveSet(liveOptions(options, false))) {
                noteCount(&result.notes, countNewIds(*live, *listed),
                          "documents of " + c->name() +
                              " that the old index did not list are live again "
                              "(rebuilt from the lines)");
            }
        }
        if (ds->storage().isArchive()) {
            // An archive is rewritten whole: the data goes with it, live documents only.
            if (options.fromLines) {
                ZdsCollectionWrite w;
                w.name = c->name();
                w.source = c;
                for (std::uint64_t i = 0; i < live->size(); ++i) {
                    const Region r = live->region(i);
                    w.documents.push_back(ZdsWriteDoc::dataLine(r.offset, r.length));
                }
                writes.push_back(std::move(w));
            } else {
                writes.push_back(unchangedCollection(*c));
            }
            continue;
        }
        const std::string zdx = liveIndexBytes(*c, *live, result.notes);
        result.documents +=
            decodeLe<std::uint64_t>(reinterpret_cast<const std::uint8_t*>(zdx.data()) + 8);
        try {
            writeFileAtomically(
                fs::path(ds->storage().displayPath(c->path("meta/index.bin"))),
                std::span(reinterpret_cast<const std::uint8_t*>(zdx.data()), zdx.size()));
        } catch (const FileWriteError& e) {
            throw ZdsJobError(e.what());
        }
    }
    if (!writes.empty()) {
        ZdsJobResult r = rewrite(path, *ds, writes, options);
        result.cancelled = r.cancelled;
        result.documents += r.documents;
        result.notes.insert(result.notes.end(), r.notes.begin(), r.notes.end());
    }
    return result;
}

ZdsJobResult compactZds(const fs::path& path, const ZdsJobOptions& options) {
    const auto ds = ZdsDataset::open(path);
    ZdsJobResult result;
    std::vector<ZdsCollectionWrite> writes;
    for (const ZdsCollection* c : selectCollections(*ds, options)) {
        if (c->mode() != ZdsStorageMode::Jsonl) {
            continue;
        }
        const auto live = c->liveSet(liveOptions(options, true));
        if (!live) {
            result.cancelled = true;
            return result;
        }
        addNotes(result.notes, c->name(), live->notes());
        if (live->census()) {
            noteDropped(result.notes, *c, *live->census());
        }
        writes.push_back(unchangedCollection(*c));
    }
    if (writes.empty()) {
        result.notes.push_back("no JSONL collection to compact");
        return result;
    }
    ZdsJobResult r = rewrite(path, *ds, writes, options);
    result.cancelled = r.cancelled;
    result.documents = r.documents;
    result.notes.insert(result.notes.end(), r.notes.begin(), r.notes.end());
    return result;
}

ZdsJobResult convertZds(const fs::path& path, ZdsLayout layout, const ZdsJobOptions& options) {
    const auto ds = ZdsDataset::open(path);
    ZdsJobResult result;
    std::vector<ZdsCollectionWrite> writes;
    for (const ZdsCollection* c : selectCollections(*ds, options)) {
        if (c->mode() == ZdsStorageMode::None) {
            continue;
        }
        ZdsCollectionWrite w = unchangedCollection(*c);
        w.layout = layout;
        writes.push_back(std::move(w));
    }
    if (writes.empty()) {
        result.notes.push_back("no collection to convert");
        return result;
    }
    ZdsJobResult r = rewrite(path, *ds, writes, options);
    result.cancelled = r.cancelled;
    result.documents = r.documents;
    result.notes.insert(result.notes.end(), r.notes.begin(), r.notes.end());
    return result;
}

}  // namespace strata::zds
