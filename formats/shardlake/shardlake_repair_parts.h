// Internal to the Shardlake repair (shardlake_repair.h): what its parts share. The output
// plan (files copied, generated or assembled from record runs), the context a repair fills, and
// small JSON and byte helpers. Parts: shardlake_repair_dataset.cpp (datasets),
// shardlake_repair_index*.cpp (indexes), shardlake_repair.cpp (aliases, the root, writing).
#pragma once

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "formats/common/checksums.h"
#include "formats/common/counted.h"
#include "formats/common/le_reader.h"
#include "shardlake_alias_edit.h"
#include "shardlake_binary.h"
#include "shardlake_builder.h"
#include "shardlake_checks.h"
#include "shardlake_dataset.h"
#include "shardlake_json.h"
#include "shardlake_json_writer.h"
#include "shardlake_manifest.h"
#include "shardlake_search.h"
#include "shardlake_store.h"
#include "shardlake_validator.h"

#include "formats/common/repair.h"

namespace strata::shardlake::repair {

namespace fs = std::filesystem;
using ojson = nlohmann::ordered_json;

inline constexpr std::uint64_t kChunk = 4u << 20;
// Larger values are not believed: a damaged field, not a real file.
inline constexpr std::uint32_t kMaxDims = 1u << 20;
inline constexpr std::uint32_t kMaxCentroidsPerShard = 64;

inline Region wholeOf(const ByteSourcePtr& source) {
    return source ? Region{source.get(), 0, source->size()} : Region{};
}

inline bool isLeftoverName(const std::string& name) {
    return name.starts_with(".") && name.find(".strata-") != std::string::npos;
}

inline std::string lower(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

// The text of a JSON document; empty past kMaxJsonBytes (no document of a root is that large,
// and reading it would not be bounded).
inline std::string textOf(const ByteSource& source) {
    if (source.size() > kMaxJsonBytes) {
        return {};
    }
    const ByteView view = source.view(0, source.size());
    return {reinterpret_cast<const char*>(view.data()), view.size()};
}

inline std::optional<ojson> parseObject(std::string_view text) {
    ojson value = ojson::parse(text.begin(), text.end(), nullptr, false);
    if (value.is_discarded() || !value.is_object()) {
        return std::nullopt;
    }
    return value;
}

// The members of a JSON object cut short (or broken part-way): the longest prefix ending after a
// complete top-level member, closed with `}`. `readUpTo` gets where that prefix ends.
inline std::optional<ojson> salvagePrefix(std::string_view text, std::size_t* readUpTo = nullptr) {
    std::vector<std::size_t> commas;
    int depth = 0;
    bool inString = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\') {
                ++i;
            } else if (c == '"') {
                inString = false;
            }
            continue;
        }
        if (c == '"') {
            inString = true;
        } else if (c == '{' || c == '[') {
            ++depth;
        } else if (c == '}' || c == ']') {
            --depth;
        } else if (c == ',' && depth == 1) {
            commas.push_back(i);
        }
    }
    int tries = 0;
    for (auto it = commas.rbegin(); it != commas.rend() && tries < 64; ++it, ++tries) {
        std::string candidate(text.substr(0, *it));
        candidate += "\n}";
        if (auto value = parseObject(candidate)) {
            if (readUpTo != nullptr) {
                *readUpTo = *it;
            }
            return value;
        }
    }
    return std::nullopt;
}

// A member of a damaged JSON document that could not be read: its path ("build_metadata.built_at",
// "shards[2]"; empty for whatever followed where the text is cut short) and its bytes in the
// document's text.
struct LostMember {
    std::string path;
    std::uint64_t offset = 0;
    std::uint64_t length = 0;
};

struct SalvagedJson {
    ojson value;
    std::vector<LostMember> lost;
};

// Every member of a damaged pretty-printed JSON object (two spaces per level, as Shardlake and
// Strata write them) whose text still parses, nested objects read member by member (an array of
// values only whole); empty when the text is not in that layout or no member can be read.
std::optional<SalvagedJson> salvageByLayout(std::string_view text);

inline std::optional<std::uint64_t> unsignedAt(const ojson& object, const char* key) {
    if (!object.is_object()) {
        return std::nullopt;
    }
    const auto it = object.find(key);
    if (it == object.end() || !it->is_number_unsigned()) {
        return std::nullopt;
    }
    return it->get<std::uint64_t>();
}

inline std::string stringAt(const ojson& object, const char* key) {
    if (!object.is_object()) {
        return {};
    }
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

inline std::optional<std::vector<float>> floatsAt(const ojson& object, const char* key) {
    if (!object.is_object()) {
        return std::nullopt;
    }
    const auto it = object.find(key);
    if (it == object.end() || !it->is_array()) {
        return std::nullopt;
    }
    std::vector<float> values;
    for (const ojson& v : *it) {
        if (!v.is_number()) {
            return std::nullopt;
        }
        values.push_back(static_cast<float>(v.get<double>()));
    }
    return values;
}

// A JSON value on one line for a report (invalid UTF-8 replaced, never thrown on).
inline std::string shown(const ojson& value) {
    return value.dump(-1, ' ', false, ojson::error_handler_t::replace);
}

inline ojson floatArray(const std::vector<float>& values) {
    ojson out = ojson::array();
    for (const float f : values) {
        out.push_back(static_cast<double>(f));
    }
    return out;
}

inline bool sameBits(const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

inline bool allFinite(const std::vector<float>& values) {
    return std::all_of(values.begin(), values.end(), [](float v) { return std::isfinite(v); });
}

inline std::string shardFileKey(const std::string& version, std::uint64_t id) {
    char name[48];
    std::snprintf(name, sizeof name, "shard-%04llu.sidx", static_cast<unsigned long long>(id));
    return "indexes/" + version + "/shards/" + name;
}

inline std::string centroidName(std::uint64_t id) {
    char name[48];
    std::snprintf(name, sizeof name, "shard-%04llu", static_cast<unsigned long long>(id));
    return name;
}

inline void appendLe(std::string& out, std::uint64_t value, int bytes) {
    for (int i = 0; i < bytes; ++i) {
        out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
    }
}

inline void appendFloats(std::string& out, const std::vector<float>& values) {
    for (const float f : values) {
        std::uint32_t bits = 0;
        std::memcpy(&bits, &f, 4);
        appendLe(out, bits, 4);
    }
}

// The most frequent value; on a tie the preferred one when it is among the tied, else none.
template <typename T>
inline std::optional<T> vote(const std::vector<T>& values,
                             std::optional<T> preferred = std::nullopt) {
    std::map<T, std::size_t> counts;
    for (const T& v : values) {
        ++counts[v];
    }
    std::optional<T> best;
    std::size_t bestCount = 0;
    bool tie = false;
    for (const auto& [value, count] : counts) {
        if (count > bestCount) {
            best = value;
            bestCount = count;
            tie = false;
        } else if (count == bestCount) {
            tie = true;
        }
    }
    if (tie) {
        if (preferred && counts.contains(*preferred) && counts[*preferred] == bestCount) {
            return preferred;
        }
        return std::nullopt;
    }
    return best;
}

// One file of the output: copied whole, or generated text followed by runs of records copied
// from another file.
struct OutFile {
    std::string key;
    ByteSourcePtr copy;
    std::string text;
    ByteSourcePtr records;
    std::uint64_t recordsOffset = 0;
    std::uint64_t recordSize = 0;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> runs;  // [first record, count)
    // Writes the whole file when set (text generated while it is written, not held).
    std::function<void(std::ostream&)> generate;
};

inline void writeOut(const fs::path& root, const OutFile& file, const CancelToken* cancel) {
    const fs::path path = root / file.key;
    fs::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) {
        throw RepairError("cannot write " + path.string());
    }
    auto copyRange = [&](const ByteSource& source, std::uint64_t offset, std::uint64_t length) {
        for (std::uint64_t done = 0; done < length;) {
            if (cancel != nullptr && cancel->cancelled()) {
                throw JobCancelled();
            }
            const std::uint64_t n = std::min(kChunk, length - done);
            const ByteView view = source.view(offset + done, n);
            if (view.size() != n) {
                throw RepairError("cannot read " + source.name());
            }
            out.write(reinterpret_cast<const char*>(view.data()), static_cast<std::streamsize>(n));
            done += n;
        }
    };
    if (file.generate) {
        file.generate(out);
    } else if (file.copy) {
        copyRange(*file.copy, 0, file.copy->size());
    } else {
        out.write(file.text.data(), static_cast<std::streamsize>(file.text.size()));
        for (const auto& [first, count] : file.runs) {
            copyRange(*file.records, file.recordsOffset + first * file.recordSize,
                      count * file.recordSize);
        }
    }
    out.close();
    if (!out) {
        throw RepairError("cannot write " + path.string());
    }
}

inline std::uint64_t fingerprintOfOut(const OutFile& file) {
    Fnv1a64 hash;
    if (file.copy) {
        return fingerprintOf(*file.copy, nullptr);
    }
    hash.update({reinterpret_cast<const std::uint8_t*>(file.text.data()), file.text.size()});
    for (const auto& [first, count] : file.runs) {
        const std::uint64_t offset = file.recordsOffset + first * file.recordSize;
        const std::uint64_t length = count * file.recordSize;
        for (std::uint64_t done = 0; done < length;) {
            const std::uint64_t n = std::min(kChunk, length - done);
            hash.update(file.records->view(offset + done, n).bytes);
            done += n;
        }
    }
    return hash.value();
}

struct KeptIndex {
    std::string version;
    std::string alias;  // the manifest's `alias`
    std::string builtAt;
};

struct Context {
    std::shared_ptr<const Store> store;
    const RepairOptions& options;
    RepairReport& report;
    std::vector<OutFile> files;
    std::set<std::string> outKeys;
    std::set<std::string> datasets;  // dataset versions written
    std::map<std::string, ojson> datasetInfo;
    // Ids whose dataset lines were dropped for repeating: not compared with shard records.
    std::map<std::string, std::set<std::uint64_t>> repeatedIds;
    std::vector<KeptIndex> indexes;
    // Required manifest fields written absent because they could not be read and nothing else
    // records them (manifest key → field names): the only errors the output's check allows.
    std::map<std::string, std::set<std::string>> absentFields;

    void add(OutFile file) {
        outKeys.insert(file.key);
        files.push_back(std::move(file));
    }
    void action(std::string text, Region region = {}) {
        report.actions.emplace_back(std::move(text), region);
    }
    void loss(std::string text, Region region = {}) {
        report.losses.emplace_back(std::move(text), region);
    }
    void checkCancel() const {
        if (options.cancel != nullptr && options.cancel->cancelled()) {
            throw JobCancelled();
        }
    }
};

// Plans dataset `name` into the context: files to copy or rebuild, losses and actions.
void repairDataset(Context& ctx, const std::string& name);
// Plans index version `version` (after every dataset was planned).
void repairIndex(Context& ctx, const std::string& version);

}  // namespace strata::shardlake::repair
