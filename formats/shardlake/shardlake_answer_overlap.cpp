#include "shardlake_answer_overlap.h"

#include <algorithm>
#include <cstring>
#include <thread>
#include <unordered_set>
#include <vector>

#include "formats/common/thread_cancel.h"
#include "shardlake_dataset.h"
#include "shardlake_json.h"
#include "shardlake_manifest.h"
#include "shardlake_search.h"

namespace strata::shardlake {

namespace {

using Answers = std::vector<std::vector<std::uint64_t>>;  // per query, the ids in rank order

bool cancelled(const AnswerOverlapOptions& options) {
    return options.cancel != nullptr && options.cancel->cancelled();
}

std::optional<std::size_t> manifestNprobe(const Store& store, const std::string& version) {
    const JsonDoc doc = loadJson(store.source("indexes/" + version + "/manifest.json"));
    if (!doc.parsed || !doc.value.is_object()) {
        return std::nullopt;
    }
    const auto build = doc.value.find("build_metadata");
    if (build == doc.value.end() || !build->is_object()) {
        return std::nullopt;
    }
    const auto n = build->find("nprobe_default");
    if (n == build->end() || !n->is_number_unsigned()) {
        return std::nullopt;
    }
    return n->get<std::size_t>();
}

// Every `stride`-th usable vector of the dataset, `count` at most.
std::vector<std::vector<float>> sampleQueries(const ByteSource& vectors, std::uint32_t dims,
                                              std::size_t count) {
    std::uint64_t usable = 0;
    forEachDatasetLine(vectors, [&](const DatasetLine& line) {
        usable += line.error.empty() && line.values.size() == dims ? 1 : 0;
        return true;
    });
    const std::uint64_t stride =
        std::max<std::uint64_t>(1, usable / std::max<std::size_t>(1, count));
    std::vector<std::vector<float>> out;
    std::uint64_t seen = 0;
    forEachDatasetLine(vectors, [&](const DatasetLine& line) {
        if (!line.error.empty() || line.values.size() != dims) {
            return true;
        }
        if (seen++ % stride == 0) {
            out.emplace_back(line.values.begin(), line.values.end());
        }
        return out.size() < count;
    });
    return out;
}

// The exact top-k of every query by brute force, streaming the dataset in chunks that the
// threads share by query. Ties keep dataset order, as exactSearch does.
class ExactAnswers {
public:
    ExactAnswers(const std::vector<std::vector<float>>& queries, Metric metric, std::size_t k,
                 unsigned threads)
        : queries_(queries),
          metric_(metric),
          k_(k),
          top_(queries.size()),
          threads_(threads != 0 ? threads : std::max(1u, std::thread::hardware_concurrency())) {}

    // False when cancelled.
    bool run(const ByteSource& vectors, std::uint32_t dims, const AnswerOverlapOptions& options) {
        bool stopped = false;
        forEachDatasetLine(vectors, [&](const DatasetLine& line) {
            if (line.error.empty() && line.id && line.values.size() == dims) {
                chunkIds_.push_back(*line.id);
                chunk_.insert(chunk_.end(), line.values.begin(), line.values.end());
            }
            if (chunkIds_.size() == kChunk) {
                flush(dims);
                stopped = cancelled(options);
            }
            return !stopped;
        });
        flush(dims);
        return !stopped;
    }

    Answers take() {
        Answers out;
        for (auto& hits : top_) {
            mergeHits(hits, k_);
            std::vector<std::uint64_t> ids;
            for (const Hit& h : hits) {
                ids.push_back(h.id);
            }
            out.push_back(std::move(ids));
        }
        return out;
    }

private:
    static constexpr std::size_t kChunk = 8192;

    void flush(std::uint32_t dims) {
        const std::size_t n = chunkIds_.size();
        auto work = [&](std::size_t first, std::size_t step) {
            for (std::size_t q = first; q < queries_.size(); q += step) {
                std::vector<Hit>& hits = top_[q];
                for (std::size_t i = 0; i < n; ++i) {
                    const std::span<const float> v(chunk_.data() + i * dims, dims);
                    hits.push_back({chunkIds_[i], distance(metric_, queries_[q], v), 0});
                }
                mergeHits(hits, k_);
            }
        };
        std::vector<std::jthread> pool;
        for (unsigned t = 1; t < threads_; ++t) {
            pool.emplace_back([token = threadCancelToken(), &work, t, this] {
                const ThreadCancelScope scope(token);
                work(t, threads_);
            });
        }
        work(0, threads_);
        pool.clear();
        chunkIds_.clear();
        chunk_.clear();
    }

    const std::vector<std::vector<float>>& queries_;
    Metric metric_;
    std::size_t k_;
    std::vector<std::vector<Hit>> top_;
    unsigned threads_;
    std::vector<std::uint64_t> chunkIds_;
    std::vector<float> chunk_;
};

// Mean share of `truth`'s ids that `found` holds, per query.
double recall(const Answers& found, const Answers& truth) {
    double sum = 0;
    std::size_t counted = 0;
    for (std::size_t q = 0; q < truth.size() && q < found.size(); ++q) {
        if (truth[q].empty()) {
            continue;
        }
        const std::unordered_set<std::uint64_t> have(found[q].begin(), found[q].end());
        std::size_t hit = 0;
        for (const std::uint64_t id : truth[q]) {
            hit += have.contains(id) ? 1 : 0;
        }
        sum += double(hit) / double(truth[q].size());
        ++counted;
    }
    return counted == 0 ? 1.0 : sum / double(counted);
}

struct Side {
    LoadedIndex index;
    ByteSourcePtr vectors;
};

std::optional<Side> openSide(const Store& store, const std::string& version, const char* name,
                             std::string& error) {
    IndexLoad load = loadIndex(store, version);
    if (!load.index) {
        error = std::string(name) + "'s index " + version + " cannot be searched: " + load.error;
        return std::nullopt;
    }
    Side side{std::move(*load.index), store.source(indexDatasetKey(store, version))};
    if (!side.vectors) {
        error = std::string(name) + "'s index " + version + " has no dataset vectors to sample";
        return std::nullopt;
    }
    return side;
}

// The index's answers to every query; "" or why it could not search.
std::string searchAll(const LoadedIndex& index, const std::vector<std::vector<float>>& queries,
                      const SearchOptions& search, Answers& out) {
    for (const auto& q : queries) {
        const SearchResult r = searchIndex(index, q, search);
        if (!r.error.empty()) {
            return r.error;
        }
        std::vector<std::uint64_t> ids;
        for (const Hit& h : r.hits) {
            ids.push_back(h.id);
        }
        out.push_back(std::move(ids));
    }
    return {};
}

}  // namespace

std::string indexDatasetKey(const Store& store, const std::string& version) {
    const JsonDoc doc = loadJson(store.source("indexes/" + version + "/manifest.json"));
    std::vector<Diagnostic> ignored;
    return doc.parsed ? readIndexManifest(doc, ignored).vectorsKey : std::string();
}

AnswerOverlap compareIndexAnswers(const Store& a, const std::string& versionA, const Store& b,
                                  const std::string& versionB,
                                  const AnswerOverlapOptions& options) {
    AnswerOverlap out;
    out.k = options.k;
    auto sideA = openSide(a, versionA, "A", out.error);
    auto sideB = sideA ? openSide(b, versionB, "B", out.error) : std::nullopt;
    if (!sideB) {
        return out;
    }
    if (sideA->index.dims != sideB->index.dims) {
        out.error = "the indexes have " + std::to_string(sideA->index.dims) + " and " +
                    std::to_string(sideB->index.dims) + " dimensions";
        return out;
    }
    const std::uint32_t dims = sideA->index.dims;
    const auto queries = sampleQueries(*sideA->vectors, dims, options.queries);
    SearchOptions search;
    search.k = options.k;
    search.nprobe = options.nprobe.value_or(manifestNprobe(a, versionA).value_or(0));
    search.threads = options.threads;
    search.cancel = options.cancel;
    out.nprobe = search.nprobe;
    Answers answersA, answersB;
    for (auto [side, answers, name] :
         {std::tuple{&*sideA, &answersA, "A"}, std::tuple{&*sideB, &answersB, "B"}}) {
        const std::string error = searchAll(side->index, queries, search, *answers);
        if (!error.empty()) {
            out.error = std::string(name) + "'s index " + (side == &*sideA ? versionA : versionB) +
                        ": " + error;
            return out;
        }
    }
    out.sameDataset = sameBytes(*sideA->vectors, *sideB->vectors);
    ExactAnswers exactA(queries, sideA->index.metric, options.k, options.threads);
    if (!exactA.run(*sideA->vectors, dims, options)) {
        out.error = "cancelled";
        return out;
    }
    const Answers truthA = exactA.take();
    Answers truthB = truthA;
    if (!out.sameDataset || sideB->index.metric != sideA->index.metric) {
        ExactAnswers exactB(queries, sideB->index.metric, options.k, options.threads);
        if (!exactB.run(*sideB->vectors, dims, options)) {
            out.error = "cancelled";
            return out;
        }
        truthB = exactB.take();
    }
    out.queries = queries.size();
    out.bAgainstA = recall(answersB, answersA);
    out.aAgainstExact = recall(answersA, truthA);
    out.bAgainstExact = recall(answersB, truthB);
    return out;
}

}  // namespace strata::shardlake
