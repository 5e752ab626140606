// JSON text the way Shardlake writes it (serde_json): numbers in shortest round-trip form with
// Rust's layout ("1.0", "0.001", "1e-7"), strings escaped as serde_json does, pretty output
// indented by two spaces with no trailing newline, compact output without any spaces.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace strata::shardlake {

// Shortest text that reads back as the same f32 / f64, laid out as Rust's float printing does.
std::string formatF32(float value);
void appendF32(std::string& out, float value);
std::string formatF64(double value);

// A JSON string literal with quotes.
std::string quoteJson(std::string_view text);

// How non-integer numbers of a value tree are printed.
enum class FloatText {
    F64,           // every float as an f64 (dataset metadata)
    F32WhenExact,  // floats that are exactly an f32 as that f32 (manifests: centroids)
};

// serde_json::to_string layout: no whitespace; keys in the value's own order.
void appendCompactJson(const nlohmann::ordered_json& value, std::string& out,
                       FloatText floats = FloatText::F64);
// serde_json::to_string_pretty layout: two-space indent, "key": value, no trailing newline.
void appendPrettyJson(const nlohmann::ordered_json& value, std::string& out,
                      FloatText floats = FloatText::F64, int depth = 0);
std::string prettyJson(const nlohmann::ordered_json& value, FloatText floats = FloatText::F64);

// An object of `entries` in their order, keys unique: appended without the linear search for
// an existing key that ordered_json's operator[] makes (quadratic for a dataset's metadata.json
// of a million ids).
nlohmann::ordered_json objectOfUniqueKeys(std::map<std::string, nlohmann::ordered_json> entries);

}  // namespace strata::shardlake
