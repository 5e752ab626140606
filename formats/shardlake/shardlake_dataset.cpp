#include "shardlake_dataset.h"

#include <cmath>
#include <cstring>

#include <simdjson.h>

namespace strata::shardlake {

namespace {

// One line at a time through simdjson's on-demand parser: the line is copied into a reusable
// padded buffer (simdjson reads a little past the end of its input).
class LineParser {
public:
    void parse(std::string_view text, DatasetLine& line) {
        buffer_.resize(text.size() + simdjson::SIMDJSON_PADDING);
        std::memcpy(buffer_.data(), text.data(), text.size());
        const simdjson::padded_string_view input(buffer_.data(), text.size(), buffer_.size());
        simdjson::ondemand::document doc;
        simdjson::ondemand::object object;
        if (parser_.iterate(input).get(doc) != simdjson::SUCCESS ||
            doc.get_object().get(object) != simdjson::SUCCESS) {
            line.error = "not a JSON object";
            return;
        }
        for (auto field : object) {
            std::string_view key;
            if (field.unescaped_key().get(key) != simdjson::SUCCESS) {
                line.error = "not a JSON object";
                return;
            }
            if (key == "id") {
                std::uint64_t id = 0;
                if (field.value().get_uint64().get(id) != simdjson::SUCCESS) {
                    line.error = "\"id\" is not a non-negative integer";
                    return;
                }
                line.id = id;
            } else if ((key == "data" || key == "vector") && !line.hasValues) {
                if (!readValues(field.value(), line)) {
                    return;
                }
            }
        }
        if (!line.id && line.error.empty()) {
            line.error = "\"id\" missing";
        } else if (!line.hasValues && line.error.empty()) {
            line.error = "\"data\" missing";
        }
    }

private:
    static bool readValues(simdjson::simdjson_result<simdjson::ondemand::value> value,
                           DatasetLine& line) {
        simdjson::ondemand::array array;
        if (value.get_array().get(array) != simdjson::SUCCESS) {
            line.error = "\"data\" is not an array";
            return false;
        }
        line.hasValues = true;
        for (auto element : array) {
            double number = 0;
            if (element.get_double().get(number) != simdjson::SUCCESS) {
                line.error = "\"data\" holds a value that is not a number";
                return false;
            }
            const float f = static_cast<float>(number);
            line.nonFinite = line.nonFinite || !std::isfinite(f);
            line.values.push_back(f);
        }
        return true;
    }

    simdjson::ondemand::parser parser_;
    std::string buffer_;
};

}  // namespace

void forEachDatasetLine(const ByteSource& source,
                        const std::function<bool(const DatasetLine&)>& visit) {
    const ByteView view = source.view(0, source.size());
    const char* text = reinterpret_cast<const char*>(view.data());
    const std::uint64_t size = view.size();
    std::uint64_t start = 0;
    std::uint64_t lineNumber = 0;
    LineParser parser;
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
            parser.parse(line, parsed);
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
