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
#include "formats/common/zip_member_source.h"
#include "zds_line_index.h"
#include "zds_reader.h"

namespace strata {

namespace fs = std::filesystem;

namespace {

constexpr std::uint64_t kCopyChunk = 4ull << 20;
constexpr std::uint64_t kSmallMember = 1ull << 20;  // any ratio is fine below this

bool safeMemberName(std::string_view name) {
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

// True when every index entry lands on a whole line of the data.
bool indexUsable(const ZdsCollection& c) {
    if (!c.usesIndex() || c.zdx()->layout() != ZdxLayout::Binary || c.zdx()->truncated() ||
        c.zdx()->entryCount() != c.zdx()->declaredCount()) {
        return false;
    }
    const ByteSource& data = *c.data;
    const std::uint64_t n = c.zdx()->entryCount();
    for (std::uint64_t i = 0; i < n; ++i) {
        const ZdxEntry e = c.zdx()->entry(i);
        if (!e.parsed || e.length == 0 || !rangeFits(e.offset, e.length, data.size())) {
            return false;
        }
        std::uint8_t before = '\n';
        std::uint8_t last = 0;
        if (e.offset > 0) {
            data.read(e.offset - 1, std::span(&before, 1));
        }
        data.read(e.offset + e.length - 1, std::span(&last, 1));
        const bool endsLine = last == '\n' || e.offset + e.length == data.size();
        if (before != '\n' || !endsLine) {
            return false;
        }
        const ByteView line = data.view(e.offset, e.length);
        const auto body = line.bytes.first(line.size() - (last == '\n' ? 1 : 0));
        if (std::find(body.begin(), body.end(), '\n') != body.end() ||
            jsonLineId(body).value_or(std::string()) != e.id) {
            return false;
        }
    }
    return true;
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
        if (!safeMemberName(m.name)) {
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
    const ZdsWriteResult w = writeZdsDataset(&ds, writes, path, writeOptions(options));
    result.cancelled = w.cancelled;
    result.documents = w.documents;
    return result;
}

// The live lines of a JSONL collection (for each id its last line, in file order) found by
// scanning data.jsonl: as ZDX bytes from the fast indexer, or, when ZDX cannot describe some
// line (an id over 65535 bytes, a line over 4 GiB), as a line table.
struct LiveScan {
    ZdxBuild zdx;                     // when zdx.complete
    std::vector<ZdsLineEntry> table;  // otherwise
    std::uint64_t kept = 0;
    std::uint64_t withoutId = 0;
    std::uint64_t superseded = 0;

    template <typename On>
    void forEachLine(On&& on) const {
        if (zdx.complete) {
            forEachZdxEntry(zdx, [&](std::string_view, std::uint64_t offset, std::uint64_t length) {
                on(offset, length);
            });
            return;
        }
        for (const ZdsLineEntry& e : table) {
            on(e.offset, e.length);
        }
    }
};

std::optional<LiveScan> scanLiveLines(const ZdsCollection& c, const ZdsJobOptions& options) {
    ZdsIndexOptions io;
    io.cancel = options.cancel;
    io.progress = options.progress;
    auto zdx = buildLiveZdx(*c.data, io);
    if (!zdx) {
        return std::nullopt;
    }
    LiveScan scan;
    if (zdx->complete) {
        scan.kept = zdx->indexed;
        scan.withoutId = zdx->withoutId;
        scan.superseded = zdx->superseded;
        scan.zdx = std::move(*zdx);
        return scan;
    }
    scan.zdx.complete = false;
    const auto lines = indexJsonLines(*c.data, io);
    if (!lines) {
        return std::nullopt;
    }
    scan.table = liveLines(*lines);
    scan.kept = scan.table.size();
    scan.withoutId = static_cast<std::uint64_t>(
        std::count_if(lines->begin(), lines->end(), [](const auto& e) { return !e.hasId; }));
    scan.superseded = lines->size() - scan.withoutId - scan.kept;
    return scan;
}

// index.bin of a folder collection from a scan, through an AtomicFile.
void writeIndex(const fs::path& target, const LiveScan& scan, const std::string& collection) {
    try {
        if (scan.zdx.complete) {
            AtomicFile file(target);
            for (const std::string& part : scan.zdx.parts) {
                file.write(part);
            }
            file.commit();
            return;
        }
        const std::string zdx = encodeZdx(scan.table);
        writeFileAtomically(
            target, std::span(reinterpret_cast<const std::uint8_t*>(zdx.data()), zdx.size()));
    } catch (const std::length_error& e) {
        throw ZdsJobError(collection + ": " + e.what());
    } catch (const FileWriteError& e) {
        throw ZdsJobError(e.what());
    }
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

std::optional<std::vector<ZdsWriteDoc>> liveZdsLines(const ZdsCollection& c,
                                                     const ZdsJobOptions& options,
                                                     std::vector<std::string>* notes) {
    if (c.mode() != ZdsStorageMode::Jsonl) {
        throw ZdsJobError("collection " + c.name() + " has no meta/data.jsonl");
    }
    struct Line {
        std::uint64_t offset, length;
    };
    std::unordered_map<std::string, Line> last;
    std::uint64_t superseded = 0;
    if (indexUsable(c)) {
        const std::uint64_t n = c.zdx()->entryCount();
        for (std::uint64_t i = 0; i < n; ++i) {
            ZdxEntry e = c.zdx()->entry(i);
            superseded += last.count(e.id);
            last[std::move(e.id)] = Line{e.offset, e.length};
        }
        noteCount(notes, superseded, "index entries repeat an id (the last one is kept)");
    } else {
        const auto scan = scanLiveLines(c, options);
        if (!scan) {
            return std::nullopt;
        }
        noteCount(notes, scan->withoutId, "lines without a string _id are left out");
        noteCount(notes, scan->superseded, "lines are superseded by a later line with the same id");
        std::vector<ZdsWriteDoc> docs;
        docs.reserve(static_cast<std::size_t>(scan->kept));
        scan->forEachLine([&](std::uint64_t offset, std::uint64_t length) {
            docs.push_back(ZdsWriteDoc::dataLine(offset, length));
        });
        return docs;
    }
    std::vector<Line> live;
    live.reserve(last.size());
    for (const auto& [id, line] : last) {
        live.push_back(line);
    }
    std::sort(live.begin(), live.end(),
              [](const Line& a, const Line& b) { return a.offset < b.offset; });
    live.erase(std::unique(live.begin(), live.end(),
                           [](const Line& a, const Line& b) { return a.offset == b.offset; }),
               live.end());
    std::vector<ZdsWriteDoc> docs;
    docs.reserve(live.size());
    for (const Line& l : live) {
        docs.push_back(ZdsWriteDoc::dataLine(l.offset, l.length));
    }
    return docs;
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
        if (c->mode() != ZdsStorageMode::Jsonl) {
            result.notes.push_back("collection " + c->name() +
                                   " keeps one file per document: "
                                   "it has no index to rebuild");
            continue;
        }
        const auto scan = scanLiveLines(*c, options);
        if (!scan) {
            result.cancelled = true;
            return result;
        }
        noteCount(&result.notes, scan->withoutId,
                  "lines without a string _id in " + c->name() + " are not indexed");
        noteCount(&result.notes, scan->superseded,
                  "lines in " + c->name() +
                      " are superseded by a later line with the same id (compact drops them)");
        result.documents += scan->kept;
        if (ds->storage().isArchive()) {
            // An archive is rewritten whole: the data goes with it, live lines only.
            ZdsCollectionWrite w;
            w.name = c->name();
            w.source = c;
            scan->forEachLine([&](std::uint64_t offset, std::uint64_t length) {
                w.documents.push_back(ZdsWriteDoc::dataLine(offset, length));
            });
            writes.push_back(std::move(w));
            continue;
        }
        writeIndex(fs::path(ds->storage().displayPath(c->path("meta/index.bin"))), *scan,
                   c->name());
    }
    if (!writes.empty()) {
        const ZdsJobResult r = rewrite(path, *ds, writes, options);
        result.cancelled = r.cancelled;
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
        auto docs = liveZdsLines(*c, options, &result.notes);
        if (!docs) {
            result.cancelled = true;
            return result;
        }
        ZdsCollectionWrite w;
        w.name = c->name();
        w.source = c;
        w.documents = std::move(*docs);
        writes.push_back(std::move(w));
    }
    if (writes.empty()) {
        result.notes.push_back("no JSONL collection to compact");
        return result;
    }
    const ZdsJobResult r = rewrite(path, *ds, writes, options);
    result.cancelled = r.cancelled;
    result.documents = r.documents;
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
    const ZdsJobResult r = rewrite(path, *ds, writes, options);
    result.cancelled = r.cancelled;
    result.documents = r.documents;
    return result;
}

}  // namespace strata
