#include "shardlake_dataset.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <mutex>

#include <simdjson.h>

#include "formats/common/ordered_pool.h"

namespace strata::shardlake {

namespace {

constexpr std::uint64_t kBlockBytes = 4u << 20;
constexpr std::size_t kBlocksAhead = 6;

// One line as parsed on a pool thread; its values live in the block's value list.
struct ParsedDatasetLine {
    std::uint64_t lineInBlock = 0;  // line breaks before it in its block
    std::uint64_t offset = 0;
    std::uint64_t length = 0;
    std::optional<std::uint64_t> id;
    std::size_t valuesBegin = 0;
    std::size_t valuesCount = 0;
    bool hasValues = false;
    bool nonFinite = false;
    std::string error;
};

struct DatasetBlock {
    std::vector<ParsedDatasetLine> lines;
    std::vector<float> values;
    std::uint64_t newlines = 0;
};

// Blocks the visitor is done with, handed back to the parsing threads so their memory is
// reused instead of fresh pages being touched for every block.
class SpareBlocks {
public:
    DatasetBlock take() {
        std::lock_guard lock(mutex_);
        if (spare_.empty()) {
            return {};
        }
        DatasetBlock out = std::move(spare_.back());
        spare_.pop_back();
        out.lines.clear();
        out.values.clear();
        out.newlines = 0;
        return out;
    }
    void give(DatasetBlock block) {
        std::lock_guard lock(mutex_);
        spare_.push_back(std::move(block));
    }

private:
    std::mutex mutex_;
    std::vector<DatasetBlock> spare_;
};

// One line at a time through simdjson's on-demand parser: the line is copied into a reusable
// padded buffer (simdjson reads a little past the end of its input).
class LineParser {
public:
    void parse(std::string_view text, ParsedDatasetLine& line, std::vector<float>& values) {
        buffer_.resize(text.size() + simdjson::SIMDJSON_PADDING);
        std::memcpy(buffer_.data(), text.data(), text.size());
        const simdjson::padded_string_view input(buffer_.data(), text.size(), buffer_.size());
        simdjson::ondemand::document doc;
        simdjson::ondemand::object object;
        line.valuesBegin = values.size();
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
                if (!readValues(field.value(), line, values)) {
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
                           ParsedDatasetLine& line, std::vector<float>& values) {
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
                line.valuesCount = values.size() - line.valuesBegin;
                return false;
            }
            const float f = static_cast<float>(number);
            line.nonFinite = line.nonFinite || !std::isfinite(f);
            values.push_back(f);
        }
        line.valuesCount = values.size() - line.valuesBegin;
        return true;
    }

    simdjson::ondemand::parser parser_;
    std::string buffer_;
};

// Parses the lines of text[begin, end) (whole lines).
DatasetBlock parseBlock(const char* text, std::uint64_t begin, std::uint64_t end,
                        SpareBlocks& spares) {
    thread_local LineParser parser;
    prefault(std::string_view(text + begin, end - begin));
    DatasetBlock block = spares.take();
    std::uint64_t start = begin;
    while (start < end) {
        const void* found = std::memchr(text + start, '\n', end - start);
        const std::uint64_t stop =
            found != nullptr ? static_cast<std::uint64_t>(static_cast<const char*>(found) - text)
                             : end;
        const std::string_view line(text + start, stop - start);
        if (line.find_first_not_of(" \t\r") != std::string_view::npos) {
            ParsedDatasetLine& parsed = block.lines.emplace_back();
            parsed.lineInBlock = block.newlines;
            parsed.offset = start;
            parsed.length = stop - start;
            parser.parse(line, parsed, block.values);
        }
        block.newlines += found != nullptr ? 1 : 0;
        start = stop + 1;
    }
    return block;
}

// Visits the lines of one parsed block; false when the visitor asked to stop.
bool visitBlock(const ByteSource& source, DatasetBlock& block, std::uint64_t firstLine,
                const std::function<bool(const DatasetLine&)>& visit) {
    DatasetLine line;
    for (ParsedDatasetLine& parsed : block.lines) {
        line.lineNumber = firstLine + parsed.lineInBlock;
        line.region = {&source, parsed.offset, parsed.length};
        line.id = parsed.id;
        line.values =
            std::span<const float>(block.values).subspan(parsed.valuesBegin, parsed.valuesCount);
        line.hasValues = parsed.hasValues;
        line.nonFinite = parsed.nonFinite;
        line.error = std::move(parsed.error);
        if (!visit(line)) {
            return false;
        }
    }
    return true;
}

}  // namespace

void prefault(std::string_view text) {
#ifdef MADV_POPULATE_READ
    if (text.empty()) {
        return;
    }
    const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
    const auto begin = reinterpret_cast<std::uintptr_t>(text.data()) & ~(page - 1);
    const auto end = reinterpret_cast<std::uintptr_t>(text.data() + text.size());
    ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_POPULATE_READ);
#else
    (void)text;
#endif
}

void forEachDatasetLine(const ByteSource& source,
                        const std::function<bool(const DatasetLine&)>& visit, unsigned threads) {
    // A file the store reads on demand is mapped for the scan (its lines' regions still name
    // `source`): a view of all of it would copy a file of many GB into memory.
    const ByteSourcePtr mapped = mappedForScan(source);
    const ByteView view = (mapped ? *mapped : source).view(0, source.size());
    const char* text = reinterpret_cast<const char*>(view.data());
    const std::uint64_t size = view.size();
    SpareBlocks spares;
    if (size <= kBlockBytes) {
        // One block (a small file, or one line parsed on its own): no pool threads to start.
        DatasetBlock block = parseBlock(text, 0, size, spares);
        visitBlock(source, block, 1, visit);
        return;
    }
    OrderedPool<DatasetBlock> pool(threads, kBlocksAhead);
    std::uint64_t submitted = 0;
    // Block ends: a short search for a line break from each 4 MiB mark.
    auto submit = [&] {
        if (submitted >= size) {
            return;
        }
        std::uint64_t end = std::min(size, submitted + kBlockBytes);
        if (end < size) {
            const void* found = std::memchr(text + end, '\n', size - end);
            end = found != nullptr
                      ? static_cast<std::uint64_t>(static_cast<const char*>(found) - text) + 1
                      : size;
        }
        const std::uint64_t begin = submitted;
        pool.submit([text, begin, end, &spares] { return parseBlock(text, begin, end, spares); });
        submitted = end;
    };
    while (submitted < size && !pool.full()) {
        submit();
    }
    std::uint64_t firstLine = 1;  // the number of the current block's first line
    while (std::optional<DatasetBlock> block = pool.next()) {
        submit();
        if (!visitBlock(source, *block, firstLine, visit)) {
            return;
        }
        firstLine += block->newlines;
        spares.give(std::move(*block));
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
        out.push_back({*line.id, std::vector<float>(line.values.begin(), line.values.end())});
        return true;
    });
    return out;
}

}  // namespace strata::shardlake
