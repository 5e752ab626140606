#include "zds_line_index.h"

#include <simdjson.h>
#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstring>
#include <future>
#include <limits>
#include <stdexcept>
#include <thread>
#include <unordered_set>

#include <sys/mman.h>
#include <unistd.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "formats/common/bounds.h"
#include "zds_probe.h"
#include "zds_reader.h"

namespace strata::zds {

namespace {

constexpr std::uint64_t kChunk = 4ull << 20;
constexpr std::uint64_t kMinBytesPerThread = 16ull << 20;
constexpr std::string_view kIdPrefix = R"({"_id":")";
// Repeated ids are looked for bucket by bucket (the top bits of their hash), each bucket small
// enough for its table to stay in cache.
constexpr unsigned kBucketBits = 11;
constexpr std::size_t kHashBuckets = std::size_t{1} << kBucketBits;
constexpr std::size_t kEntryFixed = 2 + 8 + 4;  // id length, offset, length

template <typename T>
void appendLe(std::string& out, T value) {
    for (std::size_t i = 0; i < sizeof(T); ++i) {
        out.push_back(static_cast<char>((value >> (8 * i)) & 0xFF));
    }
}

template <typename T>
void storeLe(char* out, T value) {
    for (std::size_t i = 0; i < sizeof(T); ++i) {
        out[i] = static_cast<char>((value >> (8 * i)) & 0xFF);
    }
}

template <typename T>
T loadLe(const char* in) {
    T value = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i) {
        value |= static_cast<T>(static_cast<std::uint8_t>(in[i])) << (8 * i);
    }
    return value;
}

// One ZDX entry; the caller has checked that the id and length fit.
void putEntry(std::string& out, std::string_view id, std::uint64_t offset, std::uint64_t length) {
    char head[2];
    char tail[12];
    storeLe(head, static_cast<std::uint16_t>(id.size()));
    storeLe(tail, offset);
    storeLe(tail + 8, static_cast<std::uint32_t>(length));
    out.append(head, sizeof head).append(id).append(tail, sizeof tail);
}

// Appends ZDX entries to a string through a staging buffer: one append per 64 KiB rather than
// three per entry.
class EntrySink {
public:
    explicit EntrySink(std::string& out) : out_(out) {}
    ~EntrySink() { flush(); }
    EntrySink(const EntrySink&) = delete;
    EntrySink& operator=(const EntrySink&) = delete;

    void put(std::string_view id, std::uint64_t offset, std::uint64_t length) {
        const std::size_t need = kEntryFixed + id.size();
        if (used_ + need > kSize) {
            flush();
            if (need > kSize) {
                putEntry(out_, id, offset, length);
                return;
            }
        }
        char* p = buffer_.data() + used_;
        storeLe(p, static_cast<std::uint16_t>(id.size()));
        std::memcpy(p + 2, id.data(), id.size());
        storeLe(p + 2 + id.size(), offset);
        storeLe(p + 10 + id.size(), static_cast<std::uint32_t>(length));
        used_ += need;
    }
    void flush() {
        out_.append(buffer_.data(), used_);
        used_ = 0;
    }

private:
    static constexpr std::size_t kSize = 64u << 10;
    std::string& out_;
    std::vector<char> buffer_ = std::vector<char>(kSize);
    std::size_t used_ = 0;
};

// Calls on(id, offset, length) for each entry of bytes written by putEntry.
template <typename On>
void forEachEntry(const std::string& bytes, On&& on) {
    std::size_t at = 0;
    while (at + kEntryFixed <= bytes.size()) {
        const std::size_t n = loadLe<std::uint16_t>(bytes.data() + at);
        const std::string_view id(bytes.data() + at + 2, n);
        const char* tail = bytes.data() + at + 2 + n;
        on(id, loadLe<std::uint64_t>(tail), std::uint64_t{loadLe<std::uint32_t>(tail + 8)});
        at += kEntryFixed + n;
    }
}

bool fitsZdx(std::string_view id, std::uint64_t length) {
    return id.size() <= std::numeric_limits<std::uint16_t>::max() &&
           length <= std::numeric_limits<std::uint32_t>::max();
}

std::uint64_t hashId(std::string_view id) {
    const std::uint64_t h = std::hash<std::string_view>{}(id);
    return h == 0 ? 1 : h;  // 0 marks a free slot in repeatedHashes' tables
}

bool isBlankLine(const std::uint8_t* p, std::size_t n) {
    return std::all_of(
        p, p + n, [](std::uint8_t c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; });
}

// The top-level `_id` of one JSON line through simdjson into `out`; false when there is none.
// The line is copied into a reused buffer with the padding simdjson reads past the end.
bool parsedId(const std::uint8_t* p, std::size_t n, std::string& out) {
    thread_local simdjson::ondemand::parser parser;
    thread_local std::vector<char> padded;
    if (padded.size() < n + simdjson::SIMDJSON_PADDING) {
        padded.resize(n + simdjson::SIMDJSON_PADDING);
    }
    std::memcpy(padded.data(), p, n);
    std::memset(padded.data() + n, 0, simdjson::SIMDJSON_PADDING);
    simdjson::ondemand::document doc;
    if (parser.iterate(padded.data(), n, padded.size()).get(doc) != simdjson::SUCCESS) {
        return false;
    }
    simdjson::ondemand::object object;
    if (doc.get_object().get(object) != simdjson::SUCCESS) {
        return false;
    }
    std::string_view id;
    if (object.find_field("_id").get_string().get(id) != simdjson::SUCCESS) {
        return false;
    }
    out.assign(id);
    return true;
}

enum class LineKind { Blank, NoId, Id };

// What the line [p, p + n) (line ending included) holds. For an id, `id` views the line when it
// starts with `{"_id":"` and the id holds no escape (no parse), else `scratch`, where simdjson
// decoded the top-level `_id`.
LineKind classifyLine(const std::uint8_t* p, std::size_t n, std::string& scratch,
                      std::string_view& id) {
    std::size_t body = n;
    while (body > 0 && (p[body - 1] == '\n' || p[body - 1] == '\r')) {
        --body;
    }
    if (body >= kIdPrefix.size() && std::memcmp(p, kIdPrefix.data(), kIdPrefix.size()) == 0) {
        // The id ends at the first quote; a backslash before it means an escape: parse.
        const std::uint8_t* start = p + kIdPrefix.size();
        const std::uint8_t* stop = p + body;
        const std::uint8_t* q = start;
        while (q < stop && *q != '"' && *q != '\\') {
            ++q;
        }
        if (q < stop && *q == '"') {
            id = std::string_view(reinterpret_cast<const char*>(start),
                                  static_cast<std::size_t>(q - start));
            return LineKind::Id;
        }
    } else if (isBlankLine(p, n)) {
        return LineKind::Blank;
    }
    if (!parsedId(p, body, scratch)) {
        return LineKind::NoId;
    }
    id = scratch;
    return LineKind::Id;
}

// Maps the pages of a view before the scan touches them: one call instead of a page fault per
// few pages of a file mapping. Only a hint; failures are ignored.
void prefault(const ByteView& v) {
#ifdef MADV_POPULATE_READ
    const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
    const auto begin = reinterpret_cast<std::uintptr_t>(v.data()) & ~(page - 1);
    const auto end = reinterpret_cast<std::uintptr_t>(v.data() + v.size());
    ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_POPULATE_READ);
#else
    (void)v;
#endif
}

// Asks for transparent huge pages under a large buffer about to be filled: one fault per 2 MiB
// instead of one per 4 KiB page (a 1 GiB JSONL file gives about 500 MB of ZDX). Only a hint.
void adviseHugePages(const void* data, std::size_t size) {
#ifdef MADV_HUGEPAGE
    constexpr std::uintptr_t kHuge = 2u << 20;
    const auto begin = (reinterpret_cast<std::uintptr_t>(data) + kHuge - 1) & ~(kHuge - 1);
    const auto end = (reinterpret_cast<std::uintptr_t>(data) + size) & ~(kHuge - 1);
    if (end > begin) {
        ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
    }
#else
    (void)data;
    (void)size;
#endif
}

// Calls on(i) for the position of every '\n' in p[0, n), in order. Documents are short (tens
// of bytes), so one memchr call per line costs more than the search: with SSE2 (every x86-64)
// 64 bytes at a time become a bit mask of their newlines.
template <typename On>
void forEachNewline(const std::uint8_t* p, std::size_t n, On&& on) {
    std::size_t i = 0;
#ifdef __SSE2__
    const __m128i newline = _mm_set1_epi8('\n');
    const auto maskOf = [&](std::size_t at) {
        const auto* q = reinterpret_cast<const __m128i*>(p + at);
        const auto m = [&](int k) {
            return static_cast<std::uint64_t>(static_cast<std::uint32_t>(
                _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(q + k), newline))));
        };
        return m(0) | m(1) << 16 | m(2) << 32 | m(3) << 48;
    };
    for (; i + 64 <= n; i += 64) {
        for (std::uint64_t mask = maskOf(i); mask != 0; mask &= mask - 1) {
            on(i + static_cast<std::size_t>(std::countr_zero(mask)));
        }
    }
#endif
    while (i < n) {
        const void* nl = std::memchr(p + i, '\n', n - i);
        if (nl == nullptr) {
            break;
        }
        i = static_cast<std::size_t>(static_cast<const std::uint8_t*>(nl) - p);
        on(i);
        ++i;
    }
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
        const std::uint64_t want = std::min(kChunk, end - at);
        const ByteView v = data.view(at, want);
        if (v.empty()) {
            end = at;  // a source shorter than it claims (a damaged archive member)
            break;
        }
        prefault(v);
        forEachNewline(v.data(), v.size(), [&](std::size_t i) {
            const std::uint64_t lineEnd = at + i + 1;
            on(lineStart, lineEnd, lineStart >= at ? v.data() + (lineStart - at) : nullptr);
            lineStart = lineEnd;
        });
        done.fetch_add(v.size(), std::memory_order_relaxed);
        at += v.size();
        if (v.size() < want) {
            end = at;
            break;
        }
    }
    if (lineStart < end) {  // the last line without '\n'
        on(lineStart, end, nullptr);
    }
    return true;
}

// Calls on(start, end, kind, id) for every line of [begin, end) but blank ones.
template <typename OnLine>
bool classifyLines(const ByteSource& data, std::uint64_t begin, std::uint64_t end,
                   const ZdsIndexOptions& options, std::atomic<std::uint64_t>& done, OnLine&& on) {
    std::string scratch;
    return walkLines(data, begin, end, options, done,
                     [&](std::uint64_t start, std::uint64_t stop, const std::uint8_t* bytes) {
                         ByteView owned;
                         std::size_t length = static_cast<std::size_t>(stop - start);
                         if (bytes == nullptr) {  // a line longer than one chunk
                             owned = data.view(start, stop - start);
                             bytes = owned.data();
                             length = owned.size();
                         }
                         std::string_view id;
                         const LineKind kind = classifyLine(bytes, length, scratch, id);
                         if (kind != LineKind::Blank) {
                             on(start, stop, kind, id);
                         }
                     });
}

struct Slice {
    std::uint64_t begin = 0;
    std::uint64_t end = 0;
    std::vector<ZdsLineEntry> entries;
};

bool indexSlice(const ByteSource& data, Slice& slice, const ZdsIndexOptions& options,
                std::atomic<std::uint64_t>& done) {
    slice.entries.reserve(static_cast<std::size_t>((slice.end - slice.begin) / 128));
    return classifyLines(
        data, slice.begin, slice.end, options, done,
        [&](std::uint64_t start, std::uint64_t end, LineKind kind, std::string_view id) {
            ZdsLineEntry& e = slice.entries.emplace_back();
            e.offset = start;
            e.length = end - start;
            if (kind == LineKind::Id) {
                e.id = id;
                e.hasId = true;
            }
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
                             : std::max(begin, jsonLineEnd(data, size / threads * (t + 1) - 1));
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

// The ZDX entries of one line-aligned slice of data.jsonl, in file order.
struct SliceZdx {
    std::string entries;
    std::vector<std::uint64_t> hashes;   // of each entry's id (kept only when repeats matter)
    std::vector<std::uint64_t> buckets;  // how many hashes fall in each bucket
    std::uint64_t lines = 0;
    std::uint64_t indexed = 0;
    std::uint64_t withoutId = 0;
    bool complete = true;  // false: an id or a line ZDX cannot describe was left out
};

// Scans every slice in parallel. Nothing when cancelled.
std::optional<std::vector<SliceZdx>> scanSlices(const ByteSource& data,
                                                const ZdsIndexOptions& options, bool hashIds) {
    const auto ranges = sliceLines(data, threadCount(options));
    std::vector<SliceZdx> slices(ranges.size());
    std::atomic<std::uint64_t> done{0};
    const auto work = [&](std::size_t t) {
        SliceZdx& s = slices[t];
        const auto bytes = static_cast<std::size_t>(ranges[t].second - ranges[t].first);
        s.entries.reserve(bytes / 2);
        adviseHugePages(s.entries.data(), s.entries.capacity());
        if (hashIds) {
            s.hashes.reserve(bytes / 24);
            adviseHugePages(s.hashes.data(), s.hashes.capacity() * sizeof(std::uint64_t));
            s.buckets.assign(kHashBuckets, 0);
        }
        EntrySink sink(s.entries);
        const bool ok = classifyLines(
            data, ranges[t].first, ranges[t].second, options, done,
            [&](std::uint64_t start, std::uint64_t end, LineKind kind, std::string_view id) {
                ++s.lines;
                if (kind != LineKind::Id) {
                    ++s.withoutId;
                } else if (!fitsZdx(id, end - start)) {
                    s.complete = false;
                } else {
                    sink.put(id, start, end - start);
                    ++s.indexed;
                    if (hashIds) {
                        const std::uint64_t h = hashId(id);
                        s.hashes.push_back(h);
                        ++s.buckets[h >> (64 - kBucketBits)];
                    }
                }
            });
        sink.flush();
        return ok;
    };
    if (!runSlices(slices.size(), data.size(), options, done, work)) {
        return std::nullopt;
    }
    return slices;
}

// Runs work(t) for t in [0, count) on as many threads.
template <typename Work>
void parallelFor(std::size_t count, Work&& work) {
    std::vector<std::future<void>> results;
    for (std::size_t t = 1; t < count; ++t) {
        results.push_back(std::async(std::launch::async, [&work, t] { work(t); }));
    }
    work(0);
    for (auto& r : results) {
        r.get();
    }
}

// The slices' hashes grouped by bucket (each slice scatters its own, in parallel); `starts`
// gets where each bucket begins, and its end.
std::vector<std::uint64_t> groupByBucket(const std::vector<SliceZdx>& slices,
                                         std::vector<std::size_t>& starts) {
    // Where slice s writes bucket b: after the bucket's earlier buckets and earlier slices.
    std::vector<std::vector<std::size_t>> cursors(slices.size(),
                                                  std::vector<std::size_t>(kHashBuckets));
    starts.assign(kHashBuckets + 1, 0);
    std::size_t at = 0;
    for (std::size_t b = 0; b < kHashBuckets; ++b) {
        starts[b] = at;
        for (std::size_t s = 0; s < slices.size(); ++s) {
            cursors[s][b] = at;
            at += static_cast<std::size_t>(slices[s].buckets[b]);
        }
    }
    starts[kHashBuckets] = at;
    std::vector<std::uint64_t> grouped;
    grouped.reserve(at);
    adviseHugePages(grouped.data(), at * sizeof(std::uint64_t));
    grouped.resize(at);
    parallelFor(slices.size(), [&](std::size_t s) {
        std::vector<std::size_t>& cursor = cursors[s];
        for (const std::uint64_t h : slices[s].hashes) {
            grouped[cursor[h >> (64 - kBucketBits)]++] = h;
        }
    });
    return grouped;
}

// Hash values that occur more than once among the slices' ids: a repeated id, or (rarely) two
// ids with the same hash. Each bucket gets a small open-addressing table that stays in cache.
std::vector<std::uint64_t> repeatedHashes(const std::vector<SliceZdx>& slices, unsigned threads) {
    std::vector<std::size_t> starts;
    const std::vector<std::uint64_t> grouped = groupByBucket(slices, starts);
    std::vector<std::vector<std::uint64_t>> found(threads);
    parallelFor(threads, [&](std::size_t t) {
        std::vector<std::uint64_t> table;
        for (std::size_t b = t; b < kHashBuckets; b += threads) {
            const std::size_t n = starts[b + 1] - starts[b];
            std::size_t capacity = 16;
            while (capacity < 2 * n) {
                capacity <<= 1;
            }
            table.assign(capacity, 0);
            const std::size_t mask = capacity - 1;
            for (std::size_t k = starts[b]; k < starts[b + 1]; ++k) {
                const std::uint64_t h = grouped[k];
                for (std::size_t i = static_cast<std::size_t>(h) & mask;; i = (i + 1) & mask) {
                    if (table[i] == 0) {
                        table[i] = h;
                        break;
                    }
                    if (table[i] == h) {
                        found[t].push_back(h);
                        break;
                    }
                }
            }
        }
    });
    std::vector<std::uint64_t> out;
    for (const auto& f : found) {
        out.insert(out.end(), f.begin(), f.end());
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

// Drops every entry whose id a later entry (in file order) repeats; returns how many. Only ids
// whose hash repeats are compared, as strings.
std::uint64_t dropSuperseded(std::vector<SliceZdx>& slices,
                             const std::vector<std::uint64_t>& repeated) {
    if (repeated.empty()) {
        return 0;
    }
    const std::unordered_set<std::uint64_t> suspect(repeated.begin(), repeated.end());
    std::unordered_map<std::string, std::uint64_t> lastOf;
    std::uint64_t index = 0;
    for (const SliceZdx& s : slices) {
        forEachEntry(s.entries, [&](std::string_view id, std::uint64_t, std::uint64_t) {
            if (suspect.count(hashId(id)) != 0) {
                lastOf[std::string(id)] = index;
            }
            ++index;
        });
    }
    std::uint64_t dropped = 0;
    index = 0;
    for (SliceZdx& s : slices) {
        std::string kept;
        kept.reserve(s.entries.size());
        forEachEntry(
            s.entries, [&](std::string_view id, std::uint64_t offset, std::uint64_t length) {
                if (suspect.count(hashId(id)) != 0 && lastOf.at(std::string(id)) != index) {
                    ++dropped;
                    --s.indexed;
                } else {
                    putEntry(kept, id, offset, length);
                }
                ++index;
            });
        s.entries = std::move(kept);
    }
    return dropped;
}

ZdxBuild assemble(std::vector<SliceZdx>& slices) {
    ZdxBuild out;
    for (const SliceZdx& s : slices) {
        out.lines += s.lines;
        out.indexed += s.indexed;
        out.withoutId += s.withoutId;
        out.complete = out.complete && s.complete;
    }
    out.parts.reserve(slices.size() + 1);
    out.parts.push_back(encodeZdxHeader(out.indexed));
    for (SliceZdx& s : slices) {
        out.parts.push_back(std::move(s.entries));
    }
    return out;
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

std::vector<ZdsLineEntry> liveLines(const std::vector<ZdsLineEntry>& lines) {
    std::unordered_map<std::string_view, std::size_t> lastOf;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (lines[i].hasId) {
            lastOf[lines[i].id] = i;
        }
    }
    std::vector<ZdsLineEntry> kept;
    kept.reserve(lastOf.size());
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (lines[i].hasId && lastOf[lines[i].id] == i) {
            kept.push_back(lines[i]);
        }
    }
    return kept;
}

std::optional<ZdxBuild> buildZdxFromJsonl(const ByteSource& data, const ZdsIndexOptions& options) {
    auto slices = scanSlices(data, options, false);
    if (!slices) {
        return std::nullopt;
    }
    ZdxBuild out = assemble(*slices);
    options.reportProgress(1.0, "indexed " + std::to_string(out.indexed) + " lines");
    return out;
}

std::optional<ZdxBuild> buildLiveZdx(const ByteSource& data, const ZdsIndexOptions& options) {
    auto slices = scanSlices(data, options, true);
    if (!slices) {
        return std::nullopt;
    }
    for (const SliceZdx& s : *slices) {
        if (!s.complete) {
            ZdxBuild out;
            out.complete = false;
            return out;
        }
    }
    options.reportProgress(1.0, "finding repeated ids");
    const auto repeated = repeatedHashes(*slices, std::max(1u, threadCount(options)));
    if (options.cancelled()) {
        return std::nullopt;
    }
    const std::uint64_t superseded = dropSuperseded(*slices, repeated);
    ZdxBuild out = assemble(*slices);
    out.superseded = superseded;
    options.reportProgress(1.0, "indexed " + std::to_string(out.indexed) + " lines");
    return out;
}

void forEachZdxEntry(
    const ZdxBuild& build,
    const std::function<void(std::string_view, std::uint64_t, std::uint64_t)>& on) {
    for (std::size_t i = 1; i < build.parts.size(); ++i) {
        forEachEntry(build.parts[i], on);
    }
}

std::optional<std::string> jsonLineId(std::span<const std::uint8_t> line) {
    std::string scratch;
    std::string_view id;
    if (classifyLine(line.data(), line.size(), scratch, id) != LineKind::Id) {
        return std::nullopt;
    }
    return std::string(id);
}

std::optional<std::string> parsedJsonLineId(std::span<const std::uint8_t> line) {
    std::string id;
    if (!parsedId(line.data(), line.size(), id)) {
        return std::nullopt;
    }
    return id;
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

std::uint64_t jsonLineEnd(const ByteSource& data, std::uint64_t from) {
    constexpr std::uint64_t kFirstLook = 4096;
    const std::uint64_t size = data.size();
    std::uint64_t look = kFirstLook;
    for (std::uint64_t at = from; at < size; at += look, look = std::min(look * 2, kChunk)) {
        const ByteView v = data.view(at, look);
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

}  // namespace strata::zds
