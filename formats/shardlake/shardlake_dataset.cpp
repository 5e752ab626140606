#include "shardlake_dataset.h"

#include <cmath>
#include <cstring>

#include <nlohmann/json.hpp>

namespace strata::shardlake {

namespace {

void parseLine(std::string_view text, DatasetLine& line) {
    const nlohmann::json value = nlohmann::json::parse(text, nullptr, false);
    if (value.is_discarded() || !value.is_object()) {
        line.error = "not a JSON object";
        return;
    }
    const auto id = value.find("id");
    if (id == value.end() || !id->is_number_unsigned()) {
        line.error = "\"id\" missing or not a non-negative integer";
    } else {
        line.id = id->get<std::uint64_t>();
    }
    auto data = value.find("data");
    if (data == value.end()) {
        data = value.find("vector");
    }
    if (data == value.end() || !data->is_array()) {
        line.error = "\"data\" missing or not an array";
        return;
    }
    line.hasValues = true;
    line.values.reserve(data->size());
    for (const auto& element : *data) {
        if (!element.is_number()) {
            line.error = "\"data\" holds a value that is not a number";
            return;
        }
        const float f = static_cast<float>(element.get<double>());
        line.nonFinite = line.nonFinite || !std::isfinite(f);
        line.values.push_back(f);
    }
}

}  // namespace

void forEachDatasetLine(const ByteSource& source,
                        const std::function<bool(const DatasetLine&)>& visit) {
    const ByteView view = source.view(0, source.size());
    const char* text = reinterpret_cast<const char*>(view.data());
    const std::uint64_t size = view.size();
    std::uint64_t start = 0;
    std::uint64_t lineNumber = 0;
    while (start < size) {
        const void* found = std::memchr(text + start, '\n', size - start);
        const std::uint64_t end =
            found != nullptr ? static_cast<std::uint64_t>(static_cast<const char*>(found) - text)
                             : size;
        ++lineNumber;
        std::string_view line(text + start, end - start);
        if (line.find_first_not_of(" \t\r") != std::string_view::npos) {
            DatasetLine parsed;
            parsed.lineNumber = lineNumber;
            parsed.region = {&source, start, end - start};
            parseLine(line, parsed);
            if (!visit(parsed)) {
                return;
            }
        }
        start = end + 1;
    }
}

std::vector<DatasetVector> readDatasetVectors(const ByteSource& source, std::string* error) {
    std::vector<DatasetVector> out;
    forEachDatasetLine(source, [&](const DatasetLine& line) {
        if (!line.error.empty() || !line.id) {
            if (error != nullptr) {
                *error = "line " + std::to_string(line.lineNumber) + ": " + line.error;
            }
            return false;
        }
        out.push_back({*line.id, line.values});
        return true;
    });
    return out;
}

}  // namespace strata::shardlake
