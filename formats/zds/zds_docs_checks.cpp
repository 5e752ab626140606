#include "zds_docs_checks.h"

#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <unordered_map>
#include <vector>

#include "formats/common/counted.h"
#include "zds_docs_meta.h"

namespace strata::zds {

namespace {

constexpr std::uint64_t kMaxMetaBytes = 256ull << 20;
constexpr std::uint64_t kMaxDocBytes = 64ull << 20;

std::string quote(std::string_view s) {
    std::string out = "'";
    for (const unsigned char ch : s.substr(0, 80)) {
        out += ch < 0x20 ? '?' : static_cast<char>(ch);
    }
    return out + (s.size() > 80 ? "...'" : "'");
}

// One metadata file of the collection, read whole (they are small); nothing when absent.
struct MetaFile {
    ByteSourcePtr source;
    std::string_view text;
    ByteView view;
    std::string rel;

    Region line(const ZdsTextLine& l) const { return {source.get(), l.offset, l.text.size()}; }
    Region whole() const { return {source.get(), 0, source->size()}; }
};

}  // namespace

// Declared in the header for ZdsDocsMetadataCheck; used only here.
class DocsChecker {
    struct Entry {
        ZdsDocIndexEntry e;
        Region region;
    };
    struct Schema {
        ZdsSchemaEntry e;
        Region region;
        std::string shape;  // e.schema as compact JSON
    };

public:
    DocsChecker(const ZdsCollection& c, bool strict) : c_(c), strict_(strict) {}

    // Reads the metadata files and checks each on its own; what it finds is kept for check().
    void read() {
        report_ = [this](Severity severity, const std::string& code, std::string message,
                         std::vector<Region> regions, std::string file) {
            found_->push_back(
                {severity, code, std::move(message), std::move(regions), std::move(file)});
        };
        found_ = &opening_;
        docIndexFile_ = open("meta/doc_index.jsonl");
        orderFile_ = open("meta/order.ids");
        schemasFile_ = open("meta/schemas.jsonl");
        journalFile_ = open("meta/journal.log");
        found_ = &readingIndex_;
        if (docIndexFile_) {
            readDocIndex(*docIndexFile_);
        }
        found_ = &readingSchemas_;
        if (schemasFile_) {
            readSchemas(*schemasFile_);
        }
        read_ = true;
    }

    // Reports what read() found, in reading order, then checks the metadata against the files
    // and each other.
    void check(const std::unordered_set<std::string>& files, const ZdsReport& report,
               const ZdsDocFacts* facts) {
        if (!read_) {
            read();
        }
        files_ = &files;
        facts_ = facts;
        report_ = report;
        replay(opening_);
        replay(readingIndex_);
        if (!docIndexFile_ && !files.empty()) {
            report_(Severity::Warning, "ZDS-DOCINDEX-ABSENT",
                    "there is no meta/doc_index.jsonl: the zippy CLI lists none of the " +
                        std::to_string(files.size()) +
                        " documents in docs/ (reindex writes the metadata)",
                    {}, c_.storage().displayPath(c_.path("meta/doc_index.jsonl")));
        }
        replay(readingSchemas_);
        const auto& docIndex = docIndexFile_;
        const auto& order = orderFile_;
        const auto& schemas = schemasFile_;
        const auto& journal = journalFile_;
        if (docIndex && indexReadable_) {
            checkIndexAgainstDisk(*docIndex, order.has_value());
            if (schemas && schemasReadable_) {
                checkSchemasAgainstIndex(*schemas, *docIndex);
            }
        }
        if (order && docIndex && indexReadable_) {
            checkOrderAgainstIndex(*order);
        }
        if (journal) {
            checkJournal(*journal, docIndex.has_value() && indexReadable_);
        }
    }

private:
    std::optional<MetaFile> open(const std::string& rel) {
        const ByteSourcePtr src = c_.storage().open(c_.path(rel));
        if (!src) {
            return std::nullopt;
        }
        if (src->size() > kMaxMetaBytes) {
            report_(Severity::Warning, "ZDS-META-LARGE",
                    rel + " is larger than 256 MiB; it is not checked", {{src.get(), 0, 0}}, {});
            return std::nullopt;
        }
        MetaFile f;
        f.source = src;
        f.rel = rel;
        f.view = src->view(0, src->size());
        f.text = {reinterpret_cast<const char*>(f.view.data()), f.view.size()};
        return f;
    }

    // ---- doc_index.jsonl ----

    void readDocIndex(const MetaFile& f) {
        std::string error;
        for (const ZdsTextLine& l : zdsTextLines(f.text)) {
            auto e = parseZdsDocIndexLine(l.text, &error);
            if (!e) {
                report_(Severity::Error, "ZDS-DOCINDEX-LINE",
                        "doc_index.jsonl line " + std::to_string(l.number) + ": " + error +
                            " (an entry is {\"doc_id\", \"schema_id\", \"size\", \"mtime\"}); "
                            "the zippy CLI then lists no documents in this collection",
                        {f.line(l)}, {});
                indexReadable_ = false;
                continue;
            }
            const auto [it, inserted] = index_.try_emplace(e->docId, Entry{*e, f.line(l)});
            if (!inserted) {
                report_(Severity::Error, "ZDS-DOCINDEX-DUPLICATE",
                        "doc_index.jsonl lists " + quote(e->docId) + " twice (lines " +
                            std::to_string(lineOf(f, it->second.region)) + " and " +
                            std::to_string(l.number) + ")",
                        {f.line(l), it->second.region}, {});
                it->second = Entry{*e, f.line(l)};
            }
        }
    }

    static std::uint64_t lineOf(const MetaFile& f, const Region& r) {
        std::uint64_t n = 1;
        for (std::uint64_t i = 0; i < r.offset && i < f.text.size(); ++i) {
            n += f.text[i] == '\n' ? 1 : 0;
        }
        return n;
    }

    void checkIndexAgainstDisk(const MetaFile& f, bool hasOrder) {
        for (const auto& [id, entry] : index_) {
            if (files_->count(id) == 0) {
                report_(Severity::Error, "ZDS-DOCINDEX-MISSING",
                        "doc_index.jsonl lists " + quote(id) + " but docs/" + id +
                            ".json does not exist",
                        {entry.region}, {});
                continue;
            }
            if (facts_ != nullptr && facts_->size(id) == entry.e.size) {
                continue;  // read by the validator already: no second open of each file
            }
            const ByteSourcePtr doc = c_.storage().open(c_.path("docs/" + id + ".json"));
            if (doc && doc->size() != entry.e.size) {
                report_(Severity::Warning, "ZDS-DOCINDEX-SIZE",
                        "doc_index.jsonl gives " + quote(id) + " a size of " +
                            std::to_string(entry.e.size) + " bytes; docs/" + id + ".json has " +
                            std::to_string(doc->size()),
                        {entry.region, {doc.get(), 0, doc->size()}}, {});
            }
        }
        std::uint64_t unlisted = 0;
        std::string first;
        for (const std::string& id : *files_) {
            if (index_.count(id) == 0) {
                ++unlisted;
                first = first.empty() || id < first ? id : first;
            }
        }
        if (unlisted > 0) {
            report_(Severity::Warning, "ZDS-DOCINDEX-UNLISTED",
                    counted(unlisted, "file") + " in docs/ (" + quote(first) +
                        (unlisted > 1 ? " and others" : "") + ")" +
                        (unlisted > 1 ? " have" : " has") +
                        " no doc_index.jsonl entry: the zippy CLI does not count them "
                        "(disk: " +
                        std::to_string(files_->size()) +
                        ", stored: " + std::to_string(index_.size()) + ")",
                    {f.whole()}, {});
        }
        (void)hasOrder;
    }

    void checkOrderAgainstIndex(const MetaFile& order) {
        std::unordered_set<std::string> listed;
        for (const ZdsTextLine& l : zdsTextLines(order.text)) {
            std::string_view id = l.text;
            while (!id.empty() && (id.front() == ' ' || id.front() == '\t')) {
                id.remove_prefix(1);
            }
            while (!id.empty() && (id.back() == ' ' || id.back() == '\t')) {
                id.remove_suffix(1);
            }
            listed.emplace(id);
            if (index_.count(std::string(id)) == 0 && files_->count(std::string(id)) != 0) {
                report_(Severity::Warning, "ZDS-ORDER-UNINDEXED",
                        "order.ids lists " + quote(id) +
                            ", which doc_index.jsonl does not: the zippy CLI lists it but does "
                            "not count it",
                        {order.line(l)}, {});
            }
        }
        for (const auto& [id, entry] : index_) {
            if (listed.count(id) == 0) {
                report_(Severity::Warning, "ZDS-ORDER-INCOMPLETE",
                        "doc_index.jsonl lists " + quote(id) +
                            " but order.ids does not: the zippy CLI counts it but never lists it",
                        {entry.region}, {});
            }
        }
    }

    // ---- schemas.jsonl ----

    void readSchemas(const MetaFile& f) {
        std::string error;
        for (const ZdsTextLine& l : zdsTextLines(f.text)) {
            auto e = parseZdsSchemaLine(l.text, &error);
            if (!e) {
                report_(Severity::Error, "ZDS-SCHEMAS-LINE",
                        "schemas.jsonl line " + std::to_string(l.number) + ": " + error +
                            " (an entry is {\"schema_id\", \"schema\", \"count\"}); the zippy "
                            "CLI then ignores every schema of this collection",
                        {f.line(l)}, {});
                schemasReadable_ = false;
                continue;
            }
            if (schemas_.count(e->schemaId) != 0) {
                report_(Severity::Warning, "ZDS-SCHEMAS-DUPLICATE",
                        "schemas.jsonl lists schema " + quote(e->schemaId) +
                            " twice; the last "
                            "entry counts",
                        {f.line(l)}, {});
            }
            const std::string id = e->schemaId;
            std::string shape = e->schema.dump();
            schemas_[id] = Schema{std::move(*e), f.line(l), std::move(shape)};
        }
    }

    void checkSchemasAgainstIndex(const MetaFile& schemas, const MetaFile& docIndex) {
        std::map<std::string, std::uint64_t> uses;
        for (const auto& [id, entry] : index_) {
            ++uses[entry.e.schemaId];
            const auto it = schemas_.find(entry.e.schemaId);
            if (it == schemas_.end()) {
                report_(Severity::Warning, "ZDS-DOCINDEX-SCHEMA",
                        "doc_index.jsonl gives " + quote(id) + " schema " +
                            quote(entry.e.schemaId) + ", which schemas.jsonl does not list",
                        {entry.region}, {});
                continue;
            }
            checkShape(id, entry, it->second);
        }
        for (const auto& [schemaId, s] : schemas_) {
            const std::uint64_t n = uses.count(schemaId) ? uses[schemaId] : 0;
            if (s.e.count != n) {
                report_(Severity::Warning, "ZDS-SCHEMAS-COUNT",
                        "schemas.jsonl counts " + std::to_string(s.e.count) +
                            " documents with schema " + quote(schemaId) +
                            "; doc_index.jsonl gives it to " + std::to_string(n),
                        {s.region}, {});
            }
        }
        if (strict_ && uses.size() > 1) {
            report_(Severity::Error, "ZDS-SCHEMAS-STRICT",
                    "manifest.json makes the collection strict (one schema for every document), "
                    "but doc_index.jsonl uses " +
                        std::to_string(uses.size()) + " schemas",
                    {docIndex.whole(), schemas.whole()}, {});
        }
    }

    // The document on disk still has the shape its schema entry records.
    void checkShape(const std::string& id, const Entry& entry, const Schema& s) {
        if (facts_ != nullptr) {
            const std::string* shape = facts_->shape(id);
            if (shape == nullptr || *shape == s.shape) {
                return;  // not JSON (reported as ZDS-JSON), or as recorded
            }
        }
        const ByteSourcePtr doc = c_.storage().open(c_.path("docs/" + id + ".json"));
        if (!doc || doc->size() > kMaxDocBytes) {
            return;
        }
        const ByteView v = doc->view(0, doc->size());
        const std::optional<std::string> shape = zdsDocShape(v.bytes);
        if (!shape) {
            return;  // not JSON: reported as ZDS-JSON
        }
        if (*shape != s.shape) {
            report_(Severity::Warning, "ZDS-SCHEMAS-SHAPE",
                    "docs/" + id +
                        ".json does not have the shape that schemas.jsonl records for "
                        "its schema " +
                        quote(entry.e.schemaId) + " (edited without the engine?)",
                    {{doc.get(), 0, doc->size()}, entry.region}, {});
        }
    }

    // ---- journal.log ----

    void checkJournal(const MetaFile& f, bool compareWithIndex) {
        std::string error;
        std::uint64_t lastBatch = 0;
        bool checkpoint = false;
        bool readable = true;
        std::uint64_t pending = 0;
        std::optional<Region> firstPending;
        std::map<std::string, bool> committed, batch;
        for (const ZdsTextLine& l : zdsTextLines(f.text)) {
            auto e = parseZdsJournalLine(l.text, &error);
            if (!e) {
                report_(Severity::Error, "ZDS-JOURNAL-LINE",
                        "journal.log line " + std::to_string(l.number) + ": " + error +
                            "; the engine stops its recovery replay here",
                        {f.line(l)}, {});
                readable = false;
                continue;
            }
            switch (e->op) {
                case ZdsJournalEntry::Op::Put:
                case ZdsJournalEntry::Op::Delete:
                    batch[e->docId] = e->op == ZdsJournalEntry::Op::Put;
                    if (pending++ == 0) {
                        firstPending = f.line(l);
                    }
                    break;
                case ZdsJournalEntry::Op::Commit:
                    if (e->batchId <= lastBatch) {
                        report_(Severity::Warning, "ZDS-JOURNAL-BATCH",
                                "journal.log line " + std::to_string(l.number) + " commits batch " +
                                    std::to_string(e->batchId) + " after batch " +
                                    std::to_string(lastBatch) + " (batch ids must increase)",
                                {f.line(l)}, {});
                    }
                    lastBatch = std::max(lastBatch, e->batchId);
                    [[fallthrough]];
                case ZdsJournalEntry::Op::Checkpoint:
                    if (e->op == ZdsJournalEntry::Op::Checkpoint) {
                        checkpoint = true;
                    }
                    for (const auto& [id, present] : batch) {
                        committed[id] = present;
                    }
                    batch.clear();
                    pending = 0;
                    break;
            }
        }
        if (pending > 0) {
            report_(Severity::Warning, "ZDS-JOURNAL-UNCOMMITTED",
                    "journal.log ends with " + std::to_string(pending) +
                        " entries after its last COMMIT: a write was interrupted (the engine "
                        "replays them when it opens the collection)",
                    {*firstPending}, {});
        }
        if (!readable || checkpoint || !compareWithIndex) {
            return;  // after a checkpoint the journal no longer holds the whole history
        }
        std::uint64_t differ = 0;
        std::string example;
        for (const auto& [id, present] : committed) {
            if (present != (index_.count(id) != 0)) {
                ++differ;
                example = example.empty() ? id : example;
            }
        }
        for (const auto& [id, entry] : index_) {
            if (committed.count(id) == 0) {
                ++differ;
                example = example.empty() ? id : example;
            }
        }
        if (differ > 0) {
            report_(Severity::Warning, "ZDS-JOURNAL-STATE",
                    "replaying journal.log does not give the documents doc_index.jsonl lists (" +
                        std::to_string(differ) + " differ, e.g. " + quote(example) + ")",
                    {f.whole()}, {});
        }
    }

    struct Found {
        Severity severity;
        std::string code;
        std::string message;
        std::vector<Region> regions;
        std::string file;
    };
    void replay(std::vector<Found>& found) {
        for (Found& f : found) {
            report_(f.severity, f.code, std::move(f.message), std::move(f.regions),
                    std::move(f.file));
        }
        found.clear();
    }

    const ZdsCollection& c_;
    const std::unordered_set<std::string>* files_ = nullptr;
    bool strict_;
    ZdsReport report_;
    const ZdsDocFacts* facts_ = nullptr;
    std::optional<MetaFile> docIndexFile_, orderFile_, schemasFile_, journalFile_;
    bool read_ = false;
    std::vector<Found>* found_ = nullptr;
    std::vector<Found> opening_, readingIndex_, readingSchemas_;
    std::map<std::string, Entry> index_;
    std::unordered_map<std::string, Schema> schemas_;
    bool indexReadable_ = true;
    bool schemasReadable_ = true;
};

void ZdsDocFacts::add(std::string id, std::uint64_t size, std::optional<std::string> shape) {
    Doc doc{size, kNoShape};
    if (shape) {
        const auto [it, inserted] = index_.try_emplace(std::move(*shape), shapes_.size());
        if (inserted) {
            shapes_.push_back(&it->first);  // node-based: the key's address stays put
        }
        doc.shape = it->second;
    }
    byId_[std::move(id)] = doc;
}

std::optional<std::uint64_t> ZdsDocFacts::size(const std::string& id) const {
    const auto it = byId_.find(id);
    return it == byId_.end() ? std::nullopt : std::optional(it->second.size);
}

const std::string* ZdsDocFacts::shape(const std::string& id) const {
    const auto it = byId_.find(id);
    return it == byId_.end() || it->second.shape == kNoShape ? nullptr : shapes_[it->second.shape];
}

namespace {

// zdsSchemaOf built straight from the parser's events, without the document's tree: keys by
// name (a repeated key's last value wins, as in the tree), an array by its first element. What
// the parser refuses has no shape, as before.
class ShapeBuilder {
public:
    using json = nlohmann::json;

    json& shape() { return root_; }

    bool null() { return put("null"); }
    bool boolean(bool) { return put("boolean"); }
    bool number_integer(json::number_integer_t) { return put("integer"); }
    bool number_unsigned(json::number_unsigned_t value) {
        constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
        return put(value <= kMax ? "integer" : "number");
    }
    bool number_float(json::number_float_t, const json::string_t&) { return put("number"); }
    bool string(json::string_t&) { return put("string"); }
    bool binary(json::binary_t&) { return put("null"); }
    bool start_object(std::size_t) { return open(json::object()); }
    bool key(json::string_t& name) {
        key_ = name;
        return true;
    }
    bool end_object() { return close(); }
    bool start_array(std::size_t) { return open(json::array()); }
    bool end_array() { return close(); }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) {
        return false;
    }

private:
    struct Frame {
        json* node;
        bool array;
        bool filled;  // an array's first element is in
    };

    // Where the next value goes; nullptr for the second and later elements of an array.
    json* slot() {
        if (stack_.empty()) {
            return &root_;
        }
        Frame& top = stack_.back();
        if (!top.array) {
            return &(*top.node)[key_];
        }
        if (top.filled) {
            return nullptr;
        }
        top.filled = true;
        top.node->push_back(json());
        return &top.node->back();
    }
    bool put(const char* type) {
        if (skipping_ == 0) {
            if (json* target = slot()) {
                *target = type;
            }
        }
        return true;
    }
    bool open(json empty) {
        json* target = skipping_ == 0 ? slot() : nullptr;
        if (target == nullptr) {
            ++skipping_;
            return true;
        }
        *target = std::move(empty);
        stack_.push_back({target, target->is_array(), false});
        return true;
    }
    bool close() {
        if (skipping_ > 0) {
            --skipping_;
        } else {
            stack_.pop_back();
        }
        return true;
    }

    json root_;
    std::vector<Frame> stack_;
    std::string key_;
    int skipping_ = 0;  // depth inside an array element that has no say in the shape
};

}  // namespace

std::optional<std::string> zdsDocShape(std::span<const std::uint8_t> text) {
    ShapeBuilder builder;
    if (!nlohmann::json::sax_parse(text.begin(), text.end(), &builder)) {
        return std::nullopt;
    }
    return builder.shape().dump();
}

void checkZdsDocsMetadata(const ZdsCollection& c, const std::unordered_set<std::string>& files,
                          bool strict, const ZdsReport& report, const ZdsDocFacts* facts) {
    ZdsDocsMetadataCheck check(c, strict);
    check.check(files, report, facts);
}

ZdsDocsMetadataCheck::ZdsDocsMetadataCheck(const ZdsCollection& c, bool strict)
    : checker_(std::make_unique<DocsChecker>(c, strict)) {}

ZdsDocsMetadataCheck::~ZdsDocsMetadataCheck() = default;

void ZdsDocsMetadataCheck::read() {
    checker_->read();
}

void ZdsDocsMetadataCheck::check(const std::unordered_set<std::string>& files,
                                 const ZdsReport& report, const ZdsDocFacts* facts) {
    checker_->check(files, report, facts);
}

}  // namespace strata::zds
