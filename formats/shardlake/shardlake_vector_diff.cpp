#include "shardlake_vector_diff.h"

#include <algorithm>
#include <cstring>
#include <optional>

namespace strata::shardlake {

std::optional<LoadedCodebook> loadCodebook(const ByteSourcePtr& source) {
    if (!source) {
        return std::nullopt;
    }
    const CodebookParse parse = parseCodebook(*source);
    if (!parse.problems.empty() || !parse.layout || !parse.layout->layoutKnown ||
        parse.layout->subDims == 0 ||
        parse.layout->codewordsPresent() != parse.layout->codewordCount) {
        return std::nullopt;
    }
    LoadedCodebook book;
    book.dims = parse.layout->dims;
    book.m = parse.layout->m;
    book.k = parse.layout->k;
    book.subDims = parse.layout->subDims;
    book.codewords =
        readF32s(*source, kCodebookHeaderSize, parse.layout->codewordCount * parse.layout->subDims);
    return book;
}

struct ShardVectorSet::Cursor {
    std::string name;
    ByteSourcePtr source;
    ShardLayout layout;
    std::uint64_t count = 0;
    std::uint64_t pos = 0;
    // Empty when the shard's records are in ascending id order; else (id, record) sorted.
    std::vector<std::pair<std::uint64_t, std::uint64_t>> table;
    // Records read a piece at a time (mutable: values() reads through it too).
    mutable std::optional<RecordReader> reader;
    std::uint64_t currentId = 0;  // the id at pos: the heap compares it many times

    std::uint64_t id() const { return currentId; }
    std::uint64_t record() const { return table.empty() ? pos : table[pos].second; }
    void load() { currentId = table.empty() ? reader->id(pos) : table[pos].first; }
};

ShardVectorSet::ShardVectorSet(std::vector<std::pair<std::string, ByteSourcePtr>> shards) {
    // The walks read every shard at once: their buffers share 64 MiB (4 KiB each at least).
    const std::size_t perCursor = std::clamp<std::size_t>(
        (std::size_t{64} << 20) / std::max<std::size_t>(shards.size(), 1), 4u << 10, 256u << 10);
    for (auto& [name, source] : shards) {
        if (!source) {
            skipped_.push_back(name + ": missing");
            continue;
        }
        const ShardParse parse = parseShard(*source);
        if (!parse.layout || !parse.layout->layoutKnown ||
            (parse.layout->version != 1 && parse.layout->version != 2)) {
            skipped_.push_back(name + ": " +
                               (parse.problems.empty() ? std::string("unreadable header")
                                                       : parse.problems.front().message));
            continue;
        }
        auto cursor = std::make_unique<Cursor>();
        cursor->name = name;
        cursor->source = source;
        cursor->layout = *parse.layout;
        cursor->count = parse.layout->recordsPresent();
        RecordReader ids(*source, cursor->layout, 1u << 20);
        bool sorted = true;
        std::uint64_t previous = 0;
        for (std::uint64_t r = 0; r < cursor->count && sorted; ++r) {
            const std::uint64_t id = ids.id(r);
            sorted = r == 0 || previous <= id;
            previous = id;
        }
        if (!sorted) {
            cursor->table.reserve(cursor->count);
            for (std::uint64_t r = 0; r < cursor->count; ++r) {
                cursor->table.emplace_back(ids.id(r), r);
            }
            std::sort(cursor->table.begin(), cursor->table.end());
        }
        cursor->reader.emplace(*source, cursor->layout, perCursor);
        if (cursor->count > 0) {
            cursor->load();
        }
        cursors_.push_back(std::move(cursor));
    }
    for (std::size_t i = 0; i < cursors_.size(); ++i) {
        if (cursors_[i]->count > 0) {
            heap_.push_back(i);
        }
    }
    // A min-heap on (id, shard): std heaps keep the largest on top, so the order is reversed.
    std::make_heap(heap_.begin(), heap_.end(), [this](std::size_t x, std::size_t y) {
        const auto ix = cursors_[x]->id(), iy = cursors_[y]->id();
        return ix != iy ? ix > iy : x > y;
    });
}

ShardVectorSet::~ShardVectorSet() = default;

bool ShardVectorSet::next(ShardVector& out) {
    if (heap_.empty()) {
        return false;
    }
    const auto later = [this](std::size_t x, std::size_t y) {
        const auto ix = cursors_[x]->id(), iy = cursors_[y]->id();
        return ix != iy ? ix > iy : x > y;
    };
    std::pop_heap(heap_.begin(), heap_.end(), later);
    const std::size_t shard = heap_.back();
    Cursor& c = *cursors_[shard];
    out.id = c.id();
    out.shard = shard;
    out.record = c.record();
    out.region = Region{c.source.get(), c.layout.recordOffset(out.record), c.layout.recordSize};
    if (++c.pos < c.count) {
        c.load();
        std::push_heap(heap_.begin(), heap_.end(), later);
    } else {
        heap_.pop_back();
    }
    return true;
}

const ShardLayout& ShardVectorSet::layout(std::size_t shard) const {
    return cursors_[shard]->layout;
}
const ByteSourcePtr& ShardVectorSet::source(std::size_t shard) const {
    return cursors_[shard]->source;
}
const std::string& ShardVectorSet::name(std::size_t shard) const {
    return cursors_[shard]->name;
}
std::size_t ShardVectorSet::shardCount() const {
    return cursors_.size();
}

bool ShardVectorSet::allRaw() const {
    return std::all_of(cursors_.begin(), cursors_.end(),
                       [](const auto& c) { return !c->layout.isPq(); });
}
bool ShardVectorSet::allPq() const {
    return std::all_of(cursors_.begin(), cursors_.end(),
                       [](const auto& c) { return c->layout.isPq(); });
}

std::uint64_t ShardVectorSet::tabledVectors() const {
    std::uint64_t n = 0;
    for (const auto& c : cursors_) {
        n += c->table.size();
    }
    return n;
}

std::vector<std::uint8_t> ShardVectorSet::codes(const ShardVector& v) const {
    const Cursor& c = *cursors_[v.shard];
    if (!c.layout.isPq()) {
        return {};
    }
    const std::uint8_t* record = c.reader->record(v.record);
    if (record == nullptr || c.layout.recordSize < 8 + std::uint64_t{c.layout.pqM}) {
        return {};
    }
    return {record + 8, record + 8 + c.layout.pqM};
}

std::optional<std::vector<float>> ShardVectorSet::values(
    const ShardVector& v, const std::optional<LoadedCodebook>& codebook) const {
    const Cursor& c = *cursors_[v.shard];
    if (!c.layout.isPq()) {
        const std::uint8_t* record = c.reader->record(v.record);
        if (record == nullptr) {
            return std::vector<float>{};
        }
        std::vector<float> out(c.layout.dims);
        decodeF32s({record + 8, std::size_t{4} * c.layout.dims}, out);
        return out;
    }
    if (!codebook || codebook->dims != c.layout.dims || codebook->m != c.layout.pqM ||
        codebook->m == 0) {
        return std::nullopt;
    }
    const auto codes = this->codes(v);
    std::vector<float> out;
    out.reserve(c.layout.dims);
    for (std::size_t sub = 0; sub < codes.size(); ++sub) {
        if (codes[sub] >= codebook->k) {
            return std::nullopt;
        }
        const float* word =
            codebook->codewords.data() + (sub * codebook->k + codes[sub]) * codebook->subDims;
        out.insert(out.end(), word, word + codebook->subDims);
    }
    return out;
}

}  // namespace strata::shardlake
