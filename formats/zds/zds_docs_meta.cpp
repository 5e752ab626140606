#include "zds_docs_meta.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <limits>
#include <unordered_set>

#include <simdjson.h>

#include "formats/common/checksums.h"

namespace strata::zds {

namespace {

using json = nlohmann::json;
using ojson = nlohmann::ordered_json;

std::optional<json> parseObject(std::string_view line, std::string* error) {
    json j = json::parse(line, nullptr, false);
    if (j.is_discarded()) {
        *error = "not valid JSON";
        return std::nullopt;
    }
    if (!j.is_object()) {
        *error = "not a JSON object";
        return std::nullopt;
    }
    return j;
}

bool stringField(const json& j, const char* key, std::string& out, std::string* error) {
    const auto it = j.find(key);
    if (it == j.end() || !it->is_string()) {
        *error = std::string("\"") + key + "\" is missing or not a string";
        return false;
    }
    out = it->get<std::string>();
    return true;
}

bool unsignedField(const json& j, const char* key, std::uint64_t& out, std::string* error) {
    const auto it = j.find(key);
    if (it == j.end() || !it->is_number_unsigned()) {
        *error = std::string("\"") + key + "\" is missing or not a non-negative integer";
        return false;
    }
    out = it->get<std::uint64_t>();
    return true;
}

// The fields of one flat metadata line, read by simdjson: a collection's doc_index.jsonl and
// journal.log hold a line per document, and nlohmann's parse of them was most of a docs/
// validation. It answers only when it can prove what nlohmann's parse would give: the line is
// one JSON object and each wanted key appears at most once (nlohmann keeps the last of a
// repeated key). Otherwise `ok` is false and the caller parses with nlohmann, which also
// words the error.
class FastFields {
public:
    FastFields(std::string_view line, std::initializer_list<std::string_view> keys) {
        thread_local simdjson::dom::parser parser;
        thread_local std::string padded;
        if (padded.size() < line.size() + simdjson::SIMDJSON_PADDING) {
            padded.resize(line.size() + simdjson::SIMDJSON_PADDING);
        }
        std::memcpy(padded.data(), line.data(), line.size());
        std::memset(padded.data() + line.size(), 0, simdjson::SIMDJSON_PADDING);
        simdjson::dom::object object;
        if (hasNegativeValue(line) ||
            parser.parse(padded.data(), line.size(), false).get(object) != simdjson::SUCCESS) {
            return;
        }
        std::copy(keys.begin(), keys.end(), keys_.begin());
        count_ = keys.size();
        for (const simdjson::dom::key_value_pair field : object) {
            for (std::size_t k = 0; k < count_; ++k) {
                if (field.key == keys_[k]) {
                    if (found_[k]) {
                        return;
                    }
                    found_[k] = true;
                    values_[k] = field.value;
                }
            }
        }
        ok_ = true;
    }
    bool ok() const { return ok_; }
    // The value of key k as a string / unsigned integer; false when absent or of another type.
    bool string(std::size_t k, std::string& out) const {
        std::string_view v;
        if (!found_[k] || values_[k].get(v) != simdjson::SUCCESS) {
            return false;
        }
        out.assign(v);
        return true;
    }
    bool number(std::size_t k, std::uint64_t& out) const {
        // An integer literal that fits 64 bits; 1.0 or -1 are not (as nlohmann's
        // is_number_unsigned says).
        return found_[k] && values_[k].is_uint64() && values_[k].get(out) == simdjson::SUCCESS;
    }

private:
    // A value written with a minus sign: simdjson reads -0 as the integer 0, which nlohmann
    // does not take for an unsigned number. (A string holding ":-" only costs the fast path.)
    static bool hasNegativeValue(std::string_view line) {
        for (std::size_t at = line.find('-'); at != std::string_view::npos;
             at = line.find('-', at + 1)) {
            std::size_t before = at;
            while (before > 0 && (line[before - 1] == ' ' || line[before - 1] == '\t' ||
                                  line[before - 1] == '\n' || line[before - 1] == '\r')) {
                --before;
            }
            if (before > 0 && line[before - 1] == ':') {
                return true;
            }
        }
        return false;
    }

    static constexpr std::size_t kMaxKeys = 6;
    bool ok_ = false;
    std::size_t count_ = 0;
    std::array<std::string_view, kMaxKeys> keys_{};
    std::array<bool, kMaxKeys> found_{};
    std::array<simdjson::dom::element, kMaxKeys> values_{};
};

std::optional<ZdsDocIndexEntry> fastDocIndexLine(std::string_view text) {
    const FastFields f(text, {"doc_id", "schema_id", "size", "mtime"});
    ZdsDocIndexEntry e;
    if (f.ok() && f.string(0, e.docId) && f.string(1, e.schemaId) && f.number(2, e.size) &&
        f.number(3, e.mtime)) {
        return e;
    }
    return std::nullopt;
}

std::optional<ZdsJournalEntry> fastJournalLine(std::string_view text) {
    const FastFields f(text, {"op", "timestamp", "doc_id", "schema_id", "size", "batch_id"});
    ZdsJournalEntry e;
    std::string op;
    if (!f.ok() || !f.string(0, op) || !f.string(1, e.timestamp) || !isZdsTimestamp(e.timestamp)) {
        return std::nullopt;
    }
    bool complete = false;
    if (op == "PUT") {
        e.op = ZdsJournalEntry::Op::Put;
        complete = f.string(2, e.docId) && f.string(3, e.schemaId) && f.number(4, e.size);
    } else if (op == "DELETE") {
        e.op = ZdsJournalEntry::Op::Delete;
        complete = f.string(2, e.docId);
    } else if (op == "COMMIT") {
        e.op = ZdsJournalEntry::Op::Commit;
        complete = f.number(5, e.batchId);
    } else if (op == "CHECKPOINT") {
        e.op = ZdsJournalEntry::Op::Checkpoint;
        complete = true;
    }
    return complete ? std::optional(std::move(e)) : std::nullopt;
}

std::string timestampNow() {
    const auto now = std::chrono::system_clock::now();
    const auto secs = std::chrono::time_point_cast<std::chrono::seconds>(now);
    const auto nanos = std::chrono::duration_cast<std::chrono::nanoseconds>(now - secs).count();
    const std::time_t t = std::chrono::system_clock::to_time_t(secs);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[48];
    const std::size_t n = std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
    std::snprintf(buf + n, sizeof buf - n, ".%09lldZ", static_cast<long long>(nanos));
    return buf;
}

std::string line(const ojson& j) {
    return j.dump(-1, ' ', false, ojson::error_handler_t::replace) + "\n";
}

}  // namespace

json zdsSchemaOf(const json& document) {
    switch (document.type()) {
        case json::value_t::object: {
            json out = json::object();
            for (const auto& [key, value] : document.items()) {
                out[key] = zdsSchemaOf(value);
            }
            return out;
        }
        case json::value_t::array:
            return document.empty() ? json::array() : json::array({zdsSchemaOf(document.front())});
        case json::value_t::string:
            return "string";
        case json::value_t::number_integer:
            return "integer";
        case json::value_t::number_unsigned:
            return document.get<std::uint64_t>() <=
                           static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())
                       ? "integer"
                       : "number";
        case json::value_t::number_float:
            return "number";
        case json::value_t::boolean:
            return "boolean";
        default:
            return "null";
    }
}

std::string zdsSchemaId(const json& schema) {
    const std::string canonical = schema.dump();  // json keeps object keys sorted
    const Sha256Digest d = sha256(
        std::span(reinterpret_cast<const std::uint8_t*>(canonical.data()), canonical.size()));
    static constexpr char kHex[] = "0123456789abcdef";
    std::string hex;
    for (const std::uint8_t b : d) {
        hex += kHex[b >> 4];
        hex += kHex[b & 15];
    }
    return hex;
}

std::optional<ZdsDocIndexEntry> parseZdsDocIndexLine(std::string_view text, std::string* error) {
    if (auto fast = fastDocIndexLine(text)) {
        return fast;
    }
    const auto j = parseObject(text, error);
    ZdsDocIndexEntry e;
    if (!j || !stringField(*j, "doc_id", e.docId, error) ||
        !stringField(*j, "schema_id", e.schemaId, error) ||
        !unsignedField(*j, "size", e.size, error) || !unsignedField(*j, "mtime", e.mtime, error)) {
        return std::nullopt;
    }
    return e;
}

std::optional<ZdsSchemaEntry> parseZdsSchemaLine(std::string_view text, std::string* error) {
    const auto j = parseObject(text, error);
    ZdsSchemaEntry e;
    if (!j || !stringField(*j, "schema_id", e.schemaId, error) ||
        !unsignedField(*j, "count", e.count, error)) {
        return std::nullopt;
    }
    if (!j->contains("schema")) {
        *error = "\"schema\" is missing";
        return std::nullopt;
    }
    e.schema = (*j)["schema"];
    return e;
}

std::optional<ZdsJournalEntry> parseZdsJournalLine(std::string_view text, std::string* error) {
    if (auto fast = fastJournalLine(text)) {
        return fast;
    }
    const auto j = parseObject(text, error);
    ZdsJournalEntry e;
    std::string op;
    if (!j || !stringField(*j, "op", op, error) ||
        !stringField(*j, "timestamp", e.timestamp, error)) {
        return std::nullopt;
    }
    if (!isZdsTimestamp(e.timestamp)) {
        *error = "timestamp \"" + e.timestamp + "\" is not an RFC 3339 date-time";
        return std::nullopt;
    }
    if (op == "PUT") {
        e.op = ZdsJournalEntry::Op::Put;
        if (!stringField(*j, "doc_id", e.docId, error) ||
            !stringField(*j, "schema_id", e.schemaId, error) ||
            !unsignedField(*j, "size", e.size, error)) {
            return std::nullopt;
        }
    } else if (op == "DELETE") {
        e.op = ZdsJournalEntry::Op::Delete;
        if (!stringField(*j, "doc_id", e.docId, error)) {
            return std::nullopt;
        }
    } else if (op == "COMMIT") {
        e.op = ZdsJournalEntry::Op::Commit;
        if (!unsignedField(*j, "batch_id", e.batchId, error)) {
            return std::nullopt;
        }
    } else if (op == "CHECKPOINT") {
        e.op = ZdsJournalEntry::Op::Checkpoint;
    } else {
        *error = "unknown op \"" + op + "\" (PUT, DELETE, COMMIT or CHECKPOINT)";
        return std::nullopt;
    }
    return e;
}

bool isZdsTimestamp(std::string_view t) {
    // YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM)
    auto digits = [&](std::size_t at, std::size_t n) {
        if (at + n > t.size()) {
            return false;
        }
        for (std::size_t i = at; i < at + n; ++i) {
            if (t[i] < '0' || t[i] > '9') {
                return false;
            }
        }
        return true;
    };
    if (!digits(0, 4) || t.size() < 20 || t[4] != '-' || !digits(5, 2) || t[7] != '-' ||
        !digits(8, 2) || (t[10] != 'T' && t[10] != 't') || !digits(11, 2) || t[13] != ':' ||
        !digits(14, 2) || t[16] != ':' || !digits(17, 2)) {
        return false;
    }
    std::size_t at = 19;
    if (at < t.size() && t[at] == '.') {
        const std::size_t start = ++at;
        while (at < t.size() && t[at] >= '0' && t[at] <= '9') {
            ++at;
        }
        if (at == start) {
            return false;
        }
    }
    const std::string_view zone = t.substr(at);
    if (zone == "Z" || zone == "z") {
        return true;
    }
    return zone.size() == 6 && (zone[0] == '+' || zone[0] == '-') && digits(at + 1, 2) &&
           zone[3] == ':' && digits(at + 4, 2);
}

std::vector<ZdsTextLine> zdsTextLines(std::string_view file) {
    std::vector<ZdsTextLine> out;
    std::uint64_t offset = 0;
    std::uint64_t number = 0;
    while (offset < file.size()) {
        const auto nl = file.find('\n', offset);
        const std::size_t end = nl == std::string_view::npos ? file.size() : nl;
        std::string_view text = file.substr(offset, end - offset);
        ++number;
        while (!text.empty() && text.back() == '\r') {
            text.remove_suffix(1);
        }
        if (text.find_first_not_of(" \t") != std::string_view::npos) {
            out.push_back({number, offset, text});
        }
        offset = end + 1;
    }
    return out;
}

// ---- writing ----

ZdsDocsMetaBuilder::ZdsDocsMetaBuilder(std::string_view previousDocIndex,
                                       std::string_view previousJournal)
    : previousJournal_(previousJournal) {
    now_ = static_cast<std::uint64_t>(std::time(nullptr));
    std::string error;
    for (const ZdsTextLine& l : zdsTextLines(previousDocIndex)) {
        if (auto e = parseZdsDocIndexLine(l.text, &error)) {
            previous_[e->docId] = std::move(*e);
        }
    }
    for (const ZdsTextLine& l : zdsTextLines(previousJournal)) {
        if (auto e = parseZdsJournalLine(l.text, &error);
            e && e->op == ZdsJournalEntry::Op::Commit) {
            nextBatch_ = std::max(nextBatch_, e->batchId + 1);
        }
    }
    if (!previousJournal_.empty() && previousJournal_.back() != '\n') {
        previousJournal_ += '\n';
    }
}

void ZdsDocsMetaBuilder::add(const std::string& id, std::span<const std::uint8_t> file) {
    const json parsed = json::parse(file.begin(), file.end(), nullptr, false);
    const json schema = zdsSchemaOf(parsed.is_discarded() ? json::object() : parsed);
    Doc d;
    d.id = id;
    d.schemaId = zdsSchemaId(schema);
    d.size = file.size();
    d.mtime = now_;
    if (const auto it = previous_.find(id); it != previous_.end()) {
        d.changed = it->second.size != d.size || it->second.schemaId != d.schemaId;
        if (!d.changed) {
            d.mtime = it->second.mtime;
        }
    }
    const auto [at, inserted] = schemaAt_.try_emplace(d.schemaId, schemas_.size());
    if (inserted) {
        schemas_.push_back({d.schemaId, schema, 0});
    }
    ++schemas_[at->second].count;
    docs_.push_back(std::move(d));
}

std::string ZdsDocsMetaBuilder::docIndex() const {
    std::string out;
    for (const Doc& d : docs_) {
        ojson j;
        j["doc_id"] = d.id;
        j["schema_id"] = d.schemaId;
        j["size"] = d.size;
        j["mtime"] = d.mtime;
        out += line(j);
    }
    return out;
}

std::string ZdsDocsMetaBuilder::orderIds() const {
    std::string out;
    for (const Doc& d : docs_) {
        out += d.id + "\n";
    }
    return out;
}

std::string ZdsDocsMetaBuilder::schemas() const {
    std::string out;
    for (const ZdsSchemaEntry& s : schemas_) {
        ojson j;
        j["schema_id"] = s.schemaId;
        j["schema"] = ojson::parse(s.schema.dump());
        j["count"] = s.count;
        out += line(j);
    }
    return out;
}

std::string ZdsDocsMetaBuilder::journal() const {
    std::string out = previousJournal_;
    const std::string ts = timestampNow();
    std::unordered_set<std::string> present;
    bool any = false;
    for (const Doc& d : docs_) {
        present.insert(d.id);
        if (!d.changed) {
            continue;
        }
        ojson j;
        j["op"] = "PUT";
        j["timestamp"] = ts;
        j["doc_id"] = d.id;
        j["schema_id"] = d.schemaId;
        j["size"] = d.size;
        out += line(j);
        any = true;
    }
    std::vector<std::string> removed;
    for (const auto& [id, entry] : previous_) {
        if (present.count(id) == 0) {
            removed.push_back(id);
        }
    }
    std::sort(removed.begin(), removed.end());
    for (const std::string& id : removed) {
        {
            ojson j;
            j["op"] = "DELETE";
            j["timestamp"] = ts;
            j["doc_id"] = id;
            out += line(j);
            any = true;
        }
    }
    if (any) {
        ojson j;
        j["op"] = "COMMIT";
        j["timestamp"] = ts;
        j["batch_id"] = nextBatch_;
        out += line(j);
    }
    return out;
}

}  // namespace strata::zds
