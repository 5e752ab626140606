// Stages one collection of a write: each document's bytes, then data.jsonl with its index.bin,
// or docs/ with its metadata files, in the collection's stage folder.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>
#include <span>
#include <system_error>
#include <unordered_set>

#include "formats/common/atomic_file.h"
#include "formats/common/bounds.h"
#include "zds_docs_meta.h"
#include "zds_json_line.h"
#include "zds_line_index.h"
#include "zds_write_checks.h"
#include "zds_writer_parts.h"

namespace strata::zds {

namespace fs = std::filesystem;
using ojson = nlohmann::ordered_json;

namespace {

constexpr std::size_t kWriteBuffer = 8u << 20;
constexpr std::uint64_t kProgressEvery = 4096;

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

}  // namespace

bool Progress::step() {
    ++done;
    if (done % kProgressEvery == 0) {
        options.reportProgress(total == 0 ? 1.0 : 0.95 * double(done) / double(total),
                               "document " + std::to_string(done) + " of " + std::to_string(total));
        return !cancelled();
    }
    return true;
}

namespace {

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

}  // namespace

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

}  // namespace strata::zds
