#include "json_diff.h"

#include <algorithm>
#include <cctype>

namespace strata {

namespace {

using json = nlohmann::json;

bool isIdentifier(const std::string& key) {
    return !key.empty() && std::all_of(key.begin(), key.end(), [](unsigned char c) {
        return std::isalnum(c) || c == '_';
    }) && !std::isdigit(static_cast<unsigned char>(key.front()));
}

std::string memberPath(const std::string& path, const std::string& key) {
    return isIdentifier(key) ? path + "." + key : path + "[" + json(key).dump() + "]";
}

std::string render(const json& v, std::size_t maxChars) {
    return diffValueText(v.dump(-1, ' ', false, json::error_handler_t::replace), maxChars);
}

bool sameKind(const json& a, const json& b) {
    return a.type() == b.type() || (a.is_number() && b.is_number());
}

}  // namespace

void diffJsonValues(const json& a, const json& b, const std::string& path,
                    std::vector<DiffField>& out, std::size_t& more, std::size_t maxChars) {
    auto add = [&](DiffKind kind, const std::string& at, const json* av, const json* bv) {
        if (out.size() >= kMaxJsonDiffFields) {
            ++more;
            return;
        }
        out.push_back({at, kind, av ? render(*av, maxChars) : std::string(),
                       bv ? render(*bv, maxChars) : std::string()});
    };
    if (!sameKind(a, b)) {
        add(DiffKind::Changed, path, &a, &b);
        return;
    }
    if (a.is_object()) {
        for (const auto& [key, value] : a.items()) {
            const auto it = b.find(key);
            if (it == b.end()) {
                add(DiffKind::Removed, memberPath(path, key), &value, nullptr);
            } else {
                diffJsonValues(value, *it, memberPath(path, key), out, more, maxChars);
            }
        }
        for (const auto& [key, value] : b.items()) {
            if (!a.contains(key)) {
                add(DiffKind::Added, memberPath(path, key), nullptr, &value);
            }
        }
        return;
    }
    if (a.is_array()) {
        const std::size_t common = std::min(a.size(), b.size());
        for (std::size_t i = 0; i < common; ++i) {
            diffJsonValues(a[i], b[i], path + "[" + std::to_string(i) + "]", out, more, maxChars);
        }
        for (std::size_t i = common; i < a.size(); ++i) {
            add(DiffKind::Removed, path + "[" + std::to_string(i) + "]", &a[i], nullptr);
        }
        for (std::size_t i = common; i < b.size(); ++i) {
            add(DiffKind::Added, path + "[" + std::to_string(i) + "]", nullptr, &b[i]);
        }
        return;
    }
    if (a != b) {
        add(DiffKind::Changed, path, &a, &b);
    }
}

}  // namespace strata
