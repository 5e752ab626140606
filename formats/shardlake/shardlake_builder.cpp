#include "shardlake_builder.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <map>
#include <mutex>
#include <optional>
#include <span>
#include <system_error>

#include <simdjson.h>

#include "formats/common/atomic_file.h"
#include "formats/common/bounds.h"
#include "formats/common/ordered_pool.h"
#include "shardlake_alias_edit.h"
#include "shardlake_dataset.h"
#include "shardlake_json.h"
#include "shardlake_json_writer.h"
#include "shardlake_kmeans.h"
#include "shardlake_manifest.h"

namespace strata::shardlake {

namespace fs = std::filesystem;
using ojson = nlohmann::ordered_json;

namespace {

using Clock = std::chrono::steady_clock;

// One parsed input line: the id, the values and (for ingest) the metadata's JSON text.
struct ParsedLine {
    std::uint64_t id = 0;
    std::size_t valuesBegin = 0;  // into the chunk's value list
    std::size_t valuesCount = 0;
    bool hasMetadata = false;
    std::string metadata;  // raw JSON text
};

// What one thread parsed from its share of the lines, in line order.
struct Chunk {
    std::vector<ParsedLine> lines;
    std::vector<float> values;
    std::string error;  // the first bad line of this chunk
};

class RecordParser {
public:
    // `vectorKey` is "vector" for ingest input and "data" for a dataset's vectors.jsonl.
    RecordParser(std::string_view vectorKey, bool keepMetadata)
        : vectorKey_(vectorKey), keepMetadata_(keepMetadata) {}

    // Empty string when the line parsed; otherwise why not.
    std::string parse(std::string_view text, Chunk& chunk) {
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

private:
    std::string readValues(simdjson::simdjson_result<simdjson::ondemand::value> value,
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

    std::string vectorKey_;
    bool keepMetadata_;
    simdjson::ondemand::parser parser_;
    std::string buffer_;
};

// Splits the text at line starts into one chunk per thread and parses the chunks in parallel.
// Stops at the first bad line (in file order); its message names the 1-based line number.
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

ByteSourcePtr mapFile(const fs::path& path, std::string& error) {
    try {
        return openMappedFile(path);
    } catch (const std::exception& e) {
        error = e.what();
        return nullptr;
    }
}

// The text of a mapped file (openMappedFile): its views borrow the mapping, which outlives them.
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

void report(const ProgressCallback& progress, double fraction, const std::string& text) {
    if (progress) {
        progress(fraction, text);
    }
}

bool isCancelled(const CancelToken* cancel) {
    return cancel != nullptr && cancel->cancelled();
}

// Object keys sorted bytewise at every level, as a sorted map serialises them.
void sortKeys(ojson& value) {
    if (value.is_array()) {
        for (ojson& item : value) {
            sortKeys(item);
        }
        return;
    }
    if (!value.is_object()) {
        return;
    }
    std::vector<std::pair<std::string, ojson>> items;
    for (auto& [key, item] : value.items()) {
        items.emplace_back(key, std::move(item));
    }
    std::sort(items.begin(), items.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    value = ojson::object();
    for (auto& [key, item] : items) {
        sortKeys(item);
        value[key] = std::move(item);
    }
}

// ---- ingest ----------------------------------------------------------------------------------

std::string metadataText(const std::string& raw, ojson* parsed) {
    *parsed = ojson::parse(raw);
    sortKeys(*parsed);
    std::string out;
    appendCompactJson(*parsed, out);
    return out;
}

std::string datasetInfoText(const IngestRequest& r, const std::string& embedding, std::size_t dims,
                            std::size_t count) {
    const std::string base = "datasets/" + r.datasetVersion + "/";
    ojson info = ojson::object();
    info["manifest_version"] = 1;
    info["dataset_version"] = r.datasetVersion;
    info["embedding_version"] = embedding;
    info["dims"] = dims;
    info["vector_count"] = count;
    info["vectors_key"] = base + "vectors.jsonl";
    info["metadata_key"] = base + "metadata.json";
    info["ingest_metadata"] = {{"ingested_at", r.timestamp.empty() ? rfc3339Now() : r.timestamp},
                               {"ingester_version", kBuilderVersion}};
    return prettyJson(info);
}

// ---- build -----------------------------------------------------------------------------------

struct Records {
    std::vector<std::uint64_t> ids;
    std::vector<float> values;  // count × dims
};

std::string loadRecords(const Store& store, const DatasetInfo& info, std::size_t dims,
                        const BuildRequest& r, Records& out) {
    const ByteSourcePtr source = store.source(info.vectorsKey);
    if (!source) {
        return "key not found: " + info.vectorsKey;
    }
    // The store reads its files on demand: mapped for the parse (see mappedForScan).
    const ByteSourcePtr mapped = mappedForScan(*source);
    std::vector<Chunk> chunks;
    if (std::string error = parseRecords(textOf(mapped ? *mapped : *source), "data", false,
                                         r.threads, r.cancel, chunks);
        !error.empty()) {
        return info.vectorsKey + ": " + error;
    }
    std::size_t total = 0;
    for (const Chunk& chunk : chunks) {
        total += chunk.lines.size();
    }
    out.ids.reserve(total);
    out.values.reserve(total * dims);
    for (const Chunk& chunk : chunks) {
        for (const ParsedLine& line : chunk.lines) {
            if (line.valuesCount != dims) {
                return "record " + std::to_string(line.id) + " has dimension mismatch: expected " +
                       std::to_string(dims) + ", got " + std::to_string(line.valuesCount);
            }
            out.ids.push_back(line.id);
            const auto first = chunk.values.begin() + static_cast<std::ptrdiff_t>(line.valuesBegin);
            out.values.insert(out.values.end(), first, first + static_cast<std::ptrdiff_t>(dims));
        }
    }
    return out.ids.empty() ? "no records to index" : "";
}

void appendU32(std::string& out, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) {
        out += static_cast<char>((v >> (8 * i)) & 0xff);
    }
}

void appendU64(std::string& out, std::uint64_t v) {
    for (int i = 0; i < 8; ++i) {
        out += static_cast<char>((v >> (8 * i)) & 0xff);
    }
}

void appendF32s(std::string& out, std::span<const float> values) {
    for (const float f : values) {
        appendU32(out, std::bit_cast<std::uint32_t>(f));
    }
}

struct ShardResult {
    std::string key;
    std::uint64_t count = 0;
    std::string fingerprint;
};

std::string shardBytes(std::uint32_t shardId, std::uint32_t dims, std::span<const float> centroid,
                       const Records& records, std::span<const std::uint32_t> members) {
    std::string out;
    out.reserve(32 + 4 * dims + members.size() * (8 + 4 * std::size_t{dims}));
    out.append("SLKIDX\0\0", 8);
    appendU32(out, 1);
    appendU32(out, shardId);
    appendU32(out, dims);
    appendU32(out, 1);
    appendU64(out, members.size());
    appendF32s(out, centroid);
    for (const std::uint32_t i : members) {
        appendU64(out, records.ids[i]);
        appendF32s(out,
                   std::span<const float>(records.values).subspan(std::size_t{i} * dims, dims));
    }
    return out;
}

std::string shardKey(const std::string& version, std::size_t shardId) {
    char name[32];
    std::snprintf(name, sizeof name, "shard-%04zu.sidx", shardId);
    return "indexes/" + version + "/shards/" + name;
}

std::string quantizerBytes(std::uint32_t dims, const std::vector<float>& centroids) {
    std::string out("SLKIVF\0\0", 8);
    appendU32(out, 1);
    appendU32(out, dims);
    appendU32(out, static_cast<std::uint32_t>(centroids.size() / dims));
    appendF32s(out, centroids);
    return out;
}

ojson floatArray(std::span<const float> values) {
    ojson out = ojson::array();
    for (const float f : values) {
        out.push_back(static_cast<double>(f));
    }
    return out;
}

struct ManifestInput {
    const BuildRequest* request = nullptr;
    std::string embedding;
    const DatasetInfo* info = nullptr;
    std::uint32_t dims = 0;
    const std::vector<float>* centroids = nullptr;
    const std::vector<ShardResult>* shards = nullptr;
    double seconds = 0;
    // The training sample's size when k-means ran on a sample.
    std::optional<std::size_t> sampleUsed;
};

ojson manifestJson(const ManifestInput& in) {
    const BuildRequest& r = *in.request;
    const std::string base = "indexes/" + r.indexVersion + "/";
    ojson m = ojson::object();
    m["manifest_version"] = 4;
    m["dataset_version"] = r.datasetVersion;
    m["embedding_version"] = in.embedding;
    m["index_version"] = r.indexVersion;
    m["alias"] = "latest";
    m["dims"] = in.dims;
    m["distance_metric"] = std::string(metricName(r.metric));
    m["vectors_key"] = in.info->vectorsKey;
    m["metadata_key"] = in.info->metadataKey;
    ojson shards = ojson::array();
    std::uint64_t total = 0;
    std::uint64_t smallest = UINT64_MAX;
    std::uint64_t largest = 0;
    for (std::size_t i = 0; i < in.shards->size(); ++i) {
        const ShardResult& s = (*in.shards)[i];
        char centroidId[32];
        std::snprintf(centroidId, sizeof centroidId, "shard-%04zu", i);
        ojson shard = ojson::object();
        shard["shard_id"] = i;
        shard["artifact_key"] = s.key;
        shard["vector_count"] = s.count;
        shard["sha256"] = s.fingerprint;
        shard["centroid"] =
            floatArray(std::span<const float>(*in.centroids).subspan(i * in.dims, in.dims));
        shard["routing"] = {
            {"centroid_id", centroidId}, {"index_type", "flat"}, {"file_location", s.key}};
        shards.push_back(std::move(shard));
        total += s.count;
        smallest = std::min(smallest, s.count);
        largest = std::max(largest, s.count);
    }
    m["shards"] = std::move(shards);
    m["total_vector_count"] = total;
    m["build_metadata"] = {{"built_at", r.timestamp.empty() ? rfc3339Now() : r.timestamp},
                           {"builder_version", kBuilderVersion},
                           {"num_kmeans_iters", r.kmeansIters},
                           {"nprobe_default", r.nprobe},
                           {"build_duration_secs", in.seconds}};
    // Parameters in sorted key order, as the reference's sorted map writes them.
    ojson params = ojson::object();
    params["kmeans_iters"] = r.kmeansIters;
    if (in.sampleUsed) {
        params["kmeans_sample_size"] = *in.sampleUsed;
    }
    params["kmeans_seed"] = r.kmeansSeed;
    params["num_clusters"] = in.shards->size();
    params["num_shards"] = in.shards->size();
    m["algorithm"] = {{"algorithm", "ivf-flat"}, {"params", std::move(params)}};
    m["shard_summary"] = {{"num_shards", in.shards->size()},
                          {"min_shard_vector_count", smallest},
                          {"max_shard_vector_count", largest}};
    m["compression"] = {{"enabled", false}, {"codec", "none"}};
    m["coarse_quantizer_key"] = base + "coarse_quantizer.cq";
    return m;
}

}  // namespace

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

namespace {

// ---- ingest: line-aligned blocks of the input are parsed and formatted on pool threads while
// the calling thread checks them in file order and streams the text into vectors.jsonl ----

constexpr std::size_t kIngestBlockBytes = 4u << 20;
constexpr std::size_t kIngestBlocksAhead = 6;

// One block of input lines, parsed and formatted (values are not kept).
struct IngestBlock {
    std::string text;  // the block's lines as vectors.jsonl lines
    std::vector<ParsedLine> lines;
    std::size_t newlines = 0;   // line breaks in the block, to number lines
    std::string parseError;     // the block's first bad line, without its number
    std::size_t errorLine = 0;  // that line, counted from 0 within the block
    std::string formatError;    // metadata that could not be formatted
};

// Output buffers handed back after their text is written, so the blocks reuse memory that is
// already mapped instead of touching fresh pages.
class TextBuffers {
public:
    std::string take() {
        std::lock_guard lock(mutex_);
        if (free_.empty()) {
            return {};
        }
        std::string out = std::move(free_.back());
        free_.pop_back();
        out.clear();
        return out;
    }
    void give(std::string text) {
        std::lock_guard lock(mutex_);
        free_.push_back(std::move(text));
    }

private:
    std::mutex mutex_;
    std::vector<std::string> free_;
};

void appendDatasetLine(const ParsedLine& line, std::span<const float> values, std::string& out) {
    out += "{\"id\":";
    out += std::to_string(line.id);
    out += ",\"data\":[";
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (i != 0) {
            out += ',';
        }
        appendF32(out, values[i]);
    }
    out += "],\"metadata\":";
    if (line.hasMetadata) {
        ojson parsed;
        out += metadataText(line.metadata, &parsed);
    } else {
        out += "null";
    }
    out += "}\n";
}

IngestBlock ingestBlock(std::string_view text, TextBuffers& buffers) {
    thread_local RecordParser parser("vector", true);
    thread_local Chunk chunk;
    chunk.lines.clear();
    chunk.values.clear();
    chunk.error.clear();
    prefault(text);
    IngestBlock out;
    out.text = buffers.take();
    out.text.reserve(text.size() + text.size() / 8);
    std::size_t at = 0;
    while (at < text.size()) {
        std::size_t end = text.find('\n', at);
        const bool broken = end != std::string_view::npos;
        end = broken ? end : text.size();
        std::string_view line = text.substr(at, end - at);
        if (!line.empty() && line.back() == '\r') {
            line.remove_suffix(1);
        }
        if (line.find_first_not_of(" \t\r\n\f\v") != std::string_view::npos) {
            if (std::string error = parser.parse(line, chunk); !error.empty()) {
                out.parseError = std::move(error);
                out.errorLine = out.newlines;
                return out;
            }
        }
        out.newlines += broken ? 1 : 0;
        at = end + 1;
    }
    for (const ParsedLine& line : chunk.lines) {
        try {
            appendDatasetLine(
                line,
                std::span<const float>(chunk.values).subspan(line.valuesBegin, line.valuesCount),
                out.text);
        } catch (const std::exception& e) {
            out.formatError = e.what();
            break;
        }
    }
    out.lines = std::move(chunk.lines);
    return out;
}

// Folders an ingest creates, removed again (when still empty) unless the ingest succeeds, so a
// failed ingest leaves the root as it was.
class CreatedFolders {
public:
    void create(const fs::path& dir) {
        std::vector<fs::path> missing;
        for (fs::path p = dir; !p.empty() && !fs::exists(p); p = p.parent_path()) {
            missing.push_back(p);
            if (p == p.parent_path()) {
                break;
            }
        }
        fs::create_directories(dir);
        created_.assign(missing.begin(), missing.end());  // deepest first
    }
    void keep() { created_.clear(); }
    ~CreatedFolders() {
        for (const fs::path& p : created_) {
            std::error_code ignored;
            fs::remove(p, ignored);
        }
    }

private:
    std::vector<fs::path> created_;
};

// What the blocks told, in file order; the first problem of each kind is kept, and they are
// reported in the order the checks have always run: parse, dimensions, formatting, writing.
struct IngestState {
    std::size_t nextLine = 1;
    std::size_t count = 0;
    std::size_t dims = 0;
    std::string parseError;
    std::string dimsError;
    std::string formatError;
    std::string writeError;
    std::map<std::string, ojson> metadata;

    bool healthy() const {
        return parseError.empty() && dimsError.empty() && formatError.empty() && writeError.empty();
    }
    std::string firstError() const {
        if (!parseError.empty()) {
            return parseError;
        }
        if (!dimsError.empty()) {
            return dimsError;
        }
        if (count == 0) {
            return "No records found in input file";
        }
        return !formatError.empty() ? formatError : writeError;
    }
};

void checkBlockDims(const IngestBlock& block, IngestState& state) {
    for (const ParsedLine& line : block.lines) {
        ++state.count;
        if (!state.dimsError.empty()) {
            continue;
        }
        if (line.valuesCount == 0) {
            state.dimsError = "vector for id " + std::to_string(line.id) + " must not be empty";
        } else if (state.dims == 0) {
            state.dims = line.valuesCount;
        } else if (line.valuesCount != state.dims) {
            state.dimsError = "vector dimension mismatch for id " + std::to_string(line.id) +
                              ": expected " + std::to_string(state.dims) + ", got " +
                              std::to_string(line.valuesCount);
        }
    }
}

// Takes one block in file order: checks it, keeps its metadata, writes its text.
void takeBlock(IngestBlock& block, AtomicFile* vectors, IngestState& state) {
    if (!block.parseError.empty()) {
        state.parseError =
            "line " + std::to_string(state.nextLine + block.errorLine) + ": " + block.parseError;
        return;
    }
    state.nextLine += block.newlines;
    checkBlockDims(block, state);
    if (state.formatError.empty() && !block.formatError.empty()) {
        state.formatError = block.formatError;
    }
    if (!state.healthy()) {
        return;  // keep parsing: an earlier kind of problem further on still comes first
    }
    try {
        for (const ParsedLine& line : block.lines) {
            if (line.hasMetadata) {
                ojson parsed;
                metadataText(line.metadata, &parsed);
                state.metadata[std::to_string(line.id)] = std::move(parsed);
            }
        }
        if (vectors == nullptr) {
            throw FileWriteError("cannot write vectors.jsonl");
        }
        vectors->write(block.text);
    } catch (const std::exception& e) {
        state.writeError = e.what();
    }
}

// Parses, checks and writes the whole input; vectors.jsonl is committed only when every line
// passed.
void streamIngest(std::string_view text, const IngestRequest& r, AtomicFile* vectors,
                  IngestState& state) {
    TextBuffers buffers;
    OrderedPool<IngestBlock> pool(0, kIngestBlocksAhead, r.cancel);
    std::size_t submitted = 0;
    auto submit = [&] {
        if (submitted >= text.size()) {
            return;
        }
        std::size_t end = submitted + std::min(kIngestBlockBytes, text.size() - submitted);
        if (end < text.size()) {
            const std::size_t newline = text.find('\n', end);
            end = newline == std::string_view::npos ? text.size() : newline + 1;
        }
        const std::string_view part = text.substr(submitted, end - submitted);
        pool.submit([part, &buffers] { return ingestBlock(part, buffers); });
        submitted = end;
    };
    while (submitted < text.size() && !pool.full()) {
        submit();
    }
    while (std::optional<IngestBlock> block = pool.next()) {
        submit();
        takeBlock(*block, vectors, state);
        buffers.give(std::move(block->text));
        if (!state.parseError.empty()) {
            return;
        }
        report(r.progress, 0.95 * static_cast<double>(submitted) / static_cast<double>(text.size()),
               "ingesting " + r.input.filename().string());
    }
}

}  // namespace

BuildOutcome ingestVectors(const IngestRequest& r) {
    BuildOutcome outcome;
    const auto start = Clock::now();
    if (std::string problem = nameProblem(r.datasetVersion); !problem.empty()) {
        outcome.error = "dataset version \"" + r.datasetVersion + "\" " + problem;
        return outcome;
    }
    const std::string info = "datasets/" + r.datasetVersion + "/info.json";
    if (!r.replace && fs::exists(r.root / info)) {
        outcome.error = "dataset " + r.datasetVersion + " already exists";
        return outcome;
    }
    std::string error;
    const ByteSourcePtr input = mapFile(r.input, error);
    if (!input) {
        outcome.error = "Cannot open " + r.input.string() + ": " + error;
        return outcome;
    }
    report(r.progress, 0.0, "reading " + r.input.filename().string());
    const fs::path base = r.root / "datasets" / r.datasetVersion;
    IngestState state;
    CreatedFolders folders;
    std::optional<AtomicFile> vectors;
    try {
        folders.create(base);
        vectors.emplace(base / "vectors.jsonl");
    } catch (const std::exception& e) {
        state.writeError = e.what();
    }
    streamIngest(textOf(*input), r, vectors ? &*vectors : nullptr, state);
    if (isCancelled(r.cancel)) {
        outcome.cancelled = true;
        outcome.error = "cancelled";
        return outcome;
    }
    if (!state.healthy() || state.count == 0) {
        outcome.error = state.firstError();
        return outcome;
    }
    report(r.progress, 0.95, "writing dataset " + r.datasetVersion);
    try {
        const ojson metaDoc = objectOfUniqueKeys(std::move(state.metadata));
        const std::string embedding =
            r.embeddingVersion.empty() ? r.datasetVersion : r.embeddingVersion;
        vectors->commit();
        folders.keep();
        writeFile(base / "metadata.json", prettyJson(metaDoc));
        writeFile(base / "info.json", datasetInfoText(r, embedding, state.dims, state.count));
    } catch (const std::exception& e) {
        outcome.error = e.what();
        return outcome;
    }
    report(r.progress, 1.0, "dataset written");
    outcome.ok = true;
    outcome.vectors = state.count;
    outcome.dims = static_cast<std::uint32_t>(state.dims);
    outcome.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return outcome;
}

namespace {

struct Partition {
    std::vector<float> centroids;                     // non-empty clusters, row-major
    std::vector<std::vector<std::uint32_t>> members;  // record positions per shard
    std::optional<std::size_t> sampleUsed;
};

// Trains the quantizer (on a sample when asked), assigns every record, drops empty clusters.
bool partition(const Records& records, std::size_t dims, const BuildRequest& r, Partition& out) {
    const std::size_t n = records.ids.size();
    ChaCha12Rng rng(r.kmeansSeed);
    std::vector<float> sample;
    VectorMatrix training{records.values, dims};
    if (r.kmeansSampleSize && *r.kmeansSampleSize < n) {
        std::vector<std::uint64_t> order(n);
        for (std::size_t i = 0; i < n; ++i) {
            order[i] = i;
        }
        const auto chosen = partialShuffle(order, *r.kmeansSampleSize, rng);
        for (const std::uint64_t i : chosen) {
            const auto row = VectorMatrix{records.values, dims}.row(i);
            sample.insert(sample.end(), row.begin(), row.end());
        }
        training = {sample, dims};
        out.sampleUsed = chosen.size();
    }
    KMeansOptions options;
    options.clusters = r.numShards;
    options.iterations = r.kmeansIters;
    options.threads = r.threads;
    options.cancel = r.cancel;
    options.onIteration = [&](std::uint32_t done, std::uint32_t limit) {
        report(r.progress, 0.2 + 0.6 * done / std::max(1u, limit),
               "k-means iteration " + std::to_string(done) + " of " + std::to_string(limit));
    };
    const std::vector<float> centroids = trainKMeans(training, rng, options);
    if (centroids.empty()) {
        return false;
    }
    const std::size_t k = centroids.size() / dims;
    std::vector<std::uint32_t> assignment(n);
    assignNearest({records.values, dims}, {centroids, dims}, assignment, r.threads, r.cancel);
    if (isCancelled(r.cancel)) {
        return false;
    }
    std::vector<std::vector<std::uint32_t>> clusters(k);
    for (std::size_t i = 0; i < n; ++i) {
        clusters[assignment[i]].push_back(static_cast<std::uint32_t>(i));
    }
    for (std::size_t c = 0; c < k; ++c) {
        if (!clusters[c].empty()) {
            out.members.push_back(std::move(clusters[c]));
            out.centroids.insert(out.centroids.end(),
                                 centroids.begin() + static_cast<std::ptrdiff_t>(c * dims),
                                 centroids.begin() + static_cast<std::ptrdiff_t>((c + 1) * dims));
        }
    }
    return true;
}

std::string checkBuildRequest(const BuildRequest& r) {
    if (std::string p = nameProblem(r.indexVersion); !p.empty()) {
        return "index version \"" + r.indexVersion + "\" " + p;
    }
    if (std::string p = nameProblem(r.datasetVersion); !p.empty()) {
        return "dataset version \"" + r.datasetVersion + "\" " + p;
    }
    if (r.numShards == 0) {
        return "num_shards must be greater than 0";
    }
    if (r.kmeansSampleSize && *r.kmeansSampleSize == 0) {
        return "kmeans_sample_size must be greater than 0";
    }
    if (!r.replace && fs::exists(r.root / "indexes" / r.indexVersion / "manifest.json")) {
        return "index " + r.indexVersion + " already exists";
    }
    return {};
}

// Writes the shards over the threads; returns the first error.
std::string writeShards(const BuildRequest& r, const Records& records, std::uint32_t dims,
                        const Partition& parts, std::vector<ShardResult>& results) {
    results.assign(parts.members.size(), {});
    std::mutex mutex;
    std::string firstError;
    std::size_t written = 0;
    parallelRanges(parts.members.size(), r.threads, [&](std::size_t a, std::size_t b) {
        for (std::size_t i = a; i < b && !isCancelled(r.cancel); ++i) {
            const std::string bytes =
                shardBytes(static_cast<std::uint32_t>(i), dims,
                           std::span<const float>(parts.centroids).subspan(i * dims, dims), records,
                           parts.members[i]);
            ShardResult& result = results[i];
            result.key = shardKey(r.indexVersion, i);
            result.count = parts.members[i].size();
            result.fingerprint =
                fingerprintHex(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
            try {
                writeFile(r.root / result.key, bytes);
            } catch (const std::exception& e) {
                std::lock_guard lock(mutex);
                firstError = firstError.empty() ? e.what() : firstError;
                return;
            }
            std::lock_guard lock(mutex);
            ++written;
            report(r.progress, 0.85 + 0.14 * static_cast<double>(written) / results.size(),
                   "shard " + std::to_string(written) + " of " + std::to_string(results.size()));
        }
    });
    return firstError;
}

}  // namespace

BuildOutcome buildIndex(const BuildRequest& r) {
    BuildOutcome outcome;
    const auto begin = Clock::now();
    if (outcome.error = checkBuildRequest(r); !outcome.error.empty()) {
        return outcome;
    }
    const Store store(r.root);
    const std::string infoKey = "datasets/" + r.datasetVersion + "/info.json";
    const JsonDoc doc = loadJson(store.source(infoKey));
    if (!doc.parsed) {
        outcome.error = "Dataset " + r.datasetVersion + " not found or unreadable (" + infoKey +
                        "): " + doc.error;
        return outcome;
    }
    std::vector<Diagnostic> problems;
    const DatasetInfo info = readDatasetInfo(doc, problems);
    if (!info.dims || *info.dims == 0 || *info.dims > 0xffffffu) {
        outcome.error = infoKey + ": dims must be between 1 and 16777215";
        return outcome;
    }
    const auto dims = static_cast<std::uint32_t>(*info.dims);
    report(r.progress, 0.0, "loading vectors");
    Records records;
    outcome.error = loadRecords(store, info, dims, r, records);
    if (isCancelled(r.cancel)) {
        outcome.cancelled = true;
        outcome.error = "cancelled";
        return outcome;
    }
    if (!outcome.error.empty()) {
        return outcome;
    }
    const auto start = Clock::now();
    report(r.progress, 0.2, "training the coarse quantizer");
    Partition parts;
    if (!partition(records, dims, r, parts) || isCancelled(r.cancel)) {
        outcome.cancelled = isCancelled(r.cancel);
        outcome.error = outcome.cancelled ? "cancelled" : "k-means produced no centroids";
        return outcome;
    }
    const bool existed = fs::exists(r.root / "indexes" / r.indexVersion);
    std::vector<ShardResult> shards;
    outcome.error = writeShards(r, records, dims, parts, shards);
    try {
        if (outcome.error.empty() && !isCancelled(r.cancel)) {
            writeFile(r.root / "indexes" / r.indexVersion / "coarse_quantizer.cq",
                      quantizerBytes(dims, parts.centroids));
            ManifestInput in;
            in.request = &r;
            in.embedding = r.embeddingVersion.empty() ? info.embeddingVersion : r.embeddingVersion;
            in.info = &info;
            in.dims = dims;
            in.centroids = &parts.centroids;
            in.shards = &shards;
            in.sampleUsed = parts.sampleUsed;
            in.seconds = std::chrono::duration<double>(Clock::now() - start).count();
            writeFile(r.root / "indexes" / r.indexVersion / "manifest.json",
                      prettyJson(manifestJson(in), FloatText::F32WhenExact));
        }
    } catch (const std::exception& e) {
        outcome.error = e.what();
    }
    outcome.cancelled = isCancelled(r.cancel);
    if (outcome.cancelled || !outcome.error.empty()) {
        if (!existed) {
            std::error_code ignored;
            fs::remove_all(r.root / "indexes" / r.indexVersion, ignored);
        }
        outcome.error = outcome.cancelled ? "cancelled" : outcome.error;
        return outcome;
    }
    report(r.progress, 1.0, "index written");
    outcome.ok = true;
    outcome.vectors = records.ids.size();
    outcome.dims = dims;
    outcome.shards = shards.size();
    outcome.seconds = std::chrono::duration<double>(Clock::now() - begin).count();
    return outcome;
}

}  // namespace strata::shardlake
