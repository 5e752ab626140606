#include "shardlake_json_writer.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace strata::shardlake {

namespace {

using ojson = nlohmann::ordered_json;

// Appends the shortest representation in Rust's layout: plain decimals while the decimal
// exponent kk (value = 0.DIGITS × 10^kk) is within (lowest, highest], else scientific.
template <typename T>
void appendFloat(std::string& out, T value, int lowest, int highest) {
    if (!std::isfinite(value)) {
        out += "null";
        return;
    }
    if (value == 0) {
        out += std::signbit(value) ? "-0.0" : "0.0";
        return;
    }
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, std::fabs(value),
                                      std::chars_format::scientific);
    const char* e = std::find(buffer, result.ptr, 'e');
    char digits[40];
    int length = 0;
    for (const char* c = buffer; c < e; ++c) {
        if (*c != '.') {
            digits[length++] = *c;
        }
    }
    int exponent = 0;
    std::from_chars(e + 1 + (e[1] == '+' ? 1 : 0), result.ptr, exponent);
    const int kk = exponent + 1;
    const int k = kk - length;
    if (std::signbit(value)) {
        out += '-';
    }
    if (k >= 0 && kk <= highest) {
        out.append(digits, static_cast<std::size_t>(length));
        out.append(static_cast<std::size_t>(k), '0');
        out += ".0";
    } else if (kk > 0 && kk <= highest) {
        out.append(digits, static_cast<std::size_t>(kk));
        out += '.';
        out.append(digits + kk, static_cast<std::size_t>(length - kk));
    } else if (kk > lowest && kk <= 0) {
        out += "0.";
        out.append(static_cast<std::size_t>(-kk), '0');
        out.append(digits, static_cast<std::size_t>(length));
    } else {
        out += digits[0];
        if (length > 1) {
            out += '.';
            out.append(digits + 1, static_cast<std::size_t>(length - 1));
        }
        out += 'e';
        out += std::to_string(kk - 1);
    }
}

std::string numberText(const ojson& value, FloatText floats) {
    if (value.is_number_unsigned()) {
        return std::to_string(value.get<std::uint64_t>());
    }
    if (value.is_number_integer()) {
        return std::to_string(value.get<std::int64_t>());
    }
    const double d = value.get<double>();
    if (floats == FloatText::F32WhenExact && static_cast<double>(static_cast<float>(d)) == d) {
        return formatF32(static_cast<float>(d));
    }
    return formatF64(d);
}

void appendScalar(const ojson& value, std::string& out, FloatText floats) {
    if (value.is_string()) {
        out += quoteJson(value.get_ref<const std::string&>());
    } else if (value.is_number()) {
        out += numberText(value, floats);
    } else if (value.is_boolean()) {
        out += value.get<bool>() ? "true" : "false";
    } else {
        out += "null";
    }
}

}  // namespace

void appendF32(std::string& out, float value) {
    appendFloat(out, value, -6, 13);
}

std::string formatF32(float value) {
    std::string out;
    appendF32(out, value);
    return out;
}

std::string formatF64(double value) {
    std::string out;
    appendFloat(out, value, -5, 16);
    return out;
}

std::string quoteJson(std::string_view text) {
    std::string out = "\"";
    for (const char c : text) {
        switch (c) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\b':
                out += "\\b";
                break;
            case '\f':
                out += "\\f";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\r':
                out += "\\r";
                break;
            case '\t':
                out += "\\t";
                break;
            default:
                if (static_cast<unsigned char>(c) < 0x20) {
                    char buffer[8];
                    std::snprintf(buffer, sizeof buffer, "\\u%04x", static_cast<unsigned>(c));
                    out += buffer;
                } else {
                    out += c;
                }
        }
    }
    out += '"';
    return out;
}

void appendCompactJson(const ojson& value, std::string& out, FloatText floats) {
    if (value.is_object()) {
        out += '{';
        bool first = true;
        for (const auto& [key, item] : value.items()) {
            out += first ? "" : ",";
            first = false;
            out += quoteJson(key) + ':';
            appendCompactJson(item, out, floats);
        }
        out += '}';
    } else if (value.is_array()) {
        out += '[';
        for (std::size_t i = 0; i < value.size(); ++i) {
            out += i == 0 ? "" : ",";
            appendCompactJson(value[i], out, floats);
        }
        out += ']';
    } else {
        appendScalar(value, out, floats);
    }
}

void appendPrettyJson(const ojson& value, std::string& out, FloatText floats, int depth) {
    const std::string inner(static_cast<std::size_t>(depth + 1) * 2, ' ');
    const std::string outer(static_cast<std::size_t>(depth) * 2, ' ');
    if (value.is_object() && !value.empty()) {
        out += "{\n";
        bool first = true;
        for (const auto& [key, item] : value.items()) {
            out += first ? "" : ",\n";
            first = false;
            out += inner + quoteJson(key) + ": ";
            appendPrettyJson(item, out, floats, depth + 1);
        }
        out += '\n' + outer + '}';
    } else if (value.is_array() && !value.empty()) {
        out += "[\n";
        for (std::size_t i = 0; i < value.size(); ++i) {
            out += i == 0 ? "" : ",\n";
            out += inner;
            appendPrettyJson(value[i], out, floats, depth + 1);
        }
        out += '\n' + outer + ']';
    } else if (value.is_object()) {
        out += "{}";
    } else if (value.is_array()) {
        out += "[]";
    } else {
        appendScalar(value, out, floats);
    }
}

ojson objectOfUniqueKeys(std::map<std::string, ojson> entries) {
    ojson out = ojson::object();
    // ordered_map is a vector of pairs: appending to it directly skips the key search.
    using Pairs = std::vector<std::pair<const std::string, ojson>>;
    auto& pairs = static_cast<Pairs&>(out.get_ref<ojson::object_t&>());
    pairs.reserve(entries.size());
    while (!entries.empty()) {
        auto node = entries.extract(entries.begin());
        pairs.emplace_back(std::move(node.key()), std::move(node.mapped()));
    }
    return out;
}

std::string prettyJson(const ojson& value, FloatText floats) {
    std::string out;
    appendPrettyJson(value, out, floats);
    return out;
}

}  // namespace strata::shardlake
