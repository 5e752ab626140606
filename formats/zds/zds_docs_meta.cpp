#include "zds_docs_meta.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <limits>
#include <unordered_set>

#include "formats/common/checksums.h"

namespace strata {

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

}  // namespace strata
