#include "zds_document_text.h"

#include <nlohmann/json.hpp>

#include "formats/zds/zds_validator.h"

namespace strata::model {

namespace {

using ordered_json = nlohmann::ordered_json;

std::optional<ordered_json> parse(const std::string& text) {
    ordered_json value = ordered_json::parse(text, nullptr, false);
    if (value.is_discarded()) {
        return std::nullopt;
    }
    return value;
}

// nlohmann escapes invalid UTF-8 instead of throwing with this handler.
std::string dump(const ordered_json& value, int indent) {
    return value.dump(indent, ' ', false, ordered_json::error_handler_t::replace);
}

}  // namespace

void lineAndColumn(const std::string& text, std::uint64_t offset, int* line, int* column) {
    int l = 1;
    int c = 1;
    const std::uint64_t end = std::min<std::uint64_t>(offset, text.size());
    for (std::uint64_t i = 0; i < end; ++i) {
        if (text[i] == '\n') {
            ++l;
            c = 1;
        } else {
            ++c;
        }
    }
    *line = l;
    *column = c;
}

ZdsTextCheck checkZdsDocumentText(const std::string& text) {
    ZdsTextCheck check;
    ordered_json value;
    try {
        value = ordered_json::parse(text);
    } catch (const ordered_json::parse_error& e) {
        // byte is 1-based: the position just after the offending character.
        const std::uint64_t at = e.byte > 0 ? e.byte - 1 : 0;
        lineAndColumn(text, at, &check.line, &check.column);
        std::string what = e.what();
        const auto colon = what.find(": ", what.find("parse error"));
        check.error = colon == std::string::npos ? what : what.substr(colon + 2);
        return check;
    }
    if (!value.is_object()) {
        check.error = "a document must be a JSON object";
        return check;
    }
    const auto id = value.find("_id");
    if (id == value.end()) {
        check.error = "the document has no \"_id\"";
        return check;
    }
    if (!id->is_string()) {
        check.error = "\"_id\" must be a string";
        return check;
    }
    check.id = id->get<std::string>();
    if (check.id.empty() || check.id.size() > 255 || !zds::zdsIdCharsOk(check.id)) {
        check.error = "the id must be 1 to 255 bytes of letters, digits, '_', '-' or '.': \"" +
                      check.id + "\"";
        return check;
    }
    check.ok = true;
    return check;
}

std::optional<std::string> compactJson(const std::string& text) {
    const auto value = parse(text);
    return value ? std::optional(dump(*value, -1)) : std::nullopt;
}

std::optional<std::string> prettyJson(const std::string& text) {
    const auto value = parse(text);
    return value ? std::optional(dump(*value, 2)) : std::nullopt;
}

std::optional<std::string> withId(const std::string& text, const std::string& id) {
    auto value = parse(text);
    if (!value || !value->is_object()) {
        return std::nullopt;
    }
    (*value)["_id"] = id;
    return dump(*value, -1);
}

std::optional<std::string> withField(const std::string& text, const std::string& pointer,
                                     const std::string& valueJson) {
    auto value = parse(text);
    const auto field = parse(valueJson);
    if (!value || !value->is_object() || !field) {
        return std::nullopt;
    }
    try {
        (*value)[ordered_json::json_pointer(pointer)] = *field;
    } catch (const ordered_json::exception&) {
        return std::nullopt;
    }
    return dump(*value, -1);
}

}  // namespace strata::model
