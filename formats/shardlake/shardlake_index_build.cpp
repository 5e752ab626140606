// Shardlake index build (buildIndex): a dataset's records loaded, partitioned by k-means into
// shards, and the shard files, coarse quantizer and manifest written.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <optional>
#include <span>
#include <system_error>

#include "formats/common/bounds.h"
#include "shardlake_alias_edit.h"
#include "shardlake_builder_internal.h"
#include "shardlake_dataset.h"
#include "shardlake_json.h"
#include "shardlake_json_writer.h"
#include "shardlake_kmeans.h"
#include "shardlake_manifest.h"

namespace strata::shardlake {

namespace fs = std::filesystem;
using ojson = nlohmann::ordered_json;

namespace {

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
