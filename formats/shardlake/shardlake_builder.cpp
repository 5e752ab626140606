// The Shardlake builder's shared part: input lines parsed (one thread's share, or a whole file
// over the threads), the files it writes, and the fingerprint and time stamp it records.
#include "shardlake_builder.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>

#include <nlohmann/json.hpp>

#include "formats/common/atomic_file.h"
#include "formats/common/bounds.h"
#include "shardlake_builder_internal.h"
#include "shardlake_kmeans.h"

namespace strata::shardlake {

namespace fs = std::filesystem;

std::string RecordParser::parse(std::string_view text, Chunk& chunk) {
    buffer_.resize(text.size() + simdjson::SIMDJSON_PADDING);
    std::memcpy(buffer_.data(), text.data(), text.size());
    const simdjson::padded_string_view input(buffer_.data(), text.size(), buffer_.size());
    simdjson::ondemand::document doc;
    simdjson::ondemand::object object;
    if (parser_.iterate(input).get(doc) != simdjson::SUCCESS ||
        doc.get_object().get(object) != simdjson::SUCCESS) {
        return "not a JSON object";
    }
    ParsedLine line;
    line.valuesBegin = chunk.values.size();
    bool hasId = false;
    bool hasValues = false;
    for (auto field : object) {
        std::string_view key;
        if (field.unescaped_key().get(key) != simdjson::SUCCESS) {
            return "not a JSON object";
        }
        if (key == "id") {
            if (field.value().get_uint64().get(line.id) != simdjson::SUCCESS) {
                return "missing numeric id";
            }
            hasId = true;
        } else if (key == vectorKey_) {
            chunk.values.resize(line.valuesBegin);  // a repeated key: the last one counts
            if (std::string error = readValues(field.value(), chunk); !error.empty()) {
                return error;
            }
            hasValues = true;
        } else if (key == "metadata" && keepMetadata_) {
            line.hasMetadata = true;
        }
    }
    if (line.hasMetadata) {
        // Metadata is rare and free-form: the whole line goes through the full parser.
        try {
            line.metadata = nlohmann::ordered_json::parse(text).at("metadata").dump();
        } catch (const std::exception& e) {
            return std::string("metadata: ") + e.what();
        }
    }
    if (!hasId) {
        return "missing numeric id";
    }
    if (!hasValues) {
        return "missing " + vectorKey_ + " array";
    }
    line.valuesCount = chunk.values.size() - line.valuesBegin;
    chunk.lines.push_back(std::move(line));
    return {};
}

std::string RecordParser::readValues(simdjson::simdjson_result<simdjson::ondemand::value> value,
                                     Chunk& chunk) {
    simdjson::ondemand::array array;
    if (value.get_array().get(array) != simdjson::SUCCESS) {
        return "missing " + vectorKey_ + " array";
    }
    for (auto element : array) {
        double number = 0;
        if (element.get_double().get(number) != simdjson::SUCCESS) {
            return "element " + std::to_string(chunk.values.size()) +
                   ": vector value is not a number";
        }
        chunk.values.push_back(static_cast<float>(number));
    }
    return {};
}

std::string parseRecords(std::string_view text, std::string_view vectorKey, bool keepMetadata,
                         unsigned threads, const CancelToken* cancel, std::vector<Chunk>& out) {
    const std::size_t workers = std::max<std::size_t>(
        1, std::min<std::size_t>(effectiveThreads(threads), text.size() / (1 << 16) + 1));
    std::vector<std::size_t> starts{0};
    for (std::size_t t = 1; t < workers; ++t) {
        std::size_t at = text.size() * t / workers;
        const std::size_t newline = text.find('\n', std::max(at, starts.back()));
        at = newline == std::string_view::npos ? text.size() : newline + 1;
        starts.push_back(at);
    }
    starts.push_back(text.size());
    out.assign(workers, {});
    std::vector<std::size_t> firstLine(workers, 1);
    for (std::size_t t = 1; t < workers; ++t) {
        const std::string_view part = text.substr(starts[t - 1], starts[t] - starts[t - 1]);
        firstLine[t] =
            firstLine[t - 1] + static_cast<std::size_t>(std::count(part.begin(), part.end(), '\n'));
    }
    parallelRanges(workers, static_cast<unsigned>(workers), [&](std::size_t a, std::size_t b) {
        for (std::size_t t = a; t < b; ++t) {
            RecordParser parser(vectorKey, keepMetadata);
            std::size_t lineNumber = firstLine[t];
            std::size_t at = starts[t];
            while (at < starts[t + 1]) {
                if (cancel != nullptr && (lineNumber & 0x3ff) == 0 && cancel->cancelled()) {
                    out[t].error = "cancelled";
                    return;
                }
                std::size_t end = text.find('\n', at);
                end = end == std::string_view::npos || end > starts[t + 1] ? starts[t + 1] : end;
                std::string_view line = text.substr(at, end - at);
                if (!line.empty() && line.back() == '\r') {
                    line.remove_suffix(1);
                }
                if (line.find_first_not_of(" \t\r\n\f\v") != std::string_view::npos) {
                    if (std::string error = parser.parse(line, out[t]); !error.empty()) {
                        out[t].error = "line " + std::to_string(lineNumber) + ": " + error;
                        return;
                    }
                }
                ++lineNumber;
                at = end + 1;
            }
        }
    });
    for (const Chunk& chunk : out) {
        if (!chunk.error.empty()) {
            return chunk.error;
        }
    }
    return {};
}

std::string_view textOf(const ByteSource& source) {
    const ByteView view = source.view(0, source.size());
    return {reinterpret_cast<const char*>(view.data()), static_cast<std::size_t>(view.size())};
}

void writeFile(const fs::path& path, std::string_view bytes) {
    fs::create_directories(path.parent_path());
    AtomicFile file(path);
    file.write(bytes);
    file.commit();
}

std::string fingerprintHex(const std::uint8_t* data, std::size_t size) {
    std::uint64_t hash = 0xcbf29ce484222325ull;
    for (std::size_t i = 0; i < size; ++i) {
        hash = (hash ^ data[i]) * 0x100000001b3ull;
    }
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
    return text;
}

std::string rfc3339Now() {
    const auto now = std::chrono::system_clock::now();
    const auto nanos =
        std::chrono::duration_cast<std::chrono::nanoseconds>(now.time_since_epoch()).count();
    const std::time_t seconds = static_cast<std::time_t>(nanos / 1000000000);
    long fraction = static_cast<long>(nanos % 1000000000);
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char text[64];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &utc);
    std::string out = text;
    if (fraction != 0) {
        int digits = 9;
        while (digits > 3 && fraction % 1000 == 0) {
            fraction /= 1000;
            digits -= 3;
        }
        char part[32];
        std::snprintf(part, sizeof part, ".%0*ld", digits, fraction);
        out += part;
    }
    return out + 'Z';
}

}  // namespace strata::shardlake
