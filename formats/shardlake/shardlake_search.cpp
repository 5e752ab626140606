#include "shardlake_search.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstring>
#include <queue>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include "formats/common/le_reader.h"
#include "formats/common/thread_cancel.h"
#include "shardlake_distance_kernels.h"
#include "shardlake_json.h"
#include "shardlake_manifest.h"

namespace strata::shardlake {

namespace {

// Ascending by score with NaN after every number; equal scores keep `seq` order.
struct Ranked {
    float score;
    std::uint64_t seq;
    std::uint64_t id;
};

bool scoreLess(float a, float b) {
    if (std::isnan(a)) {
        return false;
    }
    return std::isnan(b) || a < b;
}

bool rankedLess(const Ranked& a, const Ranked& b) {
    if (scoreLess(a.score, b.score)) {
        return true;
    }
    if (scoreLess(b.score, a.score)) {
        return false;
    }
    return a.seq < b.seq;
}

// Keeps the k best of a stream of candidates.
class TopK {
public:
    explicit TopK(std::size_t k) : k_(k) {}
    void offer(float score, std::uint64_t seq, std::uint64_t id) {
        if (k_ == 0) {
            return;
        }
        const Ranked candidate{score, seq, id};
        if (heap_.size() < k_) {
            heap_.push(candidate);
        } else if (rankedLess(candidate, heap_.top())) {
            heap_.pop();
            heap_.push(candidate);
        }
    }
    std::vector<Hit> take() {
        std::vector<Ranked> items;
        while (!heap_.empty()) {
            items.push_back(heap_.top());
            heap_.pop();
        }
        std::sort(items.begin(), items.end(), rankedLess);
        std::vector<Hit> out;
        for (const Ranked& r : items) {
            out.push_back({r.id, r.score});
        }
        return out;
    }

private:
    struct Worse {
        bool operator()(const Ranked& a, const Ranked& b) const { return rankedLess(a, b); }
    };
    std::size_t k_;
    std::priority_queue<Ranked, std::vector<Ranked>, Worse> heap_;
};

float dot(std::span<const float> a, std::span<const float> b) {
    float sum = 0.0f;
    for (std::size_t i = 0; i < a.size(); ++i) {
        sum += a[i] * b[i];
    }
    return sum;
}

// Squared L2 from the query's subvector to every codeword, per subspace: table[m × K + c].
std::vector<float> adcTable(const LoadedIndex& index, std::span<const float> query) {
    std::vector<float> table(std::size_t{index.pqM} * index.pqK);
    for (std::size_t m = 0; m < index.pqM; ++m) {
        const auto sub = query.subspan(m * index.subDims, index.subDims);
        for (std::size_t c = 0; c < index.pqK; ++c) {
            const std::span<const float> word(
                index.codebook.data() + (m * index.pqK + c) * index.subDims, index.subDims);
            table[m * index.pqK + c] = squaredL2(sub, word);
        }
    }
    return table;
}

// Records scored a block at a time: the block is laid out component-major and handed to the
// distance kernels, which keep each record's sums in component order, so the results are those of
// distance() bit for bit while the loops run across records in SIMD registers.
constexpr std::size_t kBlock = 4 * kKernelLanes;

struct BlockScorer {
    BlockScorer(Metric m, std::span<const float> q, std::uint32_t dims)
        : metric(m), query(q), queryNorm(std::sqrt(dot(q, q))), block(dims * kBlock) {}

    // Scores `lanes` records starting at `records` (stride `recordSize`) into scores[0..lanes).
    void score(const std::uint8_t* records, std::uint64_t recordSize, std::size_t lanes) {
        const std::size_t dims = query.size();
        for (std::size_t lane = 0; lane < lanes; ++lane) {
            const std::uint8_t* values = records + lane * recordSize + 8;
            for (std::size_t j = 0; j < dims; ++j) {
                std::uint32_t bits;
                std::memcpy(&bits, values + 4 * j, 4);
                block[j * kBlock + lane] = std::bit_cast<float>(le32(bits));
            }
        }
        if (metric == Metric::Euclidean) {
            squaredL2ToMany(query.data(), block.data(), dims, kBlock, scores);
            for (std::size_t lane = 0; lane < lanes; ++lane) {
                scores[lane] = std::sqrt(scores[lane]);
            }
        } else if (metric == Metric::InnerProduct) {
            dotToMany(query.data(), block.data(), dims, kBlock, scores);
            for (std::size_t lane = 0; lane < lanes; ++lane) {
                scores[lane] = -scores[lane];
            }
        } else {
            dotAndNormToMany(query.data(), block.data(), dims, kBlock, scores, norms);
            for (std::size_t lane = 0; lane < lanes; ++lane) {
                const float nb = std::sqrt(norms[lane]);
                scores[lane] =
                    queryNorm == 0.0f || nb == 0.0f ? 1.0f : 1.0f - scores[lane] / (queryNorm * nb);
            }
        }
    }

    static std::uint32_t le32(std::uint32_t bits) {
        if constexpr (std::endian::native == std::endian::little) {
            return bits;
        } else {
            return decodeLe<std::uint32_t>(reinterpret_cast<const std::uint8_t*>(&bits));
        }
    }

    Metric metric;
    std::span<const float> query;
    float queryNorm;
    std::vector<float> block;
    float scores[kBlock];
    float norms[kBlock];
};

// Records [first, last) of a shard, whole records: `visit(at, records, n)` gets records
// at..at+n; false stops. A long range of a file read on demand is mapped for the pass (faulting
// its pages in, several at a time, costs less than copying them: a full probe of 52 MB took 15%
// longer read); a short one (the small shards of a root of thousands) is read a piece at a time
// into a buffer that stays in cache, which costs fewer system calls than a mapping. A file cut
// short since it was loaded ends the scan there.
template <class Visit>
void forRecordPieces(const LoadedIndex::Shard& shard, std::uint64_t first, std::uint64_t last,
                     const CancelToken* cancel, Visit visit) {
    constexpr std::uint64_t kPieceBytes = 1u << 20;
    const ShardLayout& layout = shard.layout;
    if ((last - first) * layout.recordSize >= kPieceBytes) {
        // Sources other than files read on demand (a mapping, a remote file) are viewed directly.
        const ByteSourcePtr mapped = mappedForScan(*shard.source);
        const ByteView view =
            (mapped ? *mapped : *shard.source)
                .view(layout.recordOffset(first), (last - first) * layout.recordSize);
        if (const std::uint64_t n = view.size() / layout.recordSize; n > 0) {
            visit(first, view.data(), n);
        }
        return;
    }
    const std::uint64_t perPiece =
        std::max<std::uint64_t>(kBlock, kPieceBytes / layout.recordSize / kBlock * kBlock);
    thread_local std::vector<std::uint8_t> buffer;
    for (std::uint64_t at = first; at < last; at += perPiece) {
        if (cancel != nullptr && cancel->cancelled()) {
            return;
        }
        const std::uint64_t n = std::min(perPiece, last - at);
        buffer.resize(static_cast<std::size_t>(n * layout.recordSize));
        const std::uint64_t got =
            shard.source->read(layout.recordOffset(at), buffer) / layout.recordSize;
        if (got > 0 && !visit(at, buffer.data(), got)) {
            return;
        }
        if (got < n) {
            return;
        }
    }
}

// Records [first, last) of one raw shard; `seq` is the record index, so ties keep record order.
std::vector<Hit> scanRawShard(const LoadedIndex::Shard& shard, std::span<const float> query,
                              Metric metric, std::size_t k, const CancelToken* cancel,
                              std::uint64_t first, std::uint64_t last) {
    const ShardLayout& layout = shard.layout;
    BlockScorer scorer(metric, query, layout.dims);
    TopK top(k);
    forRecordPieces(
        shard, first, last, cancel,
        [&](std::uint64_t at, const std::uint8_t* piece, std::uint64_t n) {
            for (std::uint64_t i = 0; i < n; i += kBlock) {
                const auto lanes = static_cast<std::size_t>(std::min<std::uint64_t>(kBlock, n - i));
                const std::uint8_t* records = piece + i * layout.recordSize;
                scorer.score(records, layout.recordSize, lanes);
                for (std::size_t lane = 0; lane < lanes; ++lane) {
                    top.offer(scorer.scores[lane], at + i + lane,
                              decodeLe<std::uint64_t>(records + lane * layout.recordSize));
                }
            }
            return true;
        });
    return top.take();
}

std::vector<Hit> scanPqShard(const LoadedIndex& index, const LoadedIndex::Shard& shard,
                             std::span<const float> table, std::size_t k, const CancelToken* cancel,
                             std::uint64_t first, std::uint64_t last) {
    const ShardLayout& layout = shard.layout;
    TopK top(k);
    forRecordPieces(shard, first, last, cancel,
                    [&](std::uint64_t at, const std::uint8_t* piece, std::uint64_t n) {
                        for (std::uint64_t i = 0; i < n; ++i) {
                            const std::uint8_t* record = piece + i * layout.recordSize;
                            float score = 0.0f;
                            for (std::size_t m = 0; m < index.pqM; ++m) {
                                const std::uint8_t code = record[8 + m];
                                score += code < index.pqK ? table[m * index.pqK + code] : NAN;
                            }
                            top.offer(score, at + i, decodeLe<std::uint64_t>(record));
                        }
                        return true;
                    });
    return top.take();
}

std::string loadShards(const Store& store, const IndexManifest& manifest, LoadedIndex& index) {
    for (const ShardEntry& entry : manifest.shards) {
        ByteSourcePtr source = store.source(entry.artifactKey);
        if (!source) {
            return "shard missing: " + entry.artifactKey;
        }
        const ShardParse parse = parseShard(*source);
        if (!parse.problems.empty() || !parse.layout) {
            return entry.artifactKey + ": " +
                   (parse.problems.empty() ? "unreadable" : parse.problems.front().message);
        }
        if (parse.layout->dims != index.dims || parse.layout->isPq() != index.pq) {
            return entry.artifactKey + ": header does not match the manifest";
        }
        if (index.pq && (parse.layout->pqM != index.pqM || parse.layout->pqK != index.pqK)) {
            return entry.artifactKey + ": pq_m/pq_k differ from the codebook";
        }
        index.shards.push_back({entry.shardId.value_or(0), source, *parse.layout});
    }
    return {};
}

std::string loadCodebook(const Store& store, const IndexManifest& manifest, LoadedIndex& index) {
    ByteSourcePtr source = store.source(manifest.compression.codebookKey);
    if (!source) {
        return "PQ codebook missing";
    }
    const CodebookParse parse = parseCodebook(*source);
    if (!parse.problems.empty() || !parse.layout || parse.layout->dims != index.dims) {
        return "PQ codebook unreadable";
    }
    index.pqM = parse.layout->m;
    index.pqK = parse.layout->k;
    index.subDims = parse.layout->subDims;
    index.codebook =
        readF32s(*source, kCodebookHeaderSize, parse.layout->codewordCount * index.subDims);
    return {};
}

void loadCentroids(const Store& store, const IndexManifest& manifest, LoadedIndex& index) {
    ByteSourcePtr source = store.source(manifest.coarseQuantizerKey);
    if (!source) {
        return;
    }
    const CoarseParse parse = parseCoarseQuantizer(*source);
    if (!parse.problems.empty() || !parse.layout || parse.layout->dims != index.dims) {
        return;
    }
    // One read for all of them: a read each is a system call each for a file read on demand.
    const std::uint64_t present = parse.layout->centroidsPresent();
    const std::vector<float> all =
        readF32s(*source, parse.layout->centroidOffset(0), present * parse.layout->dims);
    for (std::uint64_t i = 0; i < parse.layout->clusters; ++i) {
        const auto at = all.begin() + static_cast<std::ptrdiff_t>(i * parse.layout->dims);
        index.centroids.push_back(
            i < present && !all.empty()
                ? std::vector<float>(at, at + static_cast<std::ptrdiff_t>(parse.layout->dims))
                : std::vector<float>{});
    }
}

}  // namespace

std::optional<Metric> metricFromName(std::string_view name) {
    if (name == "cosine") {
        return Metric::Cosine;
    }
    if (name == "euclidean") {
        return Metric::Euclidean;
    }
    if (name == "inner_product" || name == "inner-product") {
        return Metric::InnerProduct;
    }
    return std::nullopt;
}

std::string_view metricName(Metric metric) {
    switch (metric) {
        case Metric::Cosine:
            return "cosine";
        case Metric::Euclidean:
            return "euclidean";
        case Metric::InnerProduct:
            return "inner_product";
    }
    return "euclidean";
}

float squaredL2(std::span<const float> a, std::span<const float> b) {
    float sum = 0.0f;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const float d = a[i] - b[i];
        sum += d * d;
    }
    return sum;
}

float distance(Metric metric, std::span<const float> a, std::span<const float> b) {
    switch (metric) {
        case Metric::Euclidean:
            return std::sqrt(squaredL2(a, b));
        case Metric::InnerProduct:
            return -dot(a, b);
        case Metric::Cosine: {
            const float ab = dot(a, b);
            const float na = std::sqrt(dot(a, a));
            const float nb = std::sqrt(dot(b, b));
            if (na == 0.0f || nb == 0.0f) {
                return 1.0f;
            }
            const float denominator = na * nb;
            return 1.0f - ab / denominator;
        }
    }
    return 0.0f;
}

void mergeHits(std::vector<Hit>& hits, std::size_t k) {
    std::stable_sort(hits.begin(), hits.end(),
                     [](const Hit& a, const Hit& b) { return scoreLess(a.score, b.score); });
    std::unordered_set<std::uint64_t> seen;
    std::vector<Hit> out;
    for (const Hit& hit : hits) {
        if (out.size() >= k) {
            break;
        }
        if (seen.insert(hit.id).second) {
            out.push_back(hit);
        }
    }
    hits = std::move(out);
}

IndexLoad loadIndex(const Store& store, const std::string& version) {
    IndexLoad out;
    const JsonDoc doc = loadJson(store.source("indexes/" + version + "/manifest.json"));
    if (!doc.parsed) {
        out.error = "manifest unreadable: " + doc.error;
        return out;
    }
    std::vector<Diagnostic> ignored;
    const IndexManifest manifest = readIndexManifest(doc, ignored);
    const auto metric = metricFromName(manifest.metric);
    if (!metric || !manifest.dims || *manifest.dims == 0 || *manifest.dims > 0xffffffffu) {
        out.error = "manifest lacks a usable metric or dims";
        return out;
    }
    LoadedIndex index;
    index.version = version;
    index.metric = *metric;
    index.dims = static_cast<std::uint32_t>(*manifest.dims);
    index.pq = manifest.compression.pqShards();
    std::vector<std::string> keys{manifest.coarseQuantizerKey};
    if (index.pq) {
        keys.push_back(manifest.compression.codebookKey);
    }
    for (const ShardEntry& entry : manifest.shards) {
        keys.push_back(entry.artifactKey);
    }
    store.prefetch(keys);
    if (index.pq) {
        if (std::string error = loadCodebook(store, manifest, index); !error.empty()) {
            out.error = error;
            return out;
        }
    }
    if (std::string error = loadShards(store, manifest, index); !error.empty()) {
        out.error = error;
        return out;
    }
    loadCentroids(store, manifest, index);
    out.index = std::move(index);
    return out;
}

std::vector<std::size_t> routeQuery(const LoadedIndex& index, std::span<const float> query,
                                    std::size_t nprobe) {
    std::vector<std::size_t> order;
    if (index.centroids.empty()) {
        for (std::size_t i = 0; i < index.shards.size(); ++i) {
            order.push_back(i);
        }
    } else {
        std::vector<Ranked> ranked;
        for (std::size_t c = 0; c < index.centroids.size(); ++c) {
            ranked.push_back({squaredL2(query, index.centroids[c]), c, c});
        }
        std::sort(ranked.begin(), ranked.end(), rankedLess);
        // Shards by id, found once: a scan of every shard per centroid was quadratic.
        std::unordered_map<std::uint64_t, std::vector<std::size_t>> byId;
        for (std::size_t s = 0; s < index.shards.size(); ++s) {
            byId[index.shards[s].shardId].push_back(s);
        }
        for (const Ranked& r : ranked) {
            if (nprobe != 0 && order.size() >= nprobe) {
                break;
            }
            if (const auto it = byId.find(r.id); it != byId.end()) {
                order.insert(order.end(), it->second.begin(), it->second.end());
            }
        }
    }
    if (nprobe != 0 && order.size() > nprobe) {
        order.resize(nprobe);
    }
    return order;
}

SearchResult searchIndex(const LoadedIndex& index, std::span<const float> query,
                         const SearchOptions& options) {
    SearchResult result;
    const Metric metric = options.metric.value_or(index.metric);
    if (query.size() != index.dims) {
        result.error = "query has " + std::to_string(query.size()) + " values; the index has " +
                       std::to_string(index.dims) + " dims";
        return result;
    }
    if (index.pq && metric != Metric::Euclidean) {
        result.error =
            "a PQ index supports only the euclidean metric, not " + std::string(metricName(metric));
        return result;
    }
    const std::vector<std::size_t> probes = routeQuery(index, query, options.nprobe);
    const std::vector<float> table = index.pq ? adcTable(index, query) : std::vector<float>{};
    // Work items: each probed shard cut into record ranges, so one big shard uses every core.
    // Items keep probe order, then record order, which the stable merge below preserves.
    struct Item {
        std::size_t slot;
        std::uint64_t first;
        std::uint64_t last;
    };
    constexpr std::uint64_t kChunk = 16384;
    std::vector<Item> items;
    for (std::size_t slot = 0; slot < probes.size(); ++slot) {
        const std::uint64_t count = index.shards[probes[slot]].layout.recordsPresent();
        for (std::uint64_t first = 0; first < count; first += kChunk) {
            items.push_back({slot, first, std::min(count, first + kChunk)});
        }
    }
    std::vector<std::vector<Hit>> perItem(items.size());
    std::atomic<std::size_t> next{0};
    const auto work = [&] {
        for (std::size_t i = next++; i < items.size(); i = next++) {
            const Item& item = items[i];
            const LoadedIndex::Shard& shard = index.shards[probes[item.slot]];
            perItem[i] = index.pq ? scanPqShard(index, shard, table, options.k, options.cancel,
                                                item.first, item.last)
                                  : scanRawShard(shard, query, metric, options.k, options.cancel,
                                                 item.first, item.last);
            for (Hit& hit : perItem[i]) {
                hit.shardId = shard.shardId;
            }
        }
    };
    unsigned threads =
        options.threads != 0 ? options.threads : std::max(1u, std::thread::hardware_concurrency());
    threads = static_cast<unsigned>(std::min<std::size_t>(threads, items.size()));
    if (threads <= 1) {
        work();
    } else {
        std::vector<std::thread> workers;
        for (unsigned t = 1; t < threads; ++t) {
            workers.push_back(startThreadInheritingCancel(work));
        }
        work();
        for (std::thread& worker : workers) {
            worker.join();
        }
    }
    for (const std::vector<Hit>& hits : perItem) {
        result.hits.insert(result.hits.end(), hits.begin(), hits.end());
    }
    mergeHits(result.hits, options.k);
    return result;
}

SearchResult exactSearch(std::span<const DatasetVector> vectors, std::span<const float> query,
                         Metric metric, std::size_t k) {
    SearchResult result;
    TopK top(k);
    for (std::size_t i = 0; i < vectors.size(); ++i) {
        if (vectors[i].values.size() != query.size()) {
            result.error = "vector " + std::to_string(vectors[i].id) + " has " +
                           std::to_string(vectors[i].values.size()) + " values; the query has " +
                           std::to_string(query.size());
            return result;
        }
        top.offer(distance(metric, query, vectors[i].values), i, vectors[i].id);
    }
    result.hits = top.take();
    return result;
}

}  // namespace strata::shardlake
