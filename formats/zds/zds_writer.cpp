#include "zds_writer.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <span>
#include <system_error>
#include <unordered_map>
#include <unordered_set>

#include "formats/common/atomic_file.h"
#include "formats/common/bounds.h"
#include "formats/common/save_leftovers.h"
#include "formats/common/zip_library.h"
#include "zds_docs_meta.h"
#include "zds_json_line.h"
#include "zds_line_index.h"
#include "zds_live_set.h"
#include "zds_validator.h"
#include "zds_write_checks.h"

namespace strata::zds {

namespace fs = std::filesystem;
using ojson = nlohmann::ordered_json;

namespace {

constexpr std::uint64_t kCopyChunk = 4ull << 20;
constexpr std::size_t kWriteBuffer = 8u << 20;
constexpr std::uint64_t kMaxMetadataBytes = 64ull << 20;
constexpr std::uint64_t kProgressEvery = 4096;
constexpr std::string_view kStagePrefix = "strata-stage-";

std::string joinRel(const std::string& a, const std::string& b) {
    return a.empty() ? b : a + "/" + b;
}

std::string utcNow() {
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

// A member name or relative path that stays inside the dataset.
bool safeRelPath(std::string_view rel) {
    if (rel.empty() || rel.front() == '/' || rel.find('\\') != std::string_view::npos ||
        rel.find('\0') != std::string_view::npos) {
        return false;
    }
    std::size_t start = 0;
    while (start <= rel.size()) {
        const auto slash = rel.find('/', start);
        const auto part =
            rel.substr(start, slash == std::string_view::npos ? rel.npos : slash - start);
        if (part == ".." || part == ".") {
            return false;
        }
        if (slash == std::string_view::npos) {
            break;
        }
        start = slash + 1;
    }
    return true;
}

// Usable as a docs/<id>.json file name.
bool safeDocFileId(std::string_view id) {
    return !id.empty() && id.size() <= 255 && id != "." && id != ".." &&
           id.find('/') == std::string_view::npos && id.find('\\') == std::string_view::npos &&
           id.find('\0') == std::string_view::npos;
}

void listTree(const ZdsStorage& storage, const std::string& rel, std::vector<std::string>& out) {
    for (const std::string& f : storage.files(rel)) {
        out.push_back(joinRel(rel, f));
    }
    for (const std::string& d : storage.directories(rel)) {
        listTree(storage, joinRel(rel, d), out);
    }
}

std::optional<ojson> readJsonObject(const ByteSourcePtr& src) {
    if (!src || src->size() > kMaxMetadataBytes) {
        return std::nullopt;
    }
    const ByteView v = src->view(0, src->size());
    auto json = ojson::parse(v.bytes.begin(), v.bytes.end(), nullptr, false);
    if (json.is_discarded() || !json.is_object()) {
        return std::nullopt;
    }
    return json;
}

void copySource(const ByteSource& src, AtomicFile& out) {
    for (std::uint64_t at = 0; at < src.size(); at += kCopyChunk) {
        const ByteView v = src.view(at, kCopyChunk);
        if (v.empty()) {
            break;
        }
        out.write(v.bytes);
    }
}

void writeWholeFile(const fs::path& path, std::string_view text) {
    std::error_code ec;
    fs::create_directories(path.parent_path(), ec);
    AtomicFile f(path);
    f.write(text);
    f.commit();
}

// A new file in a stage folder nobody reads yet: created exclusively and written, without the
// temporary name and rename of an AtomicFile or a sync of its own (the stage is synced once,
// then published whole). A docs/ folder gets one per document.
void writeStagedFile(const fs::path& path, std::span<const std::uint8_t> bytes) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) {
        throw FileWriteError(path.string() + ": cannot create: " + std::strerror(errno));
    }
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            const std::string why = std::strerror(n < 0 ? errno : ENOSPC);
            ::close(fd);
            throw FileWriteError(path.string() + ": cannot write: " + why);
        }
        done += static_cast<std::size_t>(n);
    }
    if (::close(fd) != 0) {
        throw FileWriteError(path.string() + ": cannot write: " + std::strerror(errno));
    }
}

// Removes a folder tree on scope exit unless released.
class TreeGuard {
public:
    explicit TreeGuard(fs::path p) : path_(std::move(p)) {}
    ~TreeGuard() {
        std::error_code ec;
        // A stage still holding what swapInto moved out of the dataset stays for the user.
        const std::optional<Leftover> stage = classifyLeftover(path_);
        if (!path_.empty() && !(stage && !stage->displaced.empty())) {
            fs::remove_all(path_, ec);
        }
    }
    TreeGuard(const TreeGuard&) = delete;
    TreeGuard& operator=(const TreeGuard&) = delete;
    const fs::path& path() const { return path_; }

private:
    fs::path path_;
};

// Stage folders of earlier writes to the same target (`target` is the name the stage is
// named after, empty for a stage inside the dataset) that never finished: the process was
// killed. They are removed, unless another process is still writing there, or one holds a
// collection such a write had moved out of the dataset to replace it (`c-NAME.old`, see
// swapInto): the write is then refused, since the dataset lacks that collection.
void removeStaleStages(const fs::path& dir, const std::string& target) {
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec); !ec && it != fs::directory_iterator();
         it.increment(ec)) {
        std::optional<Leftover> stale = classifyLeftover(it->path());
        if (!stale || stale->kind != LeftoverKind::StageFolder || stale->target != target) {
            continue;
        }
        std::vector<Leftover> one{std::move(*stale)};
        checkLeftoverUse(one);
        const Leftover& stage = one.front();
        if (stage.writerPid != ::getpid() && stage.use == LeftoverUse::InUse) {
            throw ZdsWriteError("another write is in progress in " + stage.path.string() + " (" +
                                stage.useText() + ")");
        }
        if (!stage.displaced.empty()) {
            throw ZdsWriteError(stage.path.string() + " holds " + stage.displaced.front() +
                                ", which an interrupted write moved out of the dataset: move "
                                "it back into place first");
        }
        std::error_code rmEc;
        fs::remove_all(stage.path, rmEc);
    }
}

// Puts `fresh` where `current` is in one atomic step when the system allows it; the old tree
// ends up at `fresh`.
void swapInto(const fs::path& fresh, const fs::path& current) {
    std::error_code ec;
    if (!fs::exists(current, ec)) {
        fs::create_directories(current.parent_path(), ec);
        fs::rename(fresh, current, ec);
        if (ec) {
            throw ZdsWriteError("cannot move " + fresh.string() + " to " + current.string() + ": " +
                                ec.message());
        }
        return;
    }
    if (::renameat2(AT_FDCWD, fresh.c_str(), AT_FDCWD, current.c_str(), RENAME_EXCHANGE) == 0) {
        return;
    }
    // No exchange on this file system: two renames, with a short window between them (a kill
    // there leaves the old tree at `<stage>/c-NAME.old`, which validators report and the next
    // write refuses to delete).
    const fs::path old = fresh.string() + ".old";
    fs::rename(current, old, ec);
    if (ec) {
        throw ZdsWriteError("cannot replace " + current.string() + ": " + ec.message());
    }
    fs::rename(fresh, current, ec);
    if (ec) {
        std::error_code back;
        fs::rename(old, current, back);  // put the old tree back before the stage is removed
        throw ZdsWriteError("cannot replace " + current.string() + ": " + ec.message() +
                            (back ? "; the previous version is in " + old.string() : ""));
    }
    fs::rename(old, fresh, ec);
    if (ec) {
        fs::remove_all(old, ec);  // the new tree is in place: the old one is no longer needed
    }
}

// libzip does not flush what it writes: before the rename makes the archive visible.
void syncFile(const fs::path& file) {
    const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0 || ::fsync(fd) != 0) {
        const int error = errno;
        if (fd >= 0) {
            ::close(fd);
        }
        throw ZdsWriteError("cannot flush " + file.string() + ": " + std::strerror(error));
    }
    ::close(fd);
}

void syncDirectory(const fs::path& dir) {
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        ::fsync(fd);
        ::close(fd);
    }
}

struct Progress {
    const ZdsWriteOptions& options;
    std::uint64_t total = 0;
    std::uint64_t done = 0;
    std::vector<std::string> notes;  // what the write changed beyond what it was asked to

    bool step() {
        ++done;
        if (done % kProgressEvery == 0) {
            options.reportProgress(
                total == 0 ? 1.0 : 0.95 * double(done) / double(total),
                "document " + std::to_string(done) + " of " + std::to_string(total));
            return !cancelled();
        }
        return true;
    }
    bool cancelled() const { return options.cancel != nullptr && options.cancel->cancelled(); }
};

// ---- one document's bytes ----

// A docs/ file (no `_id`) as a JSONL line.
std::string docsFileToLine(std::span<const std::uint8_t> text, const std::string& id) {
    std::string error;
    auto line = docsFileAsLine(text, id, &error);
    if (!line) {
        throw ZdsWriteError("document " + id + " is not a JSON object: " + error);
    }
    return std::move(*line);
}

// A JSONL line as a docs/ file: pretty, without `_id` (the file name carries it).
std::string lineToDocsFile(std::span<const std::uint8_t> line, const std::string& id) {
    auto json = ojson::parse(line.begin(), line.end(), nullptr, false);
    if (json.is_discarded() || !json.is_object()) {
        throw ZdsWriteError("document " + id + " is not a JSON object");
    }
    json.erase("_id");
    return json.dump(2);
}

std::string oneLine(std::string text) {
    std::replace_if(
        text.begin(), text.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
    return text;
}

struct DocBytes {
    std::string id;     // the `_id` it is written under
    std::string skip;   // set when it cannot be written, and why
    ByteView view;      // original bytes, when copied
    std::string owned;  // new or converted bytes
    std::span<const std::uint8_t> bytes() const {
        return owned.empty() && !view.empty()
                   ? view.bytes
                   : std::span(reinterpret_cast<const std::uint8_t*>(owned.data()), owned.size());
    }
};

DocBytes resolveDataLine(const ZdsCollectionWrite& c, std::pair<std::uint64_t, std::uint64_t> range,
                         ZdsLayout want) {
    if (c.source == nullptr || !c.source->data ||
        !rangeFits(range.first, range.second, c.source->data->size())) {
        throw ZdsWriteError("collection " + c.name + ": line at " + std::to_string(range.first) +
                            " is not in the source data");
    }
    DocBytes out;
    ByteView v = c.source->data->view(range.first, range.second);
    if (!v.empty() && v.bytes.back() == '\n') {
        v.bytes = v.bytes.first(v.size() - 1);
    }
    std::size_t body = v.size();
    while (body > 0 && v.bytes[body - 1] == '\r') {
        --body;
    }
    out.id = jsonLineId(v.bytes.first(body)).value_or("");
    if (want == ZdsLayout::Jsonl) {
        out.view = std::move(v);
    } else if (out.id.empty()) {
        out.skip = "the line at offset " + std::to_string(range.first) +
                   " has no string _id; it is left out";
    } else {
        out.owned = lineToDocsFile(v.bytes, out.id);
    }
    return out;
}

// docs/<id>.json of a file-per-document source.
DocBytes resolveDocsFile(const ZdsCollectionWrite& c, const std::string& id, ZdsLayout want) {
    DocBytes out;
    out.id = id;
    const ByteSourcePtr src = c.source != nullptr && safeDocFileId(id)
                                  ? c.source->storage().open(c.source->path("docs/" + id + ".json"))
                                  : nullptr;
    if (!src) {
        out.skip = "docs/" + id + ".json cannot be read; it is left out";
        return out;
    }
    ByteView v = src->view(0, src->size());
    if (want == ZdsLayout::Docs) {
        out.view = std::move(v);
    } else {
        out.owned = docsFileToLine(v.bytes, out.id);
    }
    return out;
}

// A live document of the source collection, written under the key the live set lists it by,
// so a write never changes which ids a reader finds (even where a damaged index lists a line
// under another key than the `_id` in it). `skip` says why it is left out.
DocBytes resolveOriginal(const ZdsCollectionWrite& c, std::uint64_t index, ZdsLayout want) {
    if (c.source == nullptr || index >= c.source->documentCount()) {
        throw ZdsWriteError("collection " + c.name + ": original document " +
                            std::to_string(index) + " does not exist");
    }
    const ZdsDocument doc = c.source->document(index);
    DocBytes out;
    out.id = doc.id;
    if (!doc.region.valid()) {
        out.skip = "document '" + doc.id + "' cannot be read (" +
                   (c.source->mode() == ZdsStorageMode::Jsonl
                        ? std::string("no line of data.jsonl carries it")
                        : "docs/" + doc.id + ".json does not exist") +
                   "); it is left out";
        return out;
    }
    ByteView v = doc.region.source->view(doc.region.offset, doc.region.length);
    const bool fromJsonl = c.source->mode() == ZdsStorageMode::Jsonl;
    if (fromJsonl && !v.empty() && v.bytes.back() == '\n') {
        v.bytes = v.bytes.first(v.size() - 1);
    }
    if (fromJsonl == (want == ZdsLayout::Jsonl)) {
        out.view = std::move(v);  // same layout: the bytes as they are
    } else if (want == ZdsLayout::Jsonl) {
        out.owned = docsFileToLine(v.bytes, out.id);
    } else {
        out.owned = lineToDocsFile(v.bytes, out.id);
    }
    return out;
}

// New JSON text that passed (or failed) checkNewDocument.
DocBytes resolveText(const ZdsCollectionWrite& c, std::size_t n, const NewDocCheck& check,
                     ZdsLayout want) {
    if (!check.error.empty()) {
        throw ZdsWriteError(check.error);
    }
    const std::string& json = c.documents[n].json;
    DocBytes out;
    out.id = check.id;
    out.owned = want == ZdsLayout::Jsonl
                    ? oneLine(json)
                    : lineToDocsFile(std::span(reinterpret_cast<const std::uint8_t*>(json.data()),
                                               json.size()),
                                     out.id);
    return out;
}

DocBytes resolveDoc(const ZdsCollectionWrite& c, std::size_t n, ZdsLayout want) {
    const ZdsWriteDoc& d = c.documents[n];
    if (d.dataRange) {
        return resolveDataLine(c, *d.dataRange, want);
    }
    if (d.docsFileId) {
        return resolveDocsFile(c, *d.docsFileId, want);
    }
    if (!d.originalIndex) {
        return resolveText(c, n, checkNewDocument(c, n), want);
    }
    return resolveOriginal(c, *d.originalIndex, want);
}

// ---- staging one collection's generated files ----

struct StagedCollection {
    std::string name;
    std::string dirRel;                       // in the output: "collections/<name>" or ""
    fs::path dir;                             // staged generated files, same relative layout
    std::vector<std::string> generated;       // paths relative to the collection
    std::set<std::string> replacedPrefix;     // relative paths (or "docs/") the write owns
    const ZdsCollection* previous = nullptr;  // same-named collection of the original
    std::uint64_t count = 0;
    std::optional<std::size_t> schemaCount;  // file per document: distinct shapes
    // Files written without a sync each (docs/): one sync of the file system makes them
    // durable before the stage is published.
    bool deferredWrites = false;
};

bool ownedByWrite(const StagedCollection& s, const std::string& rel) {
    for (const std::string& p : s.replacedPrefix) {
        if (p.back() == '/' ? rel.starts_with(p) : rel == p) {
            return true;
        }
    }
    return false;
}

std::string manifestText(const StagedCollection& s, const ZdsWriteOptions& options) {
    ojson m = ojson::object();
    if (s.previous != nullptr && !options.leftOut(s.previous->path("meta/manifest.json"))) {
        if (auto old = readJsonObject(s.previous->manifest)) {
            m = std::move(*old);
        }
    }
    if (!m.contains("version")) {
        m["version"] = "0.1.0";
    }
    m["collection"] = s.name;
    if (!m.contains("strict")) {
        m["strict"] = false;
    }
    if (!m.contains("created_at")) {
        m["created_at"] = utcNow();
    }
    m["doc_count"] = s.count;
    if (s.schemaCount) {
        m["schema_count"] = *s.schemaCount;
    }
    return m.dump(2);
}

// Whether a resolved document is written: a copied one that cannot be read is left out, with
// a note (`skip` says why); ids must be unique (the editor checks new ones first; live keys are
// unique).
bool acceptDoc(const ZdsCollectionWrite& c, const ZdsWriteDoc& d, const std::string& id,
               const std::string& skip, std::unordered_set<std::string>& written,
               Progress& progress) {
    if (!skip.empty()) {
        progress.notes.push_back(c.name + ": " + skip);
        return false;
    }
    if (!id.empty() && !written.insert(id).second) {
        if (d.originalIndex || d.dataRange || d.docsFileId) {
            progress.notes.push_back(c.name + ": another document with id '" + id +
                                     "' is left out; the first one is kept");
            return false;
        }
        throw ZdsWriteError("collection " + c.name + ": id " + id + " appears twice");
    }
    return true;
}

bool acceptDoc(const ZdsCollectionWrite& c, const ZdsWriteDoc& d, const DocBytes& doc,
               std::unordered_set<std::string>& written, Progress& progress) {
    return acceptDoc(c, d, doc.id, doc.skip, written, progress);
}

// Appends to an AtomicFile in large writes rather than one per document.
class BufferedFile {
public:
    explicit BufferedFile(AtomicFile& file) : file_(file) { buffer_.reserve(kWriteBuffer); }
    void append(std::span<const std::uint8_t> bytes) {
        append(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
    }
    void append(std::string_view text) {
        if (buffer_.size() + text.size() > kWriteBuffer) {
            flush();
        }
        if (text.size() >= kWriteBuffer) {
            file_.write(text);
        } else {
            buffer_.append(text);
        }
    }
    void flush() {
        file_.write(buffer_);
        buffer_.clear();
    }

private:
    AtomicFile& file_;
    std::string buffer_;
};

// data.jsonl and its ZDX entries, one document at a time.
class JsonlStage {
public:
    JsonlStage(const ZdsCollectionWrite& c, const fs::path& file)
        : c_(c), file_(file), out_(file_), index_(encodeZdxHeader(0)) {
        written_.reserve(c.documents.size());
    }

    // False (after a note) when the document is left out.
    bool add(const ZdsWriteDoc& d, const std::string& id, const std::string& skip,
             std::string_view bytes, Progress& progress) {
        if (d.listed && !acceptDoc(c_, d, id, skip, written_, progress)) {
            return false;
        }
        if (bytes.find('\n') != std::string_view::npos) {
            throw ZdsWriteError("collection " + c_.name + ": document " + id +
                                " spans several lines");
        }
        out_.append(bytes);
        out_.append("\n");
        const std::uint64_t length = bytes.size() + 1;
        if (d.listed && !id.empty()) {
            try {
                appendZdxEntry(index_, id, offset_, length);
            } catch (const std::length_error& e) {
                throw ZdsWriteError("collection " + c_.name + ": " + e.what());
            }
            ++indexed_;
        }
        offset_ += length;
        return true;
    }

    // A run of the source's lines copied as they are, without index entries.
    void addLines(const ByteSource& data, std::uint64_t offset, std::uint64_t length) {
        std::uint8_t last = '\n';
        for (std::uint64_t at = 0; at < length;) {
            const ByteView v = data.view(offset + at, std::min(kCopyChunk, length - at));
            if (v.empty()) {
                throw ZdsWriteError("collection " + c_.name + ": cannot read data.jsonl at " +
                                    std::to_string(offset + at));
            }
            out_.append(v.bytes);
            last = v.bytes.back();
            at += v.size();
        }
        offset_ += length;
        if (last != '\n') {
            out_.append("\n");
            ++offset_;
        }
    }

    // Commits data.jsonl; returns index.bin's bytes.
    std::string finish() {
        out_.flush();
        file_.commit();
        const std::string header = encodeZdxHeader(indexed_);
        std::copy(header.begin(), header.end(), index_.begin());
        return std::move(index_);
    }
    std::uint64_t indexed() const { return indexed_; }

private:
    const ZdsCollectionWrite& c_;
    AtomicFile file_;
    BufferedFile out_;
    std::string index_;
    std::uint64_t offset_ = 0;
    std::uint64_t indexed_ = 0;
    std::unordered_set<std::string> written_;
};

void addHistory(const ZdsCollectionWrite& c, std::pair<std::uint64_t, std::uint64_t> range,
                JsonlStage& stage) {
    if (c.source == nullptr || !c.source->data ||
        !rangeFits(range.first, range.second, c.source->data->size())) {
        throw ZdsWriteError("collection " + c.name + ": lines at " + std::to_string(range.first) +
                            " are not in the source data");
    }
    stage.addLines(*c.source->data, range.first, range.second);
}

void stageJsonl(const ZdsCollectionWrite& c, StagedCollection& s, Progress& progress) {
    JsonlStage stage(c, s.dir / "meta" / "data.jsonl");
    NewDocChecks checks(c, progress.options.cancel);
    for (std::size_t n = 0; n < c.documents.size(); ++n) {
        const ZdsWriteDoc& d = c.documents[n];
        const NewDocCheck* check = checks.next(n);
        if (check == nullptr) {
            return;  // cancelled
        }
        if (d.severalLines) {
            addHistory(c, *d.dataRange, stage);
        } else if (isNewText(d)) {
            if (!check->error.empty()) {
                throw ZdsWriteError(check->error);
            }
            std::string joined;
            std::string_view text = d.json;
            if (check->lineBreak) {
                joined = oneLine(d.json);
                text = joined;
            }
            stage.add(d, check->id, {}, text, progress);
        } else {
            const DocBytes doc = resolveDoc(c, n, ZdsLayout::Jsonl);
            const auto bytes = doc.bytes();
            stage.add(d, doc.id, doc.skip,
                      std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()),
                      progress);
        }
        if (!progress.step()) {
            return;
        }
    }
    const std::string index = stage.finish();
    s.count = stage.indexed();
    writeWholeFile(s.dir / "meta" / "index.bin", index);
    s.generated = {"meta/data.jsonl", "meta/index.bin", "meta/manifest.json"};
    s.replacedPrefix = {"meta/data.jsonl", "meta/index.bin", "meta/manifest.json"};
    if (s.previous != nullptr && s.previous->mode() == ZdsStorageMode::Docs) {
        // A conversion: the documents and their metadata no longer live in docs/.
        s.replacedPrefix.insert({"docs/", "meta/order.ids", "meta/doc_index.jsonl",
                                 "meta/schemas.jsonl", "meta/journal.log"});
    }
}

std::string previousFile(const ZdsCollection* c, const std::string& rel,
                         const ZdsWriteOptions& options) {
    if (c == nullptr || c->mode() != ZdsStorageMode::Docs || options.leftOut(c->path(rel))) {
        return {};
    }
    const ByteSourcePtr src = c->storage().open(c->path(rel));
    if (!src || src->size() > kMaxMetadataBytes) {
        return {};
    }
    const ByteView v = src->view(0, src->size());
    return std::string(reinterpret_cast<const char*>(v.data()), v.size());
}

void stageDocs(const ZdsCollectionWrite& c, StagedCollection& s, Progress& progress) {
    if (std::any_of(c.documents.begin(), c.documents.end(),
                    [](const ZdsWriteDoc& d) { return !d.listed; })) {
        throw ZdsWriteError("collection " + c.name +
                            ": a line without an index entry has no place in docs/");
    }
    std::unordered_set<std::string> written;
    ZdsDocsMetaBuilder meta(previousFile(s.previous, "meta/doc_index.jsonl", progress.options),
                            previousFile(s.previous, "meta/journal.log", progress.options));
    std::error_code ec;
    fs::create_directories(s.dir / "docs", ec);  // an empty collection still has docs/
    for (std::size_t n = 0; n < c.documents.size(); ++n) {
        const DocBytes doc = resolveDoc(c, n, ZdsLayout::Docs);
        if (!acceptDoc(c, c.documents[n], doc, written, progress)) {
            if (!progress.step()) {
                return;
            }
            continue;
        }
        if (!safeDocFileId(doc.id)) {
            throw ZdsWriteError("collection " + c.name + ": id \"" + doc.id +
                                "\" cannot be a file name in docs/");
        }
        // No sync per file (a hundred thousand of them took minutes): one for the whole stage
        // before it is published.
        const std::string rel = "docs/" + doc.id + ".json";
        writeStagedFile(s.dir / rel, doc.bytes());
        s.deferredWrites = true;
        meta.add(doc.id, doc.bytes());
        s.generated.push_back(rel);
        if (!progress.step()) {
            return;
        }
    }
    writeWholeFile(s.dir / "meta" / "order.ids", meta.orderIds());
    writeWholeFile(s.dir / "meta" / "doc_index.jsonl", meta.docIndex());
    writeWholeFile(s.dir / "meta" / "schemas.jsonl", meta.schemas());
    writeWholeFile(s.dir / "meta" / "journal.log", meta.journal());
    s.count = written.size();
    s.schemaCount = meta.schemaCount();
    for (const char* rel : {"meta/order.ids", "meta/doc_index.jsonl", "meta/schemas.jsonl",
                            "meta/journal.log", "meta/manifest.json"}) {
        s.generated.push_back(rel);
    }
    // data.jsonl would hide docs/ from every reader, so it goes.
    s.replacedPrefix = {"docs/",
                        "meta/order.ids",
                        "meta/doc_index.jsonl",
                        "meta/schemas.jsonl",
                        "meta/journal.log",
                        "meta/manifest.json",
                        "meta/data.jsonl",
                        "meta/index.bin"};
}

const ZdsCollection* findCollection(const ZdsDataset* ds, const std::string& name) {
    if (ds == nullptr) {
        return nullptr;
    }
    for (const auto& c : ds->collections) {
        if (c->name() == name) {
            return c.get();
        }
    }
    return nullptr;
}

std::string zdsJsonText(const ZdsDataset* original, const std::vector<StagedCollection>& staged,
                        const fs::path& target, const ZdsWriteOptions& options) {
    ojson z = ojson::object();
    if (original != nullptr && !options.leftOut("zds.json")) {
        if (auto old = readJsonObject(original->zdsJson)) {
            z = std::move(*old);
        }
    }
    if (!z.contains("version")) {
        z["version"] = "1.0";
    }
    if (!z.contains("name")) {
        z["name"] = target.stem().string();
    }
    if (!z.contains("created")) {
        z["created"] = utcNow();
    }
    z["modified"] = utcNow();
    ojson collections = ojson::object();
    if (original != nullptr) {
        for (const auto& c : original->collections) {
            if (!options.leftOut(c->dir() + "/")) {  // a collection left out whole is gone
                collections[c->name()] = {{"count", c->documentCount()}};
            }
        }
    }
    for (const StagedCollection& s : staged) {
        collections[s.name] = {{"count", s.count}};
    }
    if (z.contains("collections") && z["collections"].is_object()) {
        // Keep other per-collection fields; drop entries for collections that do not exist.
        ojson merged = ojson::object();
        for (auto& [name, value] : collections.items()) {
            ojson entry = z["collections"].contains(name) && z["collections"][name].is_object()
                              ? z["collections"][name]
                              : ojson::object();
            entry["count"] = value["count"];
            merged[name] = entry;
        }
        collections = std::move(merged);
    }
    z["collections"] = std::move(collections);
    return z.dump(2);
}

// ---- folder target ----

void copyStorageFile(const ZdsStorage& storage, const std::string& rel, const fs::path& to,
                     bool tryLink) {
    std::error_code ec;
    fs::create_directories(to.parent_path(), ec);
    if (tryLink && !storage.isArchive()) {
        fs::create_hard_link(storage.displayPath(rel), to, ec);
        if (!ec) {
            return;
        }
    }
    const ByteSourcePtr src = storage.open(rel);
    if (!src) {
        throw ZdsWriteError("cannot read " + storage.displayPath(rel));
    }
    AtomicFile out(to);
    copySource(*src, out);
    out.commit();
}

ZdsWriteResult writeFolder(const ZdsDataset* original, std::vector<StagedCollection>& staged,
                           const fs::path& stageRoot, const fs::path& target, bool single,
                           bool inPlace, Progress& progress) {
    std::error_code ec;
    fs::create_directories(target, ec);
    if (original != nullptr && !inPlace) {
        std::vector<std::string> all;
        listTree(original->storage(), "", all);
        for (const std::string& rel : all) {
            const bool inWritten = std::any_of(staged.begin(), staged.end(), [&](auto& s) {
                return !s.dirRel.empty() && rel.starts_with(s.dirRel + "/");
            });
            if (inWritten || (rel == "zds.json" && !staged.empty()) || !safeRelPath(rel) ||
                single || rel.find(kStagePrefix) != std::string::npos ||
                progress.options.leftOut(rel)) {
                continue;
            }
            copyStorageFile(original->storage(), rel, target / rel, false);
        }
    }
    if (progress.cancelled()) {
        return {true, 0, {}};
    }
    std::uint64_t written = 0;
    for (StagedCollection& s : staged) {
        if (s.previous != nullptr) {  // the rest of the old collection comes along
            std::vector<std::string> files;
            listTree(original->storage(), s.previous->dir(), files);
            for (const std::string& rel : files) {
                const std::string inColl =
                    s.previous->dir().empty() ? rel : rel.substr(s.previous->dir().size() + 1);
                if (!ownedByWrite(s, inColl) && safeRelPath(inColl) &&
                    inColl.find(kStagePrefix) == std::string::npos &&
                    !progress.options.leftOut(rel)) {
                    copyStorageFile(original->storage(), rel, s.dir / inColl, inPlace);
                }
            }
        }
        if (s.deferredWrites) {
            syncFileSystemOf(s.dir);
        }
        syncDirectory(s.dir);
        const fs::path dest = s.dirRel.empty() ? target : target / s.dirRel;
        swapInto(s.dir, dest);
        syncDirectory(dest.parent_path());
        written += s.count;
    }
    if (!single && !staged.empty()) {
        writeWholeFile(target / "zds.json",
                       zdsJsonText(original, staged, target, progress.options));
    }
    (void)stageRoot;
    return {false, written, {}};
}

// ---- archive target ----

struct ZipHandle {
    const ZipLibrary& libzip;
    zip_t* z = nullptr;
    ~ZipHandle() {
        if (z != nullptr) {
            libzip.discard(z);
        }
    }
};

int zipCancelled(zip_t*, void* ud) {
    return static_cast<Progress*>(ud)->cancelled() ? 1 : 0;
}

void zipProgress(zip_t*, double fraction, void* ud) {
    auto* p = static_cast<Progress*>(ud);
    p->options.reportProgress(0.95 + 0.05 * fraction, "writing archive");
}

void addToZip(const ZipLibrary& libzip, zip_t* z, const std::string& name, zip_source_t* src,
              bool storeOrDeflate, bool deflate) {
    if (src == nullptr) {
        throw ZdsWriteError("cannot add " + name + ": " + libzip.strerror(z));
    }
    const zip_int64_t idx =
        libzip.fileAdd(z, name.c_str(), src, ZIP_FL_ENC_UTF_8 | ZIP_FL_OVERWRITE);
    if (idx < 0) {
        libzip.sourceFree(src);
        throw ZdsWriteError("cannot add " + name + ": " + libzip.strerror(z));
    }
    if (storeOrDeflate) {
        libzip.setFileCompression(z, static_cast<zip_uint64_t>(idx),
                                  deflate ? ZIP_CM_DEFLATE : ZIP_CM_STORE, 0);
    }
}

// Folders of `storage` under `rel` (relative paths, without the trailing '/').
void listDirectories(const ZdsStorage& storage, const std::string& rel,
                     std::vector<std::string>& out) {
    for (const std::string& d : storage.directories(rel)) {
        const std::string path = joinRel(rel, d);
        if (d.find(kStagePrefix) != std::string::npos || !safeRelPath(path)) {
            continue;
        }
        out.push_back(path);
        listDirectories(storage, path, out);
    }
}

// Every folder of a member name: "a/b/c" gives "a/" and "a/b/".
void addParentFolders(const std::string& name, std::set<std::string>& folders) {
    for (auto slash = name.find('/'); slash != std::string::npos;
         slash = name.find('/', slash + 1)) {
        folders.insert(name.substr(0, slash + 1));
    }
}

// A member to add: copied from the original archive, or from a file on disk.
struct PendingMember {
    std::string name;
    std::optional<zip_uint64_t> archiveIndex;
    std::string path;
};

ZdsWriteResult writeArchive(const ZdsDataset* original, std::vector<StagedCollection>& staged,
                            const fs::path& stageRoot, const fs::path& target, Progress& progress) {
    const ZipLibrary& libzip = zipLibrary();
    int err = 0;
    ZipHandle src{libzip};
    if (original != nullptr && original->archive()) {
        src.z = libzip.open(original->archive()->path().c_str(), ZIP_RDONLY, &err);
        if (src.z == nullptr) {
            throw ZdsWriteError("cannot reopen " + original->archive()->path().string());
        }
    }
    // Built inside the stage folder (libzip writes `archive.zds.XXXXXX` next to it until
    // zip_close), so a write cut short leaves nothing beside the target but the stage, which the
    // next write removes and validators report; then renamed over the target.
    const fs::path building = stageRoot / "archive.zds";
    ZipHandle out{libzip};
    out.z = libzip.open(building.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &err);
    if (out.z == nullptr) {
        zip_error_t e;
        libzip.errorInitWithCode(&e, err);
        const std::string why = libzip.errorStrerror(&e);
        libzip.errorFini(&e);
        throw ZdsWriteError("cannot create " + target.string() + ": " + why);
    }
    const bool deflate = progress.options.deflate;
    // A pack (nothing rewritten) copies the files as they are, zds.json (if any) included.
    const bool keepZdsJson = staged.empty();
    std::vector<PendingMember> members;
    // Folders get entries of their own, as the reference writes them: an empty collection or
    // an empty dataset survives a round trip through the archive.
    std::set<std::string> folders{"collections/"};
    // Where a path of the original goes in the archive ("" when the write replaces it).
    auto outputName = [&](const std::string& rel) -> std::string {
        const StagedCollection* owner = nullptr;
        for (const StagedCollection& s : staged) {
            if (s.previous != nullptr &&
                (s.previous->dir().empty() || rel.starts_with(s.previous->dir() + "/"))) {
                owner = &s;
            }
        }
        if (owner != nullptr) {
            const std::string inColl = owner->previous->dir().empty()
                                           ? rel
                                           : rel.substr(owner->previous->dir().size() + 1);
            return ownedByWrite(*owner, inColl) ? std::string() : joinRel(owner->dirRel, inColl);
        }
        if (original->singleCollection) {
            return "collections/" + original->collections.at(0)->name() + "/" + rel;
        }
        return rel;
    };
    // Everything of the original that the write does not replace, copied as stored.
    if (original != nullptr) {
        std::vector<std::string> all;
        listTree(original->storage(), "", all);
        for (const std::string& rel : all) {
            const std::string outName = outputName(rel);
            if (outName.empty() || (rel == "zds.json" && !keepZdsJson) || !safeRelPath(rel) ||
                rel.find(kStagePrefix) != rel.npos || progress.options.leftOut(rel)) {
                continue;
            }
            PendingMember m{outName, std::nullopt, {}};
            if (src.z != nullptr) {
                const ZipMember* zm = original->archive()->find(rel);
                if (zm == nullptr) {
                    throw ZdsWriteError("cannot add " + outName + ": not in the archive");
                }
                m.archiveIndex = zm->index;
            } else {
                m.path = original->storage().displayPath(rel);
            }
            members.push_back(std::move(m));
        }
        std::vector<std::string> dirs;
        listDirectories(original->storage(), "", dirs);
        if (original->singleCollection) {
            dirs.push_back("");
        }
        for (const std::string& rel : dirs) {
            const std::string outName =
                original->singleCollection
                    ? joinRel("collections/" + original->collections.at(0)->name(), rel)
                    : rel;
            const bool replaced = std::any_of(staged.begin(), staged.end(), [&](auto& s) {
                return s.previous != nullptr && !s.dirRel.empty() &&
                       (outName == s.dirRel || outName.starts_with(s.dirRel + "/"));
            });
            if (!replaced && !progress.options.leftOut(rel + "/")) {
                folders.insert(outName + "/");
            }
        }
    }
    for (const StagedCollection& s : staged) {
        std::vector<std::string> dirs;
        const auto stagedTree = makeFolderStorage(s.dir);
        listDirectories(*stagedTree, "", dirs);
        folders.insert(s.dirRel + "/");
        for (const std::string& d : dirs) {
            folders.insert(joinRel(s.dirRel, d) + "/");
        }
        for (const std::string& rel : s.generated) {
            members.push_back({joinRel(s.dirRel, rel), std::nullopt, (s.dir / rel).string()});
        }
    }
    if (!keepZdsJson) {
        const fs::path zdsJson = stageRoot / "zds.json";
        writeWholeFile(zdsJson, zdsJsonText(original, staged, target, progress.options));
        members.push_back({"zds.json", std::nullopt, zdsJson.string()});
    }
    for (const PendingMember& m : members) {
        addParentFolders(m.name, folders);
    }
    for (const std::string& folder : folders) {
        if (folder != "/" && libzip.dirAdd(out.z, folder.c_str(), ZIP_FL_ENC_UTF_8) < 0 &&
            libzip.errorCodeZip(libzip.getError(out.z)) != ZIP_ER_EXISTS) {
            throw ZdsWriteError("cannot add " + folder + ": " + libzip.strerror(out.z));
        }
    }
    for (const PendingMember& m : members) {
        if (m.archiveIndex) {
            addToZip(libzip, out.z, m.name,
                     libzip.sourceZip(out.z, src.z, *m.archiveIndex, 0, 0, -1), false, false);
        } else {
            addToZip(libzip, out.z, m.name, libzip.sourceFile(out.z, m.path.c_str(), 0, -1), true,
                     deflate);
        }
    }
    std::uint64_t written = 0;
    for (const StagedCollection& s : staged) {
        written += s.count;
    }

    libzip.registerProgressCallback(out.z, 0.01, zipProgress, nullptr, &progress);
    libzip.registerCancelCallback(out.z, zipCancelled, nullptr, &progress);
    if (libzip.close(out.z) != 0) {
        const bool cancelled = progress.cancelled();
        const std::string why = libzip.strerror(out.z);
        if (cancelled) {
            return {true, 0, {}};
        }
        throw ZdsWriteError("cannot write " + target.string() + ": " + why);
    }
    out.z = nullptr;
    if (!fs::exists(building)) {  // libzip writes no file for an archive without members
        throw ZdsWriteError("cannot write " + target.string() + ": nothing to put in it");
    }
    struct stat existing {};
    if (::stat(target.c_str(), &existing) == 0) {
        ::chmod(building.c_str(), existing.st_mode & 07777);  // a replaced archive keeps its mode
    }
    syncFile(building);
    std::error_code ec;
    fs::rename(building, target, ec);
    if (ec) {
        throw ZdsWriteError("cannot replace " + target.string() + ": " + ec.message());
    }
    syncDirectory(target.parent_path().empty() ? fs::path(".") : target.parent_path());
    return {false, written, {}};
}

}  // namespace

bool zdsTargetIsArchive(const fs::path& target) {
    std::error_code ec;
    if (fs::is_regular_file(target, ec)) {
        return true;
    }
    if (fs::is_directory(target, ec)) {
        return false;
    }
    const std::string ext = target.extension().string();
    return ext == ".zds" || ext == ".zip";
}

ZdsCollectionWrite unchangedCollection(const ZdsCollection& c) {
    ZdsCollectionWrite w;
    w.name = c.name();
    w.source = &c;
    w.layout = c.mode() == ZdsStorageMode::Docs ? ZdsLayout::Docs : ZdsLayout::Jsonl;
    const std::uint64_t n = c.documentCount();
    w.documents.reserve(static_cast<std::size_t>(n));
    for (std::uint64_t i = 0; i < n; ++i) {
        w.documents.push_back(ZdsWriteDoc::original(i));
    }
    return w;
}

namespace {

// Where a document of a history-keeping write goes: an original on its own line, an edit of a
// live document just after that document's line.
struct HistoryPlace {
    std::uint64_t start = 0, end = 0;  // the line
    bool afterLine = false;
    std::size_t document = 0;  // in the write
};

std::optional<HistoryPlace> historyPlace(const ZdsWriteDoc& d, std::size_t n,
                                         const ZdsCollection& c, const ZdsLiveSet& live) {
    std::optional<std::uint64_t> i = d.originalIndex;
    if (isNewText(d)) {
        const auto id = jsonLineId(
            std::span(reinterpret_cast<const std::uint8_t*>(d.json.data()), d.json.size()));
        i = id ? live.find(*id) : std::nullopt;
    } else if (!d.originalIndex) {
        return std::nullopt;
    }
    const Region line = i && *i < live.size() ? live.region(*i) : Region{};
    if (!line.valid() || line.source != c.data.get()) {
        return std::nullopt;
    }
    return HistoryPlace{line.offset, line.offset + line.length, !d.originalIndex, n};
}

}  // namespace

ZdsCollectionWrite keepingHistory(ZdsCollectionWrite write) {
    const ZdsCollection* c = write.source;
    if (write.layout != ZdsLayout::Jsonl || c == nullptr || c->mode() != ZdsStorageMode::Jsonl ||
        !c->data) {
        return write;
    }
    const auto live = c->liveSet();
    std::vector<HistoryPlace> placed;
    std::vector<ZdsWriteDoc> appended;
    for (std::size_t n = 0; n < write.documents.size(); ++n) {
        if (const auto place = historyPlace(write.documents[n], n, *c, *live)) {
            placed.push_back(*place);
        } else {
            appended.push_back(std::move(write.documents[n]));
        }
    }
    std::stable_sort(placed.begin(), placed.end(), [](const auto& a, const auto& b) {
        return a.start != b.start ? a.start < b.start : a.afterLine < b.afterLine;
    });
    std::vector<ZdsWriteDoc> out;
    out.reserve(2 * placed.size() + appended.size() + 1);
    std::uint64_t at = 0;  // where the old lines not yet written start
    for (const HistoryPlace& p : placed) {
        const std::uint64_t historyEnd = p.afterLine ? p.end : p.start;
        if (historyEnd > at) {
            out.push_back(ZdsWriteDoc::unlistedLines(at, historyEnd - at));
        }
        out.push_back(std::move(write.documents[p.document]));
        at = std::max(at, p.end);
    }
    if (at < c->data->size()) {
        out.push_back(ZdsWriteDoc::unlistedLines(at, c->data->size() - at));
    }
    std::move(appended.begin(), appended.end(), std::back_inserter(out));
    write.documents = std::move(out);
    return write;
}

ZdsWriteResult writeZdsDataset(const ZdsDataset* original,
                               const std::vector<ZdsCollectionWrite>& collections,
                               const fs::path& target, const ZdsWriteOptions& options) {
    const bool archive = zdsTargetIsArchive(target);
    std::error_code ec;
    const bool inPlace = original != nullptr && !original->storage().isArchive() && !archive &&
                         fs::equivalent(original->path(), target, ec);
    const bool single =
        !archive && original != nullptr && original->singleCollection && collections.size() <= 1;
    if (single && !inPlace && collections.empty()) {
        throw ZdsWriteError("nothing to write");
    }
    std::set<std::string> names;
    for (const ZdsCollectionWrite& c : collections) {
        if (c.name.empty() || !safeDocFileId(c.name) || c.name.front() == '.' ||
            !names.insert(c.name).second) {
            throw ZdsWriteError("bad or repeated collection name \"" + c.name + "\"");
        }
    }

    // Stage next to where the result goes: same file system, so the final renames are atomic.
    const fs::path absTarget = fs::absolute(target);
    const fs::path stageParent = archive || single ? absTarget.parent_path() : absTarget;
    fs::create_directories(stageParent, ec);
    // `.NAME.strata-stage-PID` beside an archive or a single collection, `.strata-stage-PID`
    // inside a dataset: names validators recognise (save_leftovers.h).
    const std::string stageTarget = single || archive ? absTarget.filename().string() : "";
    removeStaleStages(stageParent, stageTarget);
    const std::string stageName = "." + (stageTarget.empty() ? "" : stageTarget + ".") +
                                  std::string(kStagePrefix) + std::to_string(::getpid());
    const fs::path stageRoot = stageParent / stageName;
    TreeGuard guard(stageRoot);
    fs::create_directories(stageRoot, ec);
    if (ec) {
        throw ZdsWriteError("cannot create " + stageRoot.string() + ": " + ec.message());
    }

    Progress progress{options, 0, 0, {}};
    for (const auto& c : collections) {
        progress.total += c.documents.size();
    }
    std::vector<StagedCollection> staged;
    for (const ZdsCollectionWrite& c : collections) {
        StagedCollection s;
        s.name = c.name;
        s.dirRel = single ? "" : "collections/" + c.name;
        s.dir = stageRoot / ("c-" + c.name);
        s.previous = findCollection(original, c.name);
        fs::create_directories(s.dir / "meta", ec);
        try {
            if (c.layout == ZdsLayout::Jsonl) {
                stageJsonl(c, s, progress);
            } else {
                stageDocs(c, s, progress);
            }
        } catch (const FileWriteError& e) {
            throw ZdsWriteError(e.what());
        }
        if (progress.cancelled()) {
            return {true, 0, {}};
        }
        writeWholeFile(s.dir / "meta" / "manifest.json", manifestText(s, options));
        staged.push_back(std::move(s));
    }
    try {
        ZdsWriteResult result =
            archive
                ? writeArchive(original, staged, stageRoot, absTarget, progress)
                : writeFolder(original, staged, stageRoot, absTarget, single, inPlace, progress);
        if (!result.cancelled) {
            options.reportProgress(1.0, "saved " + std::to_string(result.documents) + " documents");
        }
        result.notes = std::move(progress.notes);
        return result;
    } catch (const FileWriteError& e) {
        throw ZdsWriteError(e.what());
    }
}

}  // namespace strata::zds
