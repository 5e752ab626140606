#include "zds_line_index.h"

#include <simdjson.h>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <future>
#include <limits>
#include <stdexcept>
#include <thread>

#include "formats/common/bounds.h"
#include "zds_probe.h"
#include "zds_reader.h"

namespace strata {

namespace {

constexpr std::uint64_t kChunk = 4ull << 20;
constexpr std::uint64_t kMinBytesPerThread = 16ull << 20;
constexpr std::string_view kIdPrefix = R"({"_id":")";

template <typename T>
void appendLe(std::string& out, T value) {
    for (std::size_t i = 0; i < sizeof(T); ++i) {
        out.push_back(static_cast<char>((value >> (8 * i)) & 0xFF));
    }
}

bool isBlankLine(const std::uint8_t* p, std::size_t n) {
    return std::all_of(
        p, p + n, [](std::uint8_t c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; });
}

// The top-level `_id` of one JSON line through simdjson, or nothing.
std::optional<std::string> parsedId(const std::uint8_t* p, std::size_t n) {
    thread_local simdjson::ondemand::parser parser;
    const simdjson::padded_string padded(reinterpret_cast<const char*>(p), n);
    simdjson::ondemand::document doc;
    if (parser.iterate(padded).get(doc) != simdjson::SUCCESS) {
        return std::nullopt;
    }
    simdjson::ondemand::object object;
    if (doc.get_object().get(object) != simdjson::SUCCESS) {
        return std::nullopt;
    }
    std::string_view id;
    if (object.find_field("_id").get_string().get(id) != simdjson::SUCCESS) {
        return std::nullopt;
    }
    return std::string(id);
}

// The id of a line: the common writer layout `{"_id":"plain",...` without a parse.
std::optional<std::string> lineId(const std::uint8_t* p, std::size_t n) {
    const std::string_view line(reinterpret_cast<const char*>(p), n);
    if (line.starts_with(kIdPrefix)) {
        const auto close = line.find('"', kIdPrefix.size());
        if (close != std::string_view::npos) {
            const std::string_view id = line.substr(kIdPrefix.size(), close - kIdPrefix.size());
            if (id.find('\\') == std::string_view::npos) {
                return std::string(id);
            }
        }
    }
    return parsedId(p, n);
}

// Just past the '\n' that ends the line holding `from`, or `size`.
std::uint64_t nextLineStart(const ByteSource& data, std::uint64_t from) {
    const std::uint64_t size = data.size();
    for (std::uint64_t at = from; at < size; at += kChunk) {
        const ByteView v = data.view(at, kChunk);
        if (v.empty()) {
            break;
        }
        if (const void* nl = std::memchr(v.data(), '\n', v.size())) {
            return at +
                   static_cast<std::uint64_t>(static_cast<const std::uint8_t*>(nl) - v.data()) + 1;
        }
    }
    return size;
}

struct Slice {
    std::uint64_t begin = 0;
    std::uint64_t end = 0;
    std::vector<ZdsLineEntry> entries;
};

void addLine(const ByteSource& data, Slice& slice, std::uint64_t start, std::uint64_t end,
             const std::uint8_t* bytes) {
    const std::size_t n = static_cast<std::size_t>(end - start);
    ByteView owned;
    if (bytes == nullptr) {  // a line longer than one chunk
        owned = data.view(start, end - start);
        bytes = owned.data();
    }
    if (isBlankLine(bytes, n)) {
        return;
    }
    ZdsLineEntry e;
    e.offset = start;
    e.length = end - start;
    std::size_t body = n;
    while (body > 0 && (bytes[body - 1] == '\n' || bytes[body - 1] == '\r')) {
        --body;
    }
    if (auto id = lineId(bytes, body)) {
        e.id = std::move(*id);
        e.hasId = true;
    }
    slice.entries.push_back(std::move(e));
}

// Calls on(start, end, bytes) for every line of [begin, end); bytes is null when the line
// spans scan chunks (the callee views it then).
template <typename OnLine>
bool walkLines(const ByteSource& data, std::uint64_t begin, std::uint64_t end,
               const ZdsIndexOptions& options, std::atomic<std::uint64_t>& done, OnLine&& on) {
    std::uint64_t lineStart = begin;
    std::uint64_t at = begin;
    while (at < end) {
        if (options.cancelled()) {
            return false;
        }
        const ByteView v = data.view(at, std::min(kChunk, end - at));
        if (v.empty()) {
            break;
        }
        const std::uint8_t* p = v.data();
        const std::uint8_t* stop = p + v.size();
        while (p < stop) {
            const void* nl = std::memchr(p, '\n', static_cast<std::size_t>(stop - p));
            if (nl == nullptr) {
                break;
            }
            p = static_cast<const std::uint8_t*>(nl) + 1;
            const std::uint64_t lineEnd = at + static_cast<std::uint64_t>(p - v.data());
            on(lineStart, lineEnd, lineStart >= at ? v.data() + (lineStart - at) : nullptr);
            lineStart = lineEnd;
        }
        done.fetch_add(v.size(), std::memory_order_relaxed);
        at += v.size();
    }
    if (lineStart < end) {  // the last line without '\n'
        on(lineStart, end, nullptr);
    }
    return true;
}

bool indexSlice(const ByteSource& data, Slice& slice, const ZdsIndexOptions& options,
                std::atomic<std::uint64_t>& done) {
    slice.entries.reserve(static_cast<std::size_t>((slice.end - slice.begin) / 128));
    return walkLines(data, slice.begin, slice.end, options, done,
                     [&](std::uint64_t start, std::uint64_t end, const std::uint8_t* bytes) {
                         addLine(data, slice, start, end, bytes);
                     });
}

// Line-aligned slices of `data`, one per thread.
std::vector<std::pair<std::uint64_t, std::uint64_t>> sliceLines(const ByteSource& data,
                                                                unsigned wanted) {
    const std::uint64_t size = data.size();
    const auto threads = static_cast<unsigned>(
        std::clamp<std::uint64_t>(size / kMinBytesPerThread, 1, std::max(1u, wanted)));
    std::vector<std::pair<std::uint64_t, std::uint64_t>> out;
    std::uint64_t begin = 0;
    for (unsigned t = 0; t < threads; ++t) {
        const std::uint64_t end =
            t + 1 == threads ? size
                             : std::max(begin, nextLineStart(data, size / threads * (t + 1) - 1));
        out.emplace_back(begin, end);
        begin = end;
    }
    return out;
}

unsigned threadCount(const ZdsIndexOptions& options) {
    return options.threads != 0 ? options.threads
                                : std::max(1u, std::thread::hardware_concurrency());
}

// Runs work(t) for every slice, slice 0 on the calling thread, reporting progress meanwhile.
template <typename Work>
bool runSlices(std::size_t count, std::uint64_t size, const ZdsIndexOptions& options,
               const std::atomic<std::uint64_t>& done, Work&& work) {
    std::vector<std::future<bool>> results;
    for (std::size_t t = 1; t < count; ++t) {
        results.push_back(std::async(std::launch::async, [&work, t] { return work(t); }));
    }
    bool ok = work(0);
    for (auto& r : results) {
        while (r.wait_for(std::chrono::milliseconds(100)) != std::future_status::ready) {
            options.reportProgress(size == 0 ? 1.0 : double(done.load()) / double(size),
                                   "indexing lines");
        }
        ok = r.get() && ok;
    }
    return ok;
}

}  // namespace

std::optional<std::vector<ZdsLineEntry>> indexJsonLines(const ByteSource& data,
                                                        const ZdsIndexOptions& options) {
    const auto ranges = sliceLines(data, threadCount(options));
    std::vector<Slice> slices(ranges.size());
    for (std::size_t t = 0; t < ranges.size(); ++t) {
        slices[t].begin = ranges[t].first;
        slices[t].end = ranges[t].second;
    }
    std::atomic<std::uint64_t> done{0};
    if (!runSlices(slices.size(), data.size(), options, done,
                   [&](std::size_t t) { return indexSlice(data, slices[t], options, done); })) {
        return std::nullopt;
    }
    std::vector<ZdsLineEntry> out = std::move(slices[0].entries);
    for (std::size_t t = 1; t < slices.size(); ++t) {
        std::move(slices[t].entries.begin(), slices[t].entries.end(), std::back_inserter(out));
    }
    options.reportProgress(1.0, "indexed " + std::to_string(out.size()) + " lines");
    return out;
}

std::optional<ZdxBuild> buildZdxFromJsonl(const ByteSource& data, const ZdsIndexOptions& options) {
    const auto ranges = sliceLines(data, threadCount(options));
    struct Part {
        std::string bytes;
        std::uint64_t lines = 0, indexed = 0;
    };
    std::vector<Part> parts(ranges.size());
    std::atomic<std::uint64_t> done{0};
    const auto work = [&](std::size_t t) {
        Part& part = parts[t];
        part.bytes.reserve(static_cast<std::size_t>((ranges[t].second - ranges[t].first) / 2));
        return walkLines(
            data, ranges[t].first, ranges[t].second, options, done,
            [&](std::uint64_t start, std::uint64_t end, const std::uint8_t* bytes) {
                const auto n = static_cast<std::size_t>(end - start);
                ByteView owned;
                if (bytes == nullptr) {
                    owned = data.view(start, end - start);
                    bytes = owned.data();
                }
                if (isBlankLine(bytes, n)) {
                    return;
                }
                ++part.lines;
                std::size_t body = n;
                while (body > 0 && (bytes[body - 1] == '\n' || bytes[body - 1] == '\r')) {
                    --body;
                }
                const auto id = lineId(bytes, body);
                if (id && id->size() <= std::numeric_limits<std::uint16_t>::max() &&
                    end - start <= std::numeric_limits<std::uint32_t>::max()) {
                    appendZdxEntry(part.bytes, *id, start, end - start);
                    ++part.indexed;
                }
            });
    };
    if (!runSlices(parts.size(), data.size(), options, done, work)) {
        return std::nullopt;
    }
    ZdxBuild out;
    for (const Part& p : parts) {
        out.lines += p.lines;
        out.indexed += p.indexed;
    }
    out.parts.reserve(parts.size() + 1);
    out.parts.push_back(encodeZdxHeader(out.indexed));
    for (Part& p : parts) {
        out.parts.push_back(std::move(p.bytes));
    }
    options.reportProgress(1.0, "indexed " + std::to_string(out.indexed) + " lines");
    return out;
}

std::optional<std::string> jsonLineId(std::span<const std::uint8_t> line) {
    return lineId(line.data(), line.size());
}

std::string encodeZdxHeader(std::uint64_t count) {
    std::string out(kZdxMagic);
    appendLe<std::uint32_t>(out, 1);
    appendLe<std::uint64_t>(out, count);
    return out;
}

void appendZdxEntry(std::string& out, std::string_view id, std::uint64_t offset,
                    std::uint64_t length) {
    if (id.size() > std::numeric_limits<std::uint16_t>::max()) {
        throw std::length_error("document id longer than 65535 bytes cannot be indexed");
    }
    if (length > std::numeric_limits<std::uint32_t>::max()) {
        throw std::length_error("document line longer than 4 GiB cannot be indexed");
    }
    appendLe<std::uint16_t>(out, static_cast<std::uint16_t>(id.size()));
    out.append(id);
    appendLe<std::uint64_t>(out, offset);
    appendLe<std::uint32_t>(out, static_cast<std::uint32_t>(length));
}

std::string encodeZdx(const std::vector<ZdsLineEntry>& entries) {
    const auto count = static_cast<std::uint64_t>(
        std::count_if(entries.begin(), entries.end(), [](const auto& e) { return e.hasId; }));
    std::string out = encodeZdxHeader(count);
    for (const ZdsLineEntry& e : entries) {
        if (e.hasId) {
            appendZdxEntry(out, e.id, e.offset, e.length);
        }
    }
    return out;
}

ZdsIdMap::ZdsIdMap(const ZdxIndex& index) {
    const std::uint64_t n = index.entryCount();
    map_.reserve(static_cast<std::size_t>(n));
    for (std::uint64_t i = 0; i < n; ++i) {
        ZdxEntry e = index.entry(i);
        map_[std::move(e.id)] = Hit{i, e.offset, e.length};
    }
}

ZdsIdMap::ZdsIdMap(const std::vector<ZdsLineEntry>& entries) {
    map_.reserve(entries.size());
    for (std::size_t i = 0; i < entries.size(); ++i) {
        if (entries[i].hasId) {
            map_[entries[i].id] = Hit{i, entries[i].offset, entries[i].length};
        }
    }
}

std::optional<ZdsIdMap::Hit> ZdsIdMap::find(std::string_view id) const {
    const auto it = map_.find(std::string(id));
    if (it == map_.end()) {
        return std::nullopt;
    }
    return it->second;
}

std::optional<ZdsIdMap::Hit> findIdInZdx(const ZdxIndex& index, std::string_view id) {
    std::optional<ZdsIdMap::Hit> hit;
    const std::uint64_t n = index.entryCount();
    for (std::uint64_t i = 0; i < n; ++i) {
        const ZdxEntry e = index.entry(i);
        if (e.parsed && e.id == id) {
            hit = ZdsIdMap::Hit{i, e.offset, e.length};  // later entries win
        }
    }
    return hit;
}

}  // namespace strata
