#include "json_diff.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

namespace strata {

namespace {

using json = nlohmann::json;

// Builds a value from SAX events, keeping the text of every number that is not a 64-bit integer.
class ExactBuilder final : public nlohmann::json_sax<json> {
public:
    json take() { return std::move(root_); }

    bool null() override { return put(nullptr); }
    bool boolean(bool value) override { return put(value); }
    bool number_integer(number_integer_t value) override { return put(value); }
    bool number_unsigned(number_unsigned_t value) override { return put(value); }
    bool number_float(number_float_t, const string_t& text) override {
        return put(json::binary(json::binary_t::container_type(text.begin(), text.end()),
                                kJsonNumberTextSubtype));
    }
    bool string(string_t& value) override { return put(std::move(value)); }
    bool binary(binary_t& value) override { return put(json::binary(std::move(value))); }
    bool start_object(std::size_t) override { return open(json::object()); }
    bool key(string_t& key) override {
        member_ = &(*open_.back())[key];  // a repeated key: the last one wins, as in every reader
        return true;
    }
    bool end_object() override { return close(); }
    bool start_array(std::size_t) override { return open(json::array()); }
    bool end_array() override { return close(); }
    bool parse_error(std::size_t, const std::string&, const json::exception&) override {
        return false;
    }

private:
    // Places a value where the parse is: the root, the next array element or the member whose
    // key came last. Containers keep their place while open: only their last child grows.
    json* place(json value) {
        if (open_.empty()) {
            root_ = std::move(value);
            return &root_;
        }
        json& container = *open_.back();
        if (container.is_array()) {
            container.push_back(std::move(value));
            return &container.back();
        }
        *member_ = std::move(value);
        return member_;
    }
    bool put(json value) {
        place(std::move(value));
        return true;
    }
    bool open(json container) {
        open_.push_back(place(std::move(container)));
        return true;
    }
    bool close() {
        open_.pop_back();
        return true;
    }

    json root_;
    std::vector<json*> open_;
    json* member_ = nullptr;
};

bool isNumberText(const json& v) {
    return v.is_binary() && v.get_binary().has_subtype() &&
           v.get_binary().subtype() == kJsonNumberTextSubtype;
}

bool isNumber(const json& v) {
    return v.is_number() || isNumberText(v);
}

std::string numberTextOf(const json& v) {
    const auto& bytes = v.get_binary();
    return std::string(bytes.begin(), bytes.end());
}

// A decimal number as "[-]DIGITSeEXPONENT" with no leading or trailing zeros in DIGITS ("0" for
// zero, whatever its sign or spelling), so two spellings of one number give one text. A number
// whose exponent does not fit is kept as written.
std::string canonicalNumber(std::string_view text) {
    std::size_t i = 0;
    const bool negative = i < text.size() && text[i] == '-';
    i += negative ? 1 : 0;
    std::string digits;
    long long exponent = 0;
    for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i) {
        digits += text[i];
    }
    if (i < text.size() && text[i] == '.') {
        for (++i; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i) {
            digits += text[i];
            --exponent;
        }
    }
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        const bool negativeExponent = i < text.size() && text[i] == '-';
        i += i < text.size() && (text[i] == '-' || text[i] == '+') ? 1 : 0;
        std::string_view written = text.substr(i);
        written.remove_prefix(std::min(written.find_first_not_of('0'), written.size()));
        long long value = 0;
        if (!written.empty() &&
            (written.size() > 15 ||
             std::from_chars(written.data(), written.data() + written.size(), value).ec !=
                 std::errc())) {
            return std::string(text);
        }
        exponent += negativeExponent ? -value : value;
    }
    const std::size_t first = digits.find_first_not_of('0');
    if (first == std::string::npos) {
        return "0";
    }
    const std::size_t last = digits.find_last_not_of('0');
    exponent += static_cast<long long>(digits.size() - 1 - last);
    return (negative ? "-" : "") + digits.substr(first, last + 1 - first) + "e" +
           std::to_string(exponent);
}

std::string canonicalNumberOf(const json& v) {
    if (isNumberText(v)) {
        return canonicalNumber(numberTextOf(v));
    }
    if (v.is_number_unsigned()) {
        return canonicalNumber(std::to_string(v.get<std::uint64_t>()));
    }
    if (v.is_number_integer()) {
        return canonicalNumber(std::to_string(v.get<std::int64_t>()));
    }
    const double d = v.get<double>();  // a decoded binary float (CBOR): exact as it is
    if (!std::isfinite(d)) {
        return std::isnan(d) ? "nan" : (d < 0 ? "-inf" : "inf");
    }
    char buffer[64];
    const auto end = std::to_chars(buffer, buffer + sizeof buffer, d).ptr;
    return canonicalNumber(std::string_view(buffer, static_cast<std::size_t>(end - buffer)));
}

bool isIdentifier(const std::string& key) {
    return !key.empty() && std::all_of(key.begin(), key.end(), [](unsigned char c) {
        return std::isalnum(c) || c == '_';
    }) && !std::isdigit(static_cast<unsigned char>(key.front()));
}

std::string memberPath(const std::string& path, const std::string& key) {
    return isIdentifier(key) ? path + "." + key : path + "[" + jsonText(json(key)) + "]";
}

void appendText(const json& v, std::string& out) {
    if (v.is_object()) {
        out += '{';
        for (auto it = v.begin(); it != v.end(); ++it) {
            out += it == v.begin() ? "" : ",";
            appendText(json(it.key()), out);
            out += ':';
            appendText(*it, out);
        }
        out += '}';
    } else if (v.is_array()) {
        out += '[';
        for (std::size_t i = 0; i < v.size(); ++i) {
            out += i == 0 ? "" : ",";
            appendText(v[i], out);
        }
        out += ']';
    } else if (isNumberText(v)) {
        out += numberTextOf(v);
    } else {
        out += v.dump(-1, ' ', false, json::error_handler_t::replace);
    }
}

std::string render(const json& v, std::size_t maxChars) {
    return diffValueText(jsonText(v), maxChars);
}

bool sameKind(const json& a, const json& b) {
    return a.type() == b.type() || (isNumber(a) && isNumber(b));
}

}  // namespace

std::optional<json> parseJsonExact(std::string_view text) {
    ExactBuilder builder;
    if (!json::sax_parse(text.begin(), text.end(), &builder, json::input_format_t::json, true)) {
        return std::nullopt;
    }
    return builder.take();
}

bool sameJsonValue(const json& a, const json& b) {
    if (isNumber(a) && isNumber(b)) {
        return canonicalNumberOf(a) == canonicalNumberOf(b);
    }
    if (a.type() != b.type()) {
        return false;
    }
    if (a.is_object()) {
        if (a.size() != b.size()) {
            return false;
        }
        for (auto it = a.begin(); it != a.end(); ++it) {
            const auto other = b.find(it.key());
            if (other == b.end() || !sameJsonValue(*it, *other)) {
                return false;
            }
        }
        return true;
    }
    if (a.is_array()) {
        if (a.size() != b.size()) {
            return false;
        }
        for (std::size_t i = 0; i < a.size(); ++i) {
            if (!sameJsonValue(a[i], b[i])) {
                return false;
            }
        }
        return true;
    }
    return a == b;
}

std::string jsonText(const json& value) {
    std::string out;
    appendText(value, out);
    return out;
}

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
        for (auto it = a.begin(); it != a.end(); ++it) {
            const auto other = b.find(it.key());
            if (other == b.end()) {
                add(DiffKind::Removed, memberPath(path, it.key()), &*it, nullptr);
            } else {
                diffJsonValues(*it, *other, memberPath(path, it.key()), out, more, maxChars);
            }
        }
        for (auto it = b.begin(); it != b.end(); ++it) {
            if (!a.contains(it.key())) {
                add(DiffKind::Added, memberPath(path, it.key()), nullptr, &*it);
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
    if (!sameJsonValue(a, b)) {
        add(DiffKind::Changed, path, &a, &b);
    }
}

}  // namespace strata
