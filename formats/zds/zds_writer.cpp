#include "zds_writer.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <ctime>
#include <iterator>
#include <nlohmann/json.hpp>
#include <set>
#include <span>
#include <system_error>

#include "formats/common/atomic_file.h"
#include "formats/common/save_leftovers.h"
#include "zds_json_line.h"
#include "zds_live_set.h"
#include "zds_write_checks.h"
#include "zds_writer_parts.h"

namespace strata::zds {

namespace fs = std::filesystem;
using ojson = nlohmann::ordered_json;

namespace {

std::string utcNow() {
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
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

}  // namespace

std::string joinRel(const std::string& a, const std::string& b) {
    return a.empty() ? b : a + "/" + b;
}

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

void writeWholeFile(const fs::path& path, std::string_view text) {
    std::error_code ec;
    fs::create_directories(path.parent_path(), ec);
    AtomicFile f(path);
    f.write(text);
    f.commit();
}

void syncDirectory(const fs::path& dir) {
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        ::fsync(fd);
        ::close(fd);
    }
}

bool ownedByWrite(const StagedCollection& s, const std::string& rel) {
    for (const std::string& p : s.replacedPrefix) {
        if (p.back() == '/' ? rel.starts_with(p) : rel == p) {
            return true;
        }
    }
    return false;
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
