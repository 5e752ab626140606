#include "zds_reader.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <system_error>

#include "formats/common/bounds.h"
#include "formats/common/le_reader.h"
#include "zds_json_line.h"
#include "zds_line_index.h"
#include "zds_live_set.h"
#include "zds_probe.h"

namespace strata::zds {

namespace fs = std::filesystem;

namespace {

constexpr std::uint64_t kScanChunk = 4ull << 20;

std::string joinRel(const std::string& a, const std::string& b) {
    if (a.empty()) {
        return b;
    }
    return a + "/" + b;
}

// docs/<name> of a collection (or of the dataset folder when it is the collection itself).
bool isDocumentFile(const std::string& rel) {
    const auto slash = rel.rfind('/');
    const std::string_view dir =
        slash == std::string::npos ? std::string_view() : std::string_view(rel).substr(0, slash);
    return dir == "docs" || dir.ends_with("/docs");
}

class FolderStorage final : public ZdsStorage {
public:
    explicit FolderStorage(fs::path root) : root_(std::move(root)) {}
    bool isArchive() const override { return false; }
    bool hasFile(const std::string& rel) const override {
        std::error_code ec;
        return fs::is_regular_file(root_ / rel, ec);
    }
    bool hasDirectory(const std::string& rel) const override {
        std::error_code ec;
        return fs::is_directory(rel.empty() ? root_ : root_ / rel, ec);
    }
    std::vector<std::string> directories(const std::string& rel) const override {
        return list(rel, true);
    }
    std::vector<std::string> files(const std::string& rel) const override {
        return list(rel, false);
    }
    std::string displayPath(const std::string& rel) const override {
        return rel.empty() ? root_.string() : (root_ / rel).string();
    }

protected:
    ByteSourcePtr openUncached(const std::string& rel) const override {
        try {
            // A collection's docs/ may hold a million files: each is read when viewed and
            // holds no mapping or descriptor meanwhile. The other files are few and mapped.
            if (isDocumentFile(rel)) {
                return openFileOnDemand(root_ / rel);
            }
            return hasFile(rel) ? openMappedFile(root_ / rel) : nullptr;
        } catch (const SourceError&) {
            return nullptr;
        }
    }

    FileReadOnce readOnce(const std::string& rel, std::uint64_t limit) const override {
        if (!isDocumentFile(rel)) {
            return ZdsStorage::readOnce(rel, limit);
        }
        try {
            return readFileOnce(root_ / rel, limit);  // one open where open() + view() take two
        } catch (const SourceError&) {
            return {};
        }
    }

private:
    std::vector<std::string> list(const std::string& rel, bool wantDirs) const {
        std::vector<std::string> out;
        std::error_code ec;
        fs::directory_iterator it(rel.empty() ? root_ : root_ / rel, ec);
        for (; !ec && it != fs::directory_iterator(); it.increment(ec)) {
            std::error_code typeEc;
            const bool isDir = it->is_directory(typeEc);
            const bool isFile = it->is_regular_file(typeEc);
            if ((wantDirs && isDir) || (!wantDirs && isFile)) {
                out.push_back(it->path().filename().string());
            }
        }
        std::sort(out.begin(), out.end());
        return out;
    }

    fs::path root_;
};

class ArchiveStorage final : public ZdsStorage {
public:
    explicit ArchiveStorage(std::shared_ptr<ZipArchive> archive) : archive_(std::move(archive)) {
        for (const ZipMember& m : archive_->members()) {
            std::string name = m.name;
            if (m.isDirectory()) {
                name.pop_back();
            } else {
                files_[name] = &m;  // later duplicates win
            }
            for (auto slash = name.find('/'); slash != std::string::npos;
                 slash = name.find('/', slash + 1)) {
                dirs_.insert(name.substr(0, slash));
            }
            if (m.isDirectory() && !name.empty()) {
                dirs_.insert(name);
            }
        }
    }
    bool isArchive() const override { return true; }
    bool hasFile(const std::string& rel) const override { return files_.count(rel) != 0; }
    bool hasDirectory(const std::string& rel) const override {
        return rel.empty() || dirs_.count(rel) != 0;
    }
    std::vector<std::string> directories(const std::string& rel) const override {
        std::vector<std::string> out;
        const std::string prefix = rel.empty() ? "" : rel + "/";
        for (auto it = dirs_.lower_bound(prefix); it != dirs_.end(); ++it) {
            if (it->compare(0, prefix.size(), prefix) != 0) {
                break;
            }
            const std::string rest = it->substr(prefix.size());
            if (!rest.empty() && rest.find('/') == std::string::npos) {
                out.push_back(rest);
            }
        }
        return out;
    }
    std::vector<std::string> files(const std::string& rel) const override {
        std::vector<std::string> out;
        const std::string prefix = rel.empty() ? "" : rel + "/";
        for (auto it = files_.lower_bound(prefix); it != files_.end(); ++it) {
            if (it->first.compare(0, prefix.size(), prefix) != 0) {
                break;
            }
            const std::string rest = it->first.substr(prefix.size());
            if (!rest.empty() && rest.find('/') == std::string::npos) {
                out.push_back(rest);
            }
        }
        return out;
    }
    std::string displayPath(const std::string& rel) const override {
        return archive_->path().string() + "!" + rel;
    }

protected:
    ByteSourcePtr openUncached(const std::string& rel) const override {
        const auto it = files_.find(rel);
        return it == files_.end() ? nullptr : archive_->openMember(*it->second);
    }

private:
    std::shared_ptr<ZipArchive> archive_;
    std::map<std::string, const ZipMember*> files_;
    std::set<std::string> dirs_;
};

// A folder in a remote tree: one listing per folder, asked for on first use and kept.
class TreeStorage final : public ZdsStorage {
public:
    TreeStorage(FileTreePtr tree, Location root) : tree_(std::move(tree)), root_(std::move(root)) {}
    bool isArchive() const override { return false; }
    bool isRemote() const override { return true; }
    bool hasFile(const std::string& rel) const override {
        const auto entry = entryOf(rel);
        return entry && !entry->isDirectory;
    }
    bool hasDirectory(const std::string& rel) const override {
        if (rel.empty()) {
            return true;
        }
        const auto entry = entryOf(rel);
        return entry && entry->isDirectory;
    }
    std::vector<std::string> directories(const std::string& rel) const override {
        return names(rel, true);
    }
    std::vector<std::string> files(const std::string& rel) const override {
        return names(rel, false);
    }
    std::string displayPath(const std::string& rel) const override {
        return rel.empty() ? root_.text() : root_.child(rel).text();
    }

protected:
    ByteSourcePtr openUncached(const std::string& rel) const override {
        const auto entry = entryOf(rel);
        if (!entry || entry->isDirectory) {
            return nullptr;
        }
        const Location file = root_.child(rel);
        try {
            return tree_->openListed(file, *entry);
        } catch (const StoreError& e) {
            if (e.missing()) {
                return nullptr;
            }
            throw;
        }
    }

private:
    using Listing = std::shared_ptr<const std::vector<FileTreeEntry>>;

    // The sorted listing of folder `rel` (which must exist: only the root and folders found in
    // their parent's listing are listed, as an HTTP server answers a missing folder with an
    // error rather than an empty listing).
    Listing listing(const std::string& rel) const {
        {
            std::lock_guard lock(mutex_);
            if (const auto it = listings_.find(rel); it != listings_.end()) {
                return it->second;
            }
        }
        std::vector<FileTreeEntry> entries;
        try {
            entries = tree_->list(rel.empty() ? root_ : root_.child(rel));
        } catch (const StoreError& e) {
            if (!e.missing()) {
                throw;
            }
        }
        auto made = std::make_shared<const std::vector<FileTreeEntry>>(std::move(entries));
        std::lock_guard lock(mutex_);
        return listings_.emplace(rel, std::move(made)).first->second;
    }

    std::optional<FileTreeEntry> entryOf(const std::string& rel) const {
        const auto slash = rel.rfind('/');
        const std::string parent =
            slash == std::string::npos ? std::string() : rel.substr(0, slash);
        const std::string name = slash == std::string::npos ? rel : rel.substr(slash + 1);
        if (name.empty() || !hasDirectory(parent)) {
            return std::nullopt;
        }
        const Listing entries = listing(parent);
        const auto it = std::lower_bound(
            entries->begin(), entries->end(), name,
            [](const FileTreeEntry& e, const std::string& n) { return e.name < n; });
        if (it == entries->end() || it->name != name) {
            return std::nullopt;
        }
        return *it;
    }

    std::vector<std::string> names(const std::string& rel, bool wantDirs) const {
        std::vector<std::string> out;
        if (!hasDirectory(rel)) {
            return out;
        }
        const Listing entries = listing(rel);
        for (const FileTreeEntry& e : *entries) {
            if (e.isDirectory == wantDirs) {
                out.push_back(e.name);
            }
        }
        return out;
    }

    FileTreePtr tree_;
    Location root_;
    mutable std::mutex mutex_;
    mutable std::map<std::string, Listing> listings_;
};

bool isBlank(std::span<const std::uint8_t> line) {
    return std::all_of(line.begin(), line.end(), [](std::uint8_t c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\n';
    });
}

std::vector<std::string> readLines(const ByteSource& source) {
    std::vector<std::string> out;
    const auto starts = scanLineStarts(source);
    for (std::size_t i = 0; i < starts.size(); ++i) {
        const std::uint64_t end = i + 1 < starts.size() ? starts[i + 1] : source.size();
        const ByteView v = source.view(starts[i], end - starts[i]);
        std::string line(v.bytes.begin(), v.bytes.end());
        while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) {
            line.pop_back();
        }
        if (!line.empty()) {
            out.push_back(std::move(line));
        }
    }
    return out;
}

}  // namespace

ByteSourcePtr ZdsStorage::open(const std::string& rel) const {
    {
        std::lock_guard lock(mutex_);
        if (const auto it = cache_.find(rel); it != cache_.end()) {
            return it->second;
        }
    }
    // Opened outside the lock: a remote open waits for a server, and threads checking
    // documents in parallel open different files. The first one kept wins.
    ByteSourcePtr source = openUncached(rel);
    if (!source) {
        return nullptr;
    }
    std::lock_guard lock(mutex_);
    const auto [it, inserted] = cache_.try_emplace(rel, std::move(source));
    if (inserted) {
        opened_.push_back(it->second);
    }
    return it->second;
}

FileReadOnce ZdsStorage::readOnce(const std::string& rel, std::uint64_t limit) const {
    FileReadOnce out{open(rel), {}};
    if (out.source && out.source->size() <= limit) {
        out.bytes = out.source->view(0, out.source->size());
    }
    return out;
}

void ZdsStorage::keep(const std::string& rel, ByteSourcePtr source) const {
    std::lock_guard lock(mutex_);
    const auto [it, inserted] = cache_.try_emplace(rel, source);
    if (inserted || it->second != source) {
        opened_.push_back(std::move(source));
    }
}

std::vector<ByteSourcePtr> ZdsStorage::openedSources() const {
    std::lock_guard lock(mutex_);
    return opened_;
}

std::unique_ptr<ZdsStorage> makeFolderStorage(const fs::path& root) {
    return std::make_unique<FolderStorage>(root);
}

std::unique_ptr<ZdsStorage> makeArchiveStorage(std::shared_ptr<ZipArchive> archive) {
    return std::make_unique<ArchiveStorage>(std::move(archive));
}

std::unique_ptr<ZdsStorage> makeTreeStorage(FileTreePtr tree, Location root) {
    return std::make_unique<TreeStorage>(std::move(tree), std::move(root));
}

std::vector<std::uint64_t> scanLineStarts(const ByteSource& source) {
    std::vector<std::uint64_t> starts;
    const std::uint64_t size = source.size();
    if (size == 0) {
        return starts;
    }
    starts.push_back(0);
    for (std::uint64_t at = 0; at < size; at += kScanChunk) {
        const ByteView v = source.view(at, kScanChunk);
        if (v.empty()) {
            break;
        }
        const auto* p = v.data();
        const auto* end = p + v.size();
        while (p < end) {
            const void* nl = std::memchr(p, '\n', static_cast<std::size_t>(end - p));
            if (nl == nullptr) {
                break;
            }
            p = static_cast<const std::uint8_t*>(nl) + 1;
            const std::uint64_t next = at + static_cast<std::uint64_t>(p - v.data());
            if (next < size) {
                starts.push_back(next);
            }
        }
        if (v.size() < kScanChunk) {
            break;
        }
    }
    return starts;
}

// ---- ZDX ----

ZdxIndex::ZdxIndex(ByteSourcePtr source) : source_(std::move(source)) {
    std::uint8_t header[kZdxHeaderSize] = {};
    const std::size_t got = source_->read(0, header);
    headerComplete_ = got == kZdxHeaderSize;
    if (got >= 4 && std::memcmp(header, kZdxMagic.data(), 4) == 0) {
        layout_ = ZdxLayout::Binary;
        version_ = got >= 8 ? decodeLe<std::uint32_t>(header + 4) : 0;
        count_ = headerComplete_ ? decodeLe<std::uint64_t>(header + 8) : 0;
        return;
    }
    // The legacy text layout: the first line has two tabs and ends in digits.
    const ByteView head = source_->view(0, 4096);
    const std::string_view text(reinterpret_cast<const char*>(head.data()), head.size());
    const auto nl = text.find('\n');
    const std::string_view first = text.substr(0, nl);
    if (!first.empty() && std::count(first.begin(), first.end(), '\t') == 2) {
        layout_ = ZdxLayout::Text;
    }
}

void ZdxIndex::scan() const {
    std::call_once(scanned_, [this] {
        if (layout_ == ZdxLayout::Text) {
            const auto lines = scanLineStarts(*source_);
            for (std::size_t i = 0; i < lines.size(); ++i) {
                const std::uint64_t end = i + 1 < lines.size() ? lines[i + 1] : source_->size();
                if (!isBlank(source_->view(lines[i], end - lines[i]).bytes)) {
                    starts_.push_back(lines[i]);
                }
            }
            end_ = source_->size();
            return;
        }
        if (layout_ != ZdxLayout::Binary || !headerComplete_) {
            return;
        }
        const std::uint64_t size = source_->size();
        std::uint64_t pos = kZdxHeaderSize;
        // Bounded by the file: every entry takes at least 14 bytes.
        for (std::uint64_t i = 0; i < count_; ++i) {
            const auto idLen = readLe<std::uint16_t>(*source_, pos);
            if (!idLen || !rangeFits(pos, kZdxEntryFixedSize + *idLen, size)) {
                truncated_ = pos < size;
                break;
            }
            starts_.push_back(pos);
            pos += kZdxEntryFixedSize + *idLen;
        }
        end_ = pos;
    });
}

std::uint64_t ZdxIndex::entryCount() const {
    scan();
    return starts_.size();
}

bool ZdxIndex::truncated() const {
    scan();
    return truncated_;
}

std::uint64_t ZdxIndex::truncatedAt() const {
    scan();
    return end_;
}

std::uint64_t ZdxIndex::entriesEnd() const {
    scan();
    return end_;
}

ZdxEntry ZdxIndex::entry(std::uint64_t i) const {
    scan();
    ZdxEntry e;
    if (i >= starts_.size()) {
        e.parsed = false;
        return e;
    }
    const ByteSource* src = source_.get();
    const std::uint64_t start = starts_[i];
    if (layout_ == ZdxLayout::Binary) {
        const std::uint16_t idLen = readLe<std::uint16_t>(*source_, start).value_or(0);
        const ByteView v = source_->view(start, kZdxEntryFixedSize + idLen);
        LeCursor c(v.bytes, 2);
        const auto id = c.bytes(idLen);
        e.id.assign(id.begin(), id.end());
        e.offset = c.u64();
        e.length = c.u32();
        e.entry = {src, start, kZdxEntryFixedSize + idLen};
        e.idRegion = {src, start + 2, idLen};
        e.offsetRegion = {src, start + 2 + idLen, 8};
        e.lengthRegion = {src, start + 10 + idLen, 4};
        e.parsed = c.ok();
        return e;
    }
    // Text: id \t offset \t length
    const std::uint64_t end = jsonLineEnd(*source_, start);
    const ByteView v = source_->view(start, end - start);
    std::string_view line(reinterpret_cast<const char*>(v.data()), v.size());
    e.entry = {src, start, v.size()};
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) {
        line.remove_suffix(1);
    }
    const auto t1 = line.find('\t');
    const auto t2 = t1 == std::string_view::npos ? t1 : line.find('\t', t1 + 1);
    e.parsed = false;
    if (t2 == std::string_view::npos) {
        e.id = std::string(line);
        e.idRegion = {src, start, line.size()};
        return e;
    }
    e.id = std::string(line.substr(0, t1));
    e.idRegion = {src, start, t1};
    const auto parseNum = [](std::string_view s, std::uint64_t& out) {
        if (s.empty() || s.size() > 19) {
            return false;
        }
        out = 0;
        for (char ch : s) {
            if (ch < '0' || ch > '9') {
                return false;
            }
            out = out * 10 + static_cast<std::uint64_t>(ch - '0');
        }
        return true;
    };
    const std::string_view off = line.substr(t1 + 1, t2 - t1 - 1);
    const std::string_view len = line.substr(t2 + 1);
    e.offsetRegion = {src, start + t1 + 1, off.size()};
    e.lengthRegion = {src, start + t2 + 1, len.size()};
    e.parsed = parseNum(off, e.offset) && parseNum(len, e.length);
    return e;
}

// ---- collections ----

ZdsCollection::ZdsCollection(const ZdsStorage& storage, std::string name, std::string dir)
    : storage_(storage), name_(std::move(name)), dir_(std::move(dir)) {
    data = storage_.open(path("meta/data.jsonl"));
    index = storage_.open(path("meta/index.bin"));
    manifest = storage_.open(path("meta/manifest.json"));
    orderIds = storage_.open(path("meta/order.ids"));
    docIndex = storage_.open(path("meta/doc_index.jsonl"));
    hasDocsDir = storage_.hasDirectory(path("docs"));
    hasMetaDir = storage_.hasDirectory(path("meta"));
    if (index) {
        zdx_ = std::make_unique<ZdxIndex>(index);
    }
}

std::string ZdsCollection::path(const std::string& rel) const {
    return joinRel(dir_, rel);
}

ZdsStorageMode ZdsCollection::mode() const {
    if (data) {
        return ZdsStorageMode::Jsonl;
    }
    if (hasDocsDir || orderIds) {
        return ZdsStorageMode::Docs;
    }
    return ZdsStorageMode::None;
}

bool ZdsCollection::usesIndex() const {
    return liveSet()->fromIndex();
}

const std::vector<std::uint64_t>& ZdsCollection::lineStarts() const {
    std::call_once(linesOnce_, [this] {
        if (!data) {
            return;
        }
        // Consecutive starts bound each line, so the data is read front to back once.
        const auto starts = scanLineStarts(*data);
        for (std::size_t i = 0; i < starts.size(); ++i) {
            const std::uint64_t end = i + 1 < starts.size() ? starts[i + 1] : data->size();
            if (!isBlank(data->view(starts[i], end - starts[i]).bytes)) {
                lines_.push_back(starts[i]);
            }
        }
    });
    return lines_;
}

const std::vector<std::string>& ZdsCollection::docFiles() const {
    std::call_once(docsOnce_, [this] {
        if (hasDocsDir) {
            docFiles_ = storage_.files(path("docs"));
        }
    });
    return docFiles_;
}

const std::vector<std::string>& ZdsCollection::orderList() const {
    std::call_once(orderOnce_, [this] {
        if (orderIds) {
            orderIds_ = readLines(*orderIds);
        }
    });
    return orderIds_;
}

std::uint64_t ZdsCollection::documentCount() const {
    return liveSet()->size();
}

ZdsDocument ZdsCollection::document(std::uint64_t i) const {
    const auto live = liveSet();
    ZdsDocument doc;
    if (i >= live->size()) {
        return doc;
    }
    doc.id = std::string(live->id(i));
    doc.region = live->region(i);
    doc.flags = live->flags(i);
    if (live->fromIndex()) {
        doc.entryIndex = live->entry(i);
    }
    return doc;
}

ByteView ZdsCollection::documentBytes(std::uint64_t i) const {
    return documentBytes(document(i));
}

ByteView ZdsCollection::documentBytes(const ZdsDocument& doc) const {
    if (!doc.region.valid()) {
        return {};
    }
    ByteView v = doc.region.source->view(doc.region.offset, doc.region.length);
    if (mode() == ZdsStorageMode::Jsonl) {
        std::size_t n = v.size();
        while (n > 0 && (v.bytes[n - 1] == '\n' || v.bytes[n - 1] == '\r')) {
            --n;
        }
        v.bytes = v.bytes.first(n);
    }
    return v;
}

std::shared_ptr<const ZdsLiveSet> ZdsCollection::liveSet() const {
    return liveSet(ZdsLiveOptions{});
}

std::shared_ptr<const ZdsLiveSet> ZdsCollection::liveSet(const ZdsLiveOptions& options) const {
    std::lock_guard lock(liveMutex_);
    if (live_ && (!options.census || live_->census() || !data)) {
        return live_;
    }
    auto set = computeZdsLiveSet(*this, options);
    if (set) {
        live_ = set;
    }
    return set;
}

// ---- dataset ----

std::shared_ptr<ZdsDataset> ZdsDataset::open(const fs::path& path, bool checkZipConsistency) {
    auto ds = std::make_shared<ZdsDataset>();
    ds->path_ = path;
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
        ds->storage_ = makeFolderStorage(path);
    } else if (fs::is_regular_file(path, ec)) {
        ds->archive_ = ZipArchive::open(path, checkZipConsistency);
        ds->storage_ = makeArchiveStorage(ds->archive_);
    } else {
        throw SourceError(path.string() + ": no such file or folder");
    }
    ds->readLayout();
    return ds;
}

std::shared_ptr<ZdsDataset> ZdsDataset::open(const FileTreePtr& tree, const Location& location,
                                             bool checkZipConsistency, ByteSourcePtr opened) {
    if (!tree->remote()) {
        return open(location.localPath(), checkZipConsistency);
    }
    auto ds = std::make_shared<ZdsDataset>();
    ds->path_ = location.text();
    ds->tree_ = tree;
    if (!opened) {
        const std::optional<FileTreeEntry> entry = tree->stat(location);
        if (!entry) {
            throw SourceError(location.text() + ": no such file or folder");
        }
        if (entry->isDirectory) {
            ds->storage_ = makeTreeStorage(tree, location);
        } else {
            opened = tree->open(location);
        }
    }
    if (opened) {
        ds->archive_ = ZipArchive::open(opened, checkZipConsistency);
        ds->storage_ = makeArchiveStorage(ds->archive_);
    }
    ds->readLayout();
    return ds;
}

void ZdsDataset::readLayout() {
    const ZdsStorage& st = *storage_;
    zdsJson = st.open("zds.json");
    hasCollectionsDir = st.hasDirectory("collections");
    if (hasCollectionsDir) {
        for (const std::string& name : st.directories("collections")) {
            collections.push_back(std::make_unique<ZdsCollection>(st, name, "collections/" + name));
        }
    } else if (!st.isArchive() && !zdsJson &&
               (st.hasDirectory("meta") || st.hasDirectory("docs"))) {
        singleCollection = true;
        collections.push_back(std::make_unique<ZdsCollection>(st, path_.filename().string(), ""));
    }
}

std::optional<std::string> extractJsonId(std::span<const std::uint8_t> line) {
    JsonLineFacts facts = analyzeJsonLine(line);
    if (!facts.idIsString) {
        return std::nullopt;
    }
    return std::move(facts.id);
}

}  // namespace strata::zds
