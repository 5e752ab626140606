#include "zds_json_line.h"

#include <algorithm>
#include <cstring>
#include <nlohmann/json.hpp>
#include <string_view>
#include <unordered_set>

#include <simdjson.h>

#include "formats/common/json_error.h"

namespace strata::zds {

namespace {

constexpr std::size_t kMaxDuplicateKeysKept = 4;
constexpr std::size_t kMaxDepth = 512;
// simdjson's depth limit for the fast check: well below kMaxDepth, so anything it accepts
// analyzeJsonLine accepts too, however the two count the levels.
constexpr std::size_t kFastMaxDepth = 256;
constexpr std::size_t kFastInitialCapacity = 1 << 16;

class FactsHandler {
public:
    using json = nlohmann::json;
    explicit FactsHandler(JsonLineFacts& facts) : facts_(facts) {}

    bool null() { return value(false); }
    bool boolean(bool) { return value(false); }
    bool number_integer(json::number_integer_t) { return value(false); }
    bool number_unsigned(json::number_unsigned_t) { return value(false); }
    bool number_float(json::number_float_t, const json::string_t&) { return value(false); }
    bool binary(json::binary_t&) { return value(false); }
    bool string(json::string_t& s) {
        if (expectId_) {
            facts_.idIsString = true;
            facts_.id = s;
        }
        return value(false);
    }
    bool start_object(std::size_t) {
        value(true);
        if (stack_.empty()) {
            facts_.isObject = true;
        }
        stack_.push_back(true);
        keys_.emplace_back();
        return stack_.size() <= kMaxDepth;
    }
    bool end_object() {
        stack_.pop_back();
        keys_.pop_back();
        return true;
    }
    bool start_array(std::size_t) {
        value(true);
        stack_.push_back(false);
        keys_.emplace_back();
        return stack_.size() <= kMaxDepth;
    }
    bool end_array() {
        stack_.pop_back();
        keys_.pop_back();
        return true;
    }
    bool key(json::string_t& k) {
        if (!keys_.back().insert(k).second && facts_.duplicateKeys.size() < kMaxDuplicateKeysKept) {
            facts_.duplicateKeys.push_back(k);
        }
        if (stack_.size() == 1 && k == "_id") {
            facts_.hasId = true;
            facts_.idIsString = false;
            facts_.id.clear();
            expectId_ = true;
        }
        return true;
    }
    bool parse_error(std::size_t position, const std::string&,
                     const nlohmann::detail::exception& ex) {
        facts_.error = jsonErrorText(ex.what());
        facts_.errorOffset = position;
        return false;
    }

private:
    // Called for every value; `_id` is the value right after the top-level `_id` key.
    bool value(bool) {
        expectId_ = false;
        return true;
    }

    JsonLineFacts& facts_;
    std::vector<bool> stack_;
    std::vector<std::unordered_set<std::string>> keys_;
    bool expectId_ = false;
};

}  // namespace

JsonLineFacts analyzeJsonLine(std::span<const std::uint8_t> text) {
    JsonLineFacts facts;
    FactsHandler handler(facts);
    bool ok = false;
    try {
        ok = nlohmann::json::sax_parse(text.begin(), text.end(), &handler);
    } catch (const std::exception& e) {
        facts.error = jsonErrorText(e.what());
        ok = false;
    }
    facts.valid = ok && facts.error.empty();
    if (!facts.valid && facts.error.empty()) {
        facts.error = "nesting deeper than " + std::to_string(kMaxDepth) + " levels";
    }
    return facts;
}

std::optional<std::string> provenDocumentId(std::span<const std::uint8_t> text) {
    const std::string_view view(reinterpret_cast<const char*>(text.data()), text.size());
    if (view.find("\\u") != std::string_view::npos) {
        return std::nullopt;
    }
    thread_local simdjson::dom::parser parser = [] {
        simdjson::dom::parser p;
        // On failure max_depth() stays at its default and the fast check is skipped.
        const simdjson::error_code allocated = p.allocate(kFastInitialCapacity, kFastMaxDepth);
        (void)allocated;
        return p;
    }();
    thread_local std::string padded;
    // simdjson reads up to SIMDJSON_PADDING bytes past the end of its input.
    if (padded.size() < text.size() + simdjson::SIMDJSON_PADDING) {
        padded.resize(text.size() + simdjson::SIMDJSON_PADDING);
    }
    std::memcpy(padded.data(), text.data(), text.size());
    std::memset(padded.data() + text.size(), 0, simdjson::SIMDJSON_PADDING);
    simdjson::dom::object object;
    if (parser.max_depth() != kFastMaxDepth ||
        parser.parse(padded.data(), text.size(), false).get(object) != simdjson::SUCCESS) {
        return std::nullopt;
    }
    std::optional<std::string_view> id;
    for (const simdjson::dom::key_value_pair field : object) {
        if (field.key == "_id") {  // the last `_id` counts, as in analyzeJsonLine
            std::string_view s;
            id = field.value.get(s) == simdjson::SUCCESS ? std::optional(s) : std::nullopt;
        }
    }
    return id ? std::optional<std::string>(*id) : std::nullopt;
}

std::optional<std::string> referenceScanId(std::span<const std::uint8_t> line) {
    constexpr std::string_view kPattern = "\"_id\":\"";
    const std::string_view text(reinterpret_cast<const char*>(line.data()), line.size());
    const auto at = text.find(kPattern);
    if (at == std::string_view::npos) {
        return std::nullopt;
    }
    const auto start = at + kPattern.size();
    const auto end = text.find('"', start);
    if (end == std::string_view::npos) {
        return std::nullopt;
    }
    return std::string(text.substr(start, end - start));
}

namespace {

// JSON text with its whitespace outside strings removed (numbers and strings kept verbatim).
std::string compactJson(std::span<const std::uint8_t> text) {
    std::string out;
    out.reserve(text.size());
    bool inString = false;
    bool escaped = false;
    for (const std::uint8_t c : text) {
        if (inString) {
            out.push_back(static_cast<char>(c));
            if (escaped) {
                escaped = false;
            } else if (c == '\\') {
                escaped = true;
            } else if (c == '"') {
                inString = false;
            }
        } else if (c == '"') {
            inString = true;
            out.push_back('"');
        } else if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
            out.push_back(static_cast<char>(c));
        }
    }
    return out;
}

}  // namespace

std::optional<std::string> docsFileAsLine(std::span<const std::uint8_t> text, const std::string& id,
                                          std::string* error) {
    const JsonLineFacts facts = analyzeJsonLine(text);
    if (!facts.valid || !facts.isObject) {
        if (error != nullptr) {
            *error = facts.valid ? "not an object" : facts.error;
        }
        return std::nullopt;
    }
    std::string body = compactJson(text);
    if (facts.hasId) {
        return body;
    }
    const std::string idField = "\"_id\":" + nlohmann::json(id).dump();
    return body == "{}" ? "{" + idField + "}" : "{" + idField + "," + body.substr(1);
}

}  // namespace strata::zds
