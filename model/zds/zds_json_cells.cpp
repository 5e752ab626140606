#include "zds_json_cells.h"

namespace strata::model {

std::string columnPointer(const QString& column) {
    const std::string s = column.toStdString();
    if (s.empty() || s.front() == '/') {
        return s;
    }
    std::string out = "/";
    for (char c : s) {
        out += c == '~' ? std::string("~0") : c == '/' ? std::string("~1") : std::string(1, c);
    }
    return out;
}

const ordered_json* memberAt(const ordered_json& doc, const std::string& pointer) {
    try {
        const ordered_json::json_pointer ptr(pointer);
        return doc.contains(ptr) ? &doc.at(ptr) : nullptr;
    } catch (const ordered_json::exception&) {
        return nullptr;
    }
}

std::string cellText(const ordered_json& value, std::size_t maxChars) {
    std::string s = value.is_string()
                        ? value.get<std::string>()
                        : value.dump(-1, ' ', false, ordered_json::error_handler_t::replace);
    if (s.size() > maxChars) {
        s.resize(maxChars);
        s += "…";
    }
    return s;
}

JsonSortKey sortKeyOf(const ordered_json* v) {
    if (v == nullptr) {
        return {0, 0, {}};
    }
    if (v->is_null()) {
        return {1, 0, {}};
    }
    if (v->is_boolean()) {
        return {2, 0, v->get<bool>() ? "1" : "0"};
    }
    if (v->is_number()) {
        return {3, v->get<double>(), {}};
    }
    if (v->is_string()) {
        return {4, 0, v->get<std::string>()};
    }
    return {5, 0, v->dump(-1, ' ', false, ordered_json::error_handler_t::replace)};
}

}  // namespace strata::model
