// Shardlake ingest (ingestVectors): input lines parsed and formatted in blocks on pool threads,
// checked in file order and streamed into a dataset's vectors.jsonl, metadata and info.
#include <algorithm>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <span>
#include <system_error>

#include "formats/common/atomic_file.h"
#include "formats/common/bounds.h"
#include "formats/common/ordered_pool.h"
#include "shardlake_alias_edit.h"
#include "shardlake_builder_internal.h"
#include "shardlake_dataset.h"
#include "shardlake_json.h"
#include "shardlake_json_writer.h"
#include "shardlake_manifest.h"

namespace strata::shardlake {

namespace fs = std::filesystem;
using ojson = nlohmann::ordered_json;

namespace {

ByteSourcePtr mapFile(const fs::path& path, std::string& error) {
    try {
        return openMappedFile(path);
    } catch (const std::exception& e) {
        error = e.what();
        return nullptr;
    }
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

}  // namespace strata::shardlake
