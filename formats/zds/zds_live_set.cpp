#include "zds_live_set.h"

#include <algorithm>
#include <cstring>
#include <nlohmann/json.hpp>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "formats/common/bounds.h"
#include "formats/common/counted.h"

namespace strata::zds {

namespace {

constexpr std::uint64_t kMaxDocIndexBytes = 256ull << 20;

std::span<const std::uint8_t> lineBody(std::span<const std::uint8_t> line) {
    std::size_t n = line.size();
    while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r')) {
        --n;
    }
    return line.first(n);
}

bool isBlank(std::span<const std::uint8_t> s) {
    return std::all_of(s.begin(), s.end(),
                       [](std::uint8_t c) { return c == ' ' || c == '\t' || c == '\r'; });
}

// Where an index entry lands in data.jsonl: the line starting at its offset and that line's
// `_id`. Nothing when the offset is not the start of a non-blank line.
struct Landing {
    std::uint64_t start = 0;
    std::uint64_t end = 0;
    std::optional<std::string> id;
};

std::optional<Landing> landOn(const ByteSource& data, std::uint64_t offset) {
    if (offset >= data.size()) {
        return std::nullopt;
    }
    if (offset > 0) {
        std::uint8_t before = 0;
        if (data.read(offset - 1, std::span(&before, 1)) != 1 || before != '\n') {
            return std::nullopt;
        }
    }
    Landing l;
    l.start = offset;
    l.end = jsonLineEnd(data, offset);
    const ByteView v = data.view(l.start, l.end - l.start);
    const auto body = lineBody(v.bytes);
    if (body.empty() || isBlank(body)) {
        return std::nullopt;
    }
    l.id = jsonLineId(body);
    return l;
}

bool safeDocId(std::string_view id) {
    return !id.empty() && id != "." && id != ".." && id.find('/') == std::string_view::npos &&
           id.find('\\') == std::string_view::npos && id.find('\0') == std::string_view::npos;
}

}  // namespace

// ---- the set ----

std::string ZdsLiveSet::basisText() const {
    switch (basis_) {
        case ZdsLiveBasis::Index:
            return "meta/index.bin";
        case ZdsLiveBasis::TextIndex:
            return "meta/index.bin (text layout)";
        case ZdsLiveBasis::Lines:
            return "the lines of data.jsonl";
        case ZdsLiveBasis::OrderIds:
            return "meta/order.ids";
        case ZdsLiveBasis::DocIndex:
            return "meta/doc_index.jsonl";
        case ZdsLiveBasis::DocFiles:
            return "the files in docs/";
        case ZdsLiveBasis::None:
            break;
    }
    return "nothing";
}

std::string_view ZdsLiveSet::id(std::uint64_t i) const {
    const Doc& d = docs_[i];
    return std::string_view(ids_).substr(d.idStart, d.idLength);
}

Region ZdsLiveSet::region(std::uint64_t i) const {
    const Doc& d = docs_[i];
    if (docsOf_ != nullptr && (d.flags & kZdsLiveUnreadable) == 0) {
        return openedDoc(i);
    }
    return d.source == nullptr ? Region{} : Region{d.source, d.offset, d.length};
}

std::uint8_t ZdsLiveSet::flags(std::uint64_t i) const {
    const std::uint8_t flags = docs_[i].flags;
    if (docsOf_ != nullptr && (flags & kZdsLiveUnreadable) == 0 && !openedDoc(i).valid()) {
        return flags | kZdsLiveUnreadable;  // listed in docs/ but it cannot be opened
    }
    return flags;
}

Region ZdsLiveSet::openedDoc(std::uint64_t i) const {
    // The storage keeps what it opened: the same source every time, alive as long as it is.
    const ByteSourcePtr src =
        docsOf_->storage().open(docsOf_->path("docs/" + std::string(id(i)) + ".json"));
    return src ? Region{src.get(), 0, src->size()} : Region{};
}

std::optional<std::uint64_t> ZdsLiveSet::find(std::string_view id) const {
    std::call_once(byIdOnce_, [this] {
        byId_.reserve(docs_.size());
        for (std::uint64_t i = 0; i < docs_.size(); ++i) {
            byId_.emplace(this->id(i), i);
        }
    });
    const auto it = byId_.find(id);
    return it == byId_.end() ? std::nullopt : std::optional(it->second);
}

std::optional<std::uint64_t> ZdsLiveSet::atOffset(const ByteSource* source,
                                                  std::uint64_t offset) const {
    if (docsOf_ != nullptr) {
        // A docs/ file is one document, named by its file name.
        std::string_view name = source != nullptr ? std::string_view(source->name()) : "";
        name = name.substr(name.find_last_of("/!") + 1);
        if (offset >= std::max<std::uint64_t>(source != nullptr ? source->size() : 0, 1) ||
            !name.ends_with(".json")) {
            return std::nullopt;
        }
        const auto i = find(name.substr(0, name.size() - 5));
        return i && region(*i).source == source ? i : std::nullopt;
    }
    std::call_once(byOffsetOnce_, [this] {
        for (std::uint64_t i = 0; i < docs_.size(); ++i) {
            if (docs_[i].source != nullptr) {
                byOffset_.push_back(i);
            }
        }
        std::stable_sort(byOffset_.begin(), byOffset_.end(),
                         [this](auto a, auto b) { return docs_[a].offset < docs_[b].offset; });
    });
    // Documents of one source do not overlap, except several keys on one line: the first wins.
    auto it =
        std::upper_bound(byOffset_.begin(), byOffset_.end(), offset,
                         [this](std::uint64_t o, std::uint64_t i) { return o < docs_[i].offset; });
    while (it != byOffset_.begin()) {
        --it;
        const Doc& d = docs_[*it];
        if (d.source == source && offset - d.offset < std::max<std::uint64_t>(d.length, 1)) {
            auto first = it;
            while (first != byOffset_.begin() && docs_[*(first - 1)].offset == d.offset &&
                   docs_[*(first - 1)].source == source) {
                --first;
            }
            return *first;
        }
        if (d.source == source) {
            break;
        }
    }
    return std::nullopt;
}

std::optional<std::uint64_t> ZdsLiveSet::forEntry(std::uint64_t entry) const {
    std::call_once(byEntryOnce_, [this] {
        byEntry_.resize(docs_.size());
        for (std::uint64_t i = 0; i < docs_.size(); ++i) {
            byEntry_[i] = i;
        }
        std::sort(byEntry_.begin(), byEntry_.end(),
                  [this](auto a, auto b) { return docs_[a].entry < docs_[b].entry; });
    });
    const auto it =
        std::lower_bound(byEntry_.begin(), byEntry_.end(), entry,
                         [this](std::uint64_t i, std::uint64_t e) { return docs_[i].entry < e; });
    if (it == byEntry_.end() || docs_[*it].entry != entry) {
        return std::nullopt;
    }
    return *it;
}

std::uint64_t ZdsLiveSet::countFlag(ZdsLiveFlag flag) const {
    return static_cast<std::uint64_t>(
        std::count_if(docs_.begin(), docs_.end(), [flag](const Doc& d) { return d.flags & flag; }));
}

// ---- building ----

class ZdsLiveSetBuilder {
public:
    explicit ZdsLiveSetBuilder(ZdsLiveBasis basis) : set_(std::make_shared<ZdsLiveSet>()) {
        set_->basis_ = basis;
    }

    void add(std::string_view id, const ByteSource* source, std::uint64_t offset,
             std::uint64_t length, std::uint64_t entry, std::uint8_t flags) {
        ZdsLiveSet::Doc d;
        d.source = source;
        d.offset = offset;
        d.length = length;
        d.idStart = set_->ids_.size();
        d.idLength = static_cast<std::uint32_t>(id.size());
        d.entry = entry;
        d.flags = flags;
        set_->ids_.append(id);
        set_->docs_.push_back(d);
    }
    void reserve(std::size_t n) { set_->docs_.reserve(n); }
    void openDocsOnDemand(const ZdsCollection& c) { set_->docsOf_ = &c; }
    void note(std::string text) { set_->notes_.push_back(std::move(text)); }
    void census(const ZdsLiveCensus& c) { set_->census_ = c; }
    // Stored order: by position in the data; documents without bytes last, in entry order.
    void sortByOffset() {
        std::stable_sort(set_->docs_.begin(), set_->docs_.end(), [](const auto& a, const auto& b) {
            if ((a.source == nullptr) != (b.source == nullptr)) {
                return a.source != nullptr;
            }
            return a.source != nullptr ? a.offset < b.offset : a.entry < b.entry;
        });
    }
    // The set so far (complete once every document is added).
    const ZdsLiveSet& view() const { return *set_; }
    std::shared_ptr<const ZdsLiveSet> take() { return std::move(set_); }

private:
    std::shared_ptr<ZdsLiveSet> set_;
};

namespace {

// The lines of data.jsonl by `_id`: for relocating entries and for the census.
struct LineTable {
    static constexpr std::uint64_t kNone = ~std::uint64_t{0};
    std::vector<ZdsLineEntry> lines;
    std::unordered_map<std::string_view, std::uint64_t> lastOf;  // id -> line number
    std::vector<std::uint64_t> previousOf;  // line -> the line before it with its id, or kNone

    static std::optional<LineTable> build(const ByteSource& data, const ZdsIndexOptions& o) {
        auto lines = indexJsonLines(data, o);
        if (!lines) {
            return std::nullopt;
        }
        LineTable t;
        t.lines = std::move(*lines);
        t.lastOf.reserve(t.lines.size());
        t.previousOf.assign(t.lines.size(), kNone);
        for (std::uint64_t i = 0; i < t.lines.size(); ++i) {
            if (t.lines[i].hasId) {
                auto [it, added] = t.lastOf.try_emplace(t.lines[i].id, i);
                if (!added) {
                    t.previousOf[i] = std::exchange(it->second, i);
                }
            }
        }
        return t;
    }
    // The line an entry that missed its line most likely names: the last line with its id and
    // its length (data.jsonl moved under the index: bytes inserted or cut before it), else the
    // last line with its id (as for a missing index).
    const ZdsLineEntry* lineFor(std::string_view id, std::uint64_t length) const {
        const auto it = lastOf.find(id);
        if (it == lastOf.end()) {
            return nullptr;
        }
        for (std::uint64_t i = it->second; i != kNone; i = previousOf[i]) {
            if (lines[i].length == length) {
                return &lines[i];
            }
        }
        return &lines[it->second];
    }
};

struct IndexKey {
    std::string id;
    std::uint64_t offset = 0;
    std::uint64_t length = 0;
    std::uint64_t entry = 0;
    bool located = true;  // false: a text line whose numbers do not parse
};

// The entries of a readable index, the last one of each key.
std::vector<IndexKey> lastEntries(const ZdxIndex& zdx, std::uint64_t* repeated) {
    const std::uint64_t n = zdx.entryCount();
    std::vector<IndexKey> keys;
    keys.reserve(static_cast<std::size_t>(n));
    std::unordered_map<std::string, std::size_t> at;
    at.reserve(static_cast<std::size_t>(n));
    for (std::uint64_t i = 0; i < n; ++i) {
        ZdxEntry e = zdx.entry(i);
        if (zdx.layout() == ZdxLayout::Text && !e.offsetRegion.valid()) {
            continue;  // not id<TAB>offset<TAB>length: the reference skips it too
        }
        IndexKey k{std::move(e.id), e.offset, e.length, i, e.parsed};
        const auto [it, inserted] = at.try_emplace(k.id, keys.size());
        if (inserted) {
            keys.push_back(std::move(k));
        } else {
            ++*repeated;
            keys[it->second] = std::move(k);
        }
    }
    return keys;
}

void censusNote(ZdsLiveSetBuilder& b, const ZdsLiveCensus& c, bool fromIndex) {
    if (c.withoutId > 0) {
        b.note(counted(c.withoutId, "line of data.jsonl has", "lines of data.jsonl have") +
               " no string _id and " + (c.withoutId == 1 ? "is" : "are") + " not a document");
    }
    if (fromIndex && c.unlisted > 0) {
        b.note(counted(c.unlisted, "line of data.jsonl carries an _id",
                       "lines of data.jsonl carry ids") +
               " that the index does not list (deleted documents, or an incomplete index); " +
               (c.unlisted == 1 ? "it is" : "they are") + " not live");
    }
}

std::shared_ptr<const ZdsLiveSet> fromIndex(const ZdsCollection& c, const ZdsLiveOptions& o) {
    const ZdxIndex& zdx = *c.zdx();
    const ByteSource& data = *c.data;
    ZdsLiveSetBuilder b(zdx.layout() == ZdxLayout::Text ? ZdsLiveBasis::TextIndex
                                                        : ZdsLiveBasis::Index);
    std::uint64_t repeated = 0;
    std::vector<IndexKey> keys = lastEntries(zdx, &repeated);
    if (o.index.cancelled()) {
        return nullptr;
    }
    b.reserve(keys.size());
    std::optional<LineTable> table;
    auto needTable = [&]() -> bool {
        if (!table) {
            table = LineTable::build(data, o.index);
        }
        return table.has_value();
    };
    if (o.census && !needTable()) {
        return nullptr;
    }
    std::uint64_t done = 0;
    for (const IndexKey& k : keys) {
        if (++done % 65536 == 0) {
            if (o.index.cancelled()) {
                return nullptr;
            }
            o.index.reportProgress(double(done) / double(keys.size()), "checking index entries");
        }
        const auto landed = k.located ? landOn(data, k.offset) : std::nullopt;
        if (landed && landed->id == k.id) {
            // Another length than the entry's: bytes inserted or cut before the line may have
            // moved an older version of the document to where the entry points. The line of
            // that id with the entry's length is then the one it named.
            if (landed->end - landed->start != k.length) {
                if (!needTable()) {
                    return nullptr;
                }
                const ZdsLineEntry* line = table->lineFor(k.id, k.length);
                if (line != nullptr && line->length == k.length && line->offset != landed->start) {
                    b.add(k.id, &data, line->offset, line->length, k.entry, kZdsLiveRelocated);
                    continue;
                }
            }
            b.add(k.id, &data, landed->start, landed->end - landed->start, k.entry, 0);
            continue;
        }
        if (!needTable()) {
            return nullptr;
        }
        if (const ZdsLineEntry* line = table->lineFor(k.id, k.length)) {
            b.add(k.id, &data, line->offset, line->length, k.entry, kZdsLiveRelocated);
        } else if (landed) {
            b.add(k.id, &data, landed->start, landed->end - landed->start, k.entry,
                  kZdsLiveKeyMismatch);
        } else {
            b.add(k.id, nullptr, 0, 0, k.entry, kZdsLiveUnreadable);
        }
    }
    b.sortByOffset();
    const ZdsLiveSet& set = b.view();
    if (repeated > 0) {
        b.note(counted(repeated, "index entry repeats an id", "index entries repeat an id") +
               "; the last entry of each id is used, as the reference does");
    }
    if (const auto n = set.countFlag(kZdsLiveRelocated)) {
        b.note(counted(n, "index entry does not", "index entries do not") +
               " point at a line with " + (n == 1 ? "its" : "their") +
               " _id; the last line with that _id and the entry's length (else the last line "
               "with that _id) is read instead (reindex to fix)");
    }
    if (const auto n = set.countFlag(kZdsLiveKeyMismatch)) {
        b.note(counted(n, "index entry points", "index entries point") +
               " at a line with another _id, and no line carries the entry's id; "
               "the document is listed under the index's id");
    }
    if (const auto n = set.countFlag(kZdsLiveUnreadable)) {
        b.note(counted(n, "index entry points", "index entries point") +
               " at no line, and no line carries " + (n == 1 ? "its" : "their") +
               " id: " + (n == 1 ? "that document cannot" : "those documents cannot") + " be read");
    }
    if (table) {
        ZdsLiveCensus cs;
        std::unordered_set<std::uint64_t> liveOffsets;
        liveOffsets.reserve(static_cast<std::size_t>(set.size()));
        for (std::uint64_t i = 0; i < set.size(); ++i) {
            if (set.region(i).valid()) {
                liveOffsets.insert(set.region(i).offset);
            }
        }
        for (const ZdsLineEntry& line : table->lines) {
            ++cs.lines;
            if (liveOffsets.count(line.offset) != 0) {
                continue;
            }
            if (!line.hasId) {
                ++cs.withoutId;
            } else if (set.find(line.id)) {
                ++cs.superseded;
            } else {
                ++cs.unlisted;
            }
        }
        censusNote(b, cs, true);
        b.census(cs);
    }
    return b.take();
}

std::shared_ptr<const ZdsLiveSet> fromLines(const ZdsCollection& c, const ZdsLiveOptions& o,
                                            const std::string& indexProblem) {
    const ByteSource& data = *c.data;
    ZdsLiveSetBuilder b(ZdsLiveBasis::Lines);
    if (!indexProblem.empty()) {
        b.note("meta/index.bin is not used (" + indexProblem +
               "): the documents are the last line of each _id in data.jsonl, as the reference "
               "reads them, so documents deleted only from the index are live again");
    }
    ZdsLiveCensus cs;
    auto zdx = buildLiveZdx(data, o.index);
    if (!zdx) {
        return nullptr;
    }
    if (zdx->complete) {
        b.reserve(static_cast<std::size_t>(zdx->indexed));
        std::uint64_t n = 0;
        forEachZdxEntry(*zdx, [&](std::string_view id, std::uint64_t offset, std::uint64_t length) {
            b.add(id, &data, offset, length, n++, 0);
        });
        cs.lines = zdx->lines;
        cs.withoutId = zdx->withoutId;
        cs.superseded = zdx->superseded;
    } else {
        const auto lines = indexJsonLines(data, o.index);
        if (!lines) {
            return nullptr;
        }
        std::unordered_map<std::string_view, std::uint64_t> lastOf;
        for (std::uint64_t i = 0; i < lines->size(); ++i) {
            if ((*lines)[i].hasId) {
                lastOf[(*lines)[i].id] = i;
            }
        }
        for (std::uint64_t i = 0; i < lines->size(); ++i) {
            const ZdsLineEntry& e = (*lines)[i];
            ++cs.lines;
            if (!e.hasId) {
                ++cs.withoutId;
            } else if (lastOf[e.id] != i) {
                ++cs.superseded;
            } else {
                b.add(e.id, &data, e.offset, e.length, i, 0);
            }
        }
    }
    censusNote(b, cs, false);
    b.census(cs);
    return b.take();
}

// ---- file per document ----

std::vector<std::string> docIndexIds(const ByteSource& src, std::string* problem) {
    std::vector<std::string> ids;
    if (src.size() > kMaxDocIndexBytes) {
        *problem = "it is larger than 256 MiB";
        return {};
    }
    const ByteView v = src.view(0, src.size());
    std::string_view text(reinterpret_cast<const char*>(v.data()), v.size());
    std::uint64_t lineNo = 0;
    while (!text.empty()) {
        const auto nl = text.find('\n');
        std::string_view line = text.substr(0, nl);
        text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
        ++lineNo;
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) {
            line.remove_suffix(1);
        }
        if (line.empty()) {
            continue;
        }
        const auto json = nlohmann::json::parse(line, nullptr, false);
        if (json.is_discarded() || !json.is_object() || !json.contains("doc_id") ||
            !json["doc_id"].is_string()) {
            *problem = "line " + std::to_string(lineNo) + " is not an entry with a string doc_id";
            return {};
        }
        ids.push_back(json["doc_id"].get<std::string>());
    }
    return ids;
}

// The ids a file-per-document collection lists, in order (repeats included), where they come
// from, and the notes the live set words about it; no document file is opened.
struct DocsIds {
    std::vector<std::string> ids;
    ZdsLiveBasis basis = ZdsLiveBasis::DocFiles;
    std::vector<std::string> notes;
};

DocsIds docsIdsOf(const ZdsCollection& c) {
    DocsIds out;
    std::vector<std::string>& ids = out.ids;
    std::string docIndexProblem;
    if (c.orderIds) {
        out.basis = ZdsLiveBasis::OrderIds;
        ids = c.orderList();
    } else if (c.docIndex) {
        auto listed = docIndexIds(*c.docIndex, &docIndexProblem);
        if (docIndexProblem.empty()) {
            out.basis = ZdsLiveBasis::DocIndex;
            ids = std::move(listed);
        }
    }
    if (out.basis == ZdsLiveBasis::DocFiles) {
        for (const std::string& name : c.docFiles()) {
            if (name.size() > 5 && name.ends_with(".json")) {
                ids.push_back(name.substr(0, name.size() - 5));
            }
        }
        if (!docIndexProblem.empty()) {
            out.notes.push_back("meta/doc_index.jsonl is not readable (" + docIndexProblem +
                                "): the zippy CLI lists no documents here; the files in docs/ "
                                "are listed instead");
        } else if (!ids.empty()) {
            out.notes.push_back(
                "no meta/order.ids or meta/doc_index.jsonl: the zippy CLI lists no documents "
                "here; the files in docs/ are listed instead (reindex writes the metadata)");
        }
    }
    return out;
}

// Adds the listed ids, each once. Locally no file is opened: a document's file is opened when
// it is first read, and one that is not there (or cannot be opened) reads as unreadable then,
// so listing a million documents costs neither a million opens nor a listing of docs/. A remote
// document is opened now: its size is its region, and the remote tests count the requests a
// listing makes.
std::uint64_t addListed(ZdsLiveSetBuilder& b, const ZdsCollection& c, const DocsIds& listed,
                        bool openNow) {
    const std::vector<std::string>& ids = listed.ids;
    const bool namesInAFolder = listed.basis == ZdsLiveBasis::DocFiles;  // each once already
    std::unordered_set<std::string_view> seen;
    seen.reserve(namesInAFolder ? 0 : ids.size());
    std::uint64_t repeated = 0;
    for (std::uint64_t i = 0; i < ids.size(); ++i) {
        const std::string& id = ids[i];
        if (!namesInAFolder && !seen.insert(id).second) {
            ++repeated;
            continue;
        }
        if (!safeDocId(id)) {
            b.add(id, nullptr, 0, 0, i, kZdsLiveUnreadable);
        } else if (!openNow) {
            b.add(id, nullptr, 0, 0, i, 0);
        } else if (const ByteSourcePtr src = c.storage().open(c.path("docs/" + id + ".json"))) {
            b.add(id, src.get(), 0, src->size(), i, 0);
        } else {
            b.add(id, nullptr, 0, 0, i, kZdsLiveUnreadable);
        }
    }
    return repeated;
}

std::shared_ptr<const ZdsLiveSet> fromDocs(const ZdsCollection& c, const ZdsStorage& storage) {
    const bool local = !storage.isRemote();
    DocsIds listed = docsIdsOf(c);
    const ZdsLiveBasis basis = listed.basis;
    ZdsLiveSetBuilder b(basis);
    b.reserve(listed.ids.size());
    if (local) {
        b.openDocsOnDemand(c);
    }
    const std::uint64_t repeated = addListed(b, c, listed, !local);
    for (std::string& n : listed.notes) {
        b.note(std::move(n));
    }
    if (repeated > 0) {
        b.note(counted(repeated, "id is", "ids are") + " listed twice in " +
               (basis == ZdsLiveBasis::OrderIds ? "meta/order.ids" : "meta/doc_index.jsonl") +
               "; each is listed once");
    }
    if (const auto n = b.view().countFlag(kZdsLiveUnreadable)) {
        b.note(counted(n, "listed document has", "listed documents have") + " no docs/<id>.json");
    }
    return b.take();
}

}  // namespace

std::uint64_t zdsDocsLiveCount(const ZdsCollection& c) {
    const DocsIds listed = docsIdsOf(c);
    std::unordered_set<std::string_view> seen;
    seen.reserve(listed.ids.size());
    for (const std::string& id : listed.ids) {
        seen.insert(id);
    }
    return seen.size();
}

std::string zdsIndexProblem(const ZdsCollection& c) {
    if (!c.index) {
        return "there is no meta/index.bin";
    }
    const ZdxIndex& zdx = *c.zdx();
    switch (zdx.layout()) {
        case ZdxLayout::Unknown:
            return "it does not start with the ZDX magic and is not a text index";
        case ZdxLayout::Text: {
            const std::uint64_t n = zdx.entryCount();
            for (std::uint64_t i = 0; i < n; ++i) {
                if (zdx.entry(i).offsetRegion.valid()) {
                    return {};
                }
            }
            return "it lists no documents";
        }
        case ZdxLayout::Binary:
            break;
    }
    if (!zdx.headerComplete()) {
        return "it is shorter than the 16-byte ZDX header";
    }
    if (zdx.version() != 1) {
        return "ZDX version " + std::to_string(zdx.version()) + " is not supported";
    }
    if (zdx.truncated()) {
        return "it ends in the middle of entry " + std::to_string(zdx.entryCount());
    }
    if (zdx.entryCount() < zdx.declaredCount()) {
        return "its header declares " + std::to_string(zdx.declaredCount()) +
               " entries but it holds " + std::to_string(zdx.entryCount());
    }
    if (zdx.declaredCount() == 0) {
        return "it lists no documents";
    }
    return {};
}

std::shared_ptr<const ZdsLiveSet> computeZdsLiveSet(const ZdsCollection& c,
                                                    const ZdsLiveOptions& options) {
    switch (c.mode()) {
        case ZdsStorageMode::Jsonl: {
            if (!c.index) {
                return fromLines(c, options, {});
            }
            if (options.ignoreIndex) {
                return fromLines(c, options, {});
            }
            const std::string problem = zdsIndexProblem(c);
            return problem.empty() ? fromIndex(c, options) : fromLines(c, options, problem);
        }
        case ZdsStorageMode::Docs:
            return fromDocs(c, c.storage());
        case ZdsStorageMode::None:
            break;
    }
    return ZdsLiveSetBuilder(ZdsLiveBasis::None).take();
}

namespace {

// A file-per-document collection listed by meta/order.ids: the id is live when a line of
// order.ids is exactly it (as the live set reads the list) and its docs/ file opens. One pass
// over order.ids and one file, not an open of every document.
ZdsIndexedLookup lookUpThroughOrderIds(const ZdsCollection& c, std::string_view id) {
    using Outcome = ZdsIndexedLookup::Outcome;
    ZdsIndexedLookup out;
    const ByteView v = c.orderIds->view(0, c.orderIds->size());
    std::string_view text(reinterpret_cast<const char*>(v.data()), v.size());
    bool listed = false;
    while (!text.empty() && !listed) {
        const auto nl = text.find('\n');
        std::string_view line = text.substr(0, nl);
        text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
        while (!line.empty() && line.back() == '\r') {
            line.remove_suffix(1);
        }
        listed = !line.empty() && line == id;
    }
    if (!listed) {
        out.outcome = Outcome::Absent;
        return out;
    }
    const std::string name(id);
    const ByteSourcePtr src =
        safeDocId(name) ? c.storage().open(c.path("docs/" + name + ".json")) : nullptr;
    if (!src) {
        return out;  // listed without a file: the live set words it
    }
    out.outcome = Outcome::Found;
    out.document.id = name;
    out.document.region = {src.get(), 0, src->size()};
    return out;
}

}  // namespace

ZdsIndexedLookup lookUpThroughIndex(const ZdsCollection& c, std::string_view id) {
    using Outcome = ZdsIndexedLookup::Outcome;
    ZdsIndexedLookup out;
    if (c.mode() == ZdsStorageMode::Docs && c.orderIds) {
        return lookUpThroughOrderIds(c, id);
    }
    if (c.mode() != ZdsStorageMode::Jsonl || !c.index || !c.data || !zdsIndexProblem(c).empty()) {
        return out;
    }
    // The same entry lastEntries() keeps for the id: the last one, skipping text lines that
    // are not id<TAB>offset<TAB>length.
    const ZdxIndex& zdx = *c.zdx();
    std::optional<ZdxEntry> last;
    std::uint64_t lastEntry = 0;
    for (std::uint64_t i = 0, n = zdx.entryCount(); i < n; ++i) {
        ZdxEntry e = zdx.entry(i);
        if (zdx.layout() == ZdxLayout::Text && !e.offsetRegion.valid()) {
            continue;
        }
        if (e.id == id) {
            last = std::move(e);
            lastEntry = i;
        }
    }
    if (!last) {
        out.outcome = Outcome::Absent;
        return out;
    }
    const auto landed = last->parsed ? landOn(*c.data, last->offset) : std::nullopt;
    if (!landed || landed->id != last->id) {
        return out;
    }
    out.outcome = Outcome::Found;
    out.document.id = last->id;
    out.document.region = {c.data.get(), landed->start, landed->end - landed->start};
    out.document.entryIndex = lastEntry;
    return out;
}

}  // namespace strata::zds
