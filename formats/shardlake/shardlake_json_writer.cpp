#include "shardlake_json_writer.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace strata::shardlake {

namespace {

using ojson = nlohmann::ordered_json;

// Digits and decimal exponent of the shortest representation: value = 0.DIGITS × 10^kk.
struct Decimal {
    std::string digits;
    int kk = 0;
};

template <typename T>
Decimal shortestDecimal(T value) {
    char buffer[64];
    const auto result =
        std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::scientific);
    const std::string_view text(buffer, static_cast<std::size_t>(result.ptr - buffer));
    const std::size_t e = text.find('e');
    Decimal out;
    for (char c : text.substr(0, e)) {
        if (c >= '0' && c <= '9') {
            out.digits += c;
        }
    }
    int exponent = 0;
    const std::string_view exp = text.substr(e + 1);
    std::from_chars(exp.data() + (exp.front() == '+' ? 1 : 0), exp.data() + exp.size(), exponent);
    out.kk = exponent + 1;
    return out;
}

// Rust's layout: plain decimals while the exponent is within [lowest, highest], else scientific.
std::string layOut(bool negative, const Decimal& d, int lowest, int highest) {
    std::string out = negative ? "-" : "";
    const int length = static_cast<int>(d.digits.size());
    const int kk = d.kk;
    const int k = kk - length;
    if (k >= 0 && kk <= highest) {
        out += d.digits + std::string(static_cast<std::size_t>(k), '0') + ".0";
    } else if (kk > 0 && kk <= highest) {
        out += d.digits.substr(0, static_cast<std::size_t>(kk)) + '.' +
               d.digits.substr(static_cast<std::size_t>(kk));
    } else if (kk > lowest && kk <= 0) {
        out += "0." + std::string(static_cast<std::size_t>(-kk), '0') + d.digits;
    } else {
        out += d.digits.substr(0, 1);
        if (length > 1) {
            out += '.' + d.digits.substr(1);
        }
        out += 'e' + std::to_string(kk - 1);
    }
    return out;
}

template <typename T>
std::string formatFloat(T value, int lowest, int highest) {
    if (!std::isfinite(value)) {
        return "null";
    }
    if (value == 0) {
        return std::signbit(value) ? "-0.0" : "0.0";
    }
    return layOut(std::signbit(value), shortestDecimal(std::fabs(value)), lowest, highest);
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

std::string formatF32(float value) {
    return formatFloat(value, -6, 13);
}

std::string formatF64(double value) {
    return formatFloat(value, -5, 16);
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

std::string prettyJson(const ojson& value, FloatText floats) {
    std::string out;
    appendPrettyJson(value, out, floats);
    return out;
}

}  // namespace strata::shardlake
