#include "shardlake_manifest.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "formats/common/bounds.h"
#include "shardlake_diagnostic.h"

namespace strata::shardlake {

using nlohmann::json;

namespace {

constexpr const char* kKnownTopLevel[] = {"manifest_version",
                                          "dataset_version",
                                          "embedding_version",
                                          "index_version",
                                          "alias",
                                          "dims",
                                          "distance_metric",
                                          "vectors_key",
                                          "metadata_key",
                                          "shards",
                                          "total_vector_count",
                                          "build_metadata",
                                          "algorithm",
                                          "shard_summary",
                                          "compression",
                                          "coarse_quantizer_key",
                                          "recall_estimate",
                                          "lexical"};
constexpr const char* kKnownShardKeys[] = {"shard_id",    "artifact_key", "vector_count", "sha256",
                                           "fingerprint", "centroid",     "routing"};

// Field access that records a diagnostic for a missing or mistyped value.
class FieldReader {
public:
    FieldReader(const JsonDoc& doc, std::vector<Diagnostic>& out) : doc_(doc), out_(out) {}

    const json* find(const json& object, const std::string& key) const {
        if (!object.is_object()) {
            return nullptr;
        }
        const auto it = object.find(key);
        return it == object.end() ? nullptr : &*it;
    }
    std::optional<std::uint64_t> unsignedField(const json& object, const std::string& pointer,
                                               const std::string& key, bool required) {
        const json* value = find(object, key);
        if (value == nullptr) {
            missing(pointer, key, required);
            return std::nullopt;
        }
        if (!value->is_number_unsigned()) {
            error("SL-MANIFEST", "`" + key + "` must be a non-negative integer",
                  pointer + "/" + key);
            return std::nullopt;
        }
        return value->get<std::uint64_t>();
    }
    std::string stringField(const json& object, const std::string& pointer, const std::string& key,
                            bool required) {
        const json* value = find(object, key);
        if (value == nullptr || value->is_null()) {
            missing(pointer, key, required);
            return {};
        }
        if (!value->is_string()) {
            error("SL-MANIFEST", "`" + key + "` must be a string", pointer + "/" + key);
            return {};
        }
        return value->get<std::string>();
    }
    void keyField(const std::string& key, const std::string& pointer) {
        if (key.empty()) {
            return;
        }
        if (const std::string problem = keyProblem(key); !problem.empty()) {
            error("SL-KEY-ESCAPE", "storage key \"" + key + "\" " + problem, pointer);
        }
    }
    void missing(const std::string& pointer, const std::string& key, bool required) {
        if (required) {
            error("SL-MANIFEST", "missing field `" + key + "`", pointer);
        }
    }
    void error(std::string code, std::string message, const std::string& pointer) {
        out_.push_back(errorAt(std::move(code), std::move(message), doc_.regionOf(pointer)));
    }
    void warning(std::string code, std::string message, const std::string& pointer) {
        out_.push_back(warningAt(std::move(code), std::move(message), doc_.regionOf(pointer)));
    }

private:
    const JsonDoc& doc_;
    std::vector<Diagnostic>& out_;
};

std::optional<std::vector<float>> readCentroid(const json& value, const std::string& pointer,
                                               FieldReader& reader) {
    if (!value.is_array()) {
        reader.error("SL-MANIFEST", "`centroid` must be an array of numbers", pointer);
        return std::nullopt;
    }
    std::vector<float> out;
    out.reserve(value.size());
    for (const json& element : value) {
        if (!element.is_number()) {
            reader.error("SL-MANIFEST", "`centroid` holds a value that is not a number", pointer);
            return std::nullopt;
        }
        out.push_back(element.get<float>());
    }
    return out;
}

void warnUnknownKeys(const json& object, std::span<const char* const> known,
                     const std::string& pointer, FieldReader& reader) {
    for (auto it = object.begin(); it != object.end(); ++it) {
        bool isKnown = false;
        for (const char* name : known) {
            isKnown = isKnown || it.key() == name;
        }
        if (!isKnown) {
            reader.warning("SL-UNKNOWN-FIELD",
                           "unknown field `" + it.key() + "` (the reference ignores it)",
                           pointer + "/" + it.key());
        }
    }
}

ShardEntry readShardEntry(const json& entry, std::size_t position, FieldReader& reader) {
    const std::string pointer = pointerOf("/shards", position);
    ShardEntry shard;
    shard.position = position;
    if (!entry.is_object()) {
        reader.error("SL-MANIFEST", "shards[" + std::to_string(position) + "] is not an object",
                     pointer);
        return shard;
    }
    shard.shardId = reader.unsignedField(entry, pointer, "shard_id", true);
    shard.artifactKey = reader.stringField(entry, pointer, "artifact_key", true);
    reader.keyField(shard.artifactKey, pointer + "/artifact_key");
    shard.vectorCount = reader.unsignedField(entry, pointer, "vector_count", true);
    const std::string sha = reader.stringField(entry, pointer, "sha256", false);
    const std::string alias = reader.stringField(entry, pointer, "fingerprint", false);
    const bool hasSha = reader.find(entry, "sha256") != nullptr;
    const bool hasAlias = reader.find(entry, "fingerprint") != nullptr;
    shard.fingerprint = hasSha ? sha : alias;
    shard.fingerprintField = hasSha ? "sha256" : (hasAlias ? "fingerprint" : "");
    if (!hasSha && !hasAlias) {
        reader.error("SL-FINGERPRINT", "shard entry has neither `sha256` nor `fingerprint`",
                     pointer);
    } else if (shard.fingerprint.empty()) {
        reader.error("SL-FINGERPRINT", "empty shard fingerprint",
                     pointer + "/" + shard.fingerprintField);
    } else if (hasSha && hasAlias && sha != alias) {
        reader.warning("SL-FINGERPRINT",
                       "`sha256` and `fingerprint` differ; `sha256` is the one checked",
                       pointer + "/fingerprint");
    }
    if (const json* centroid = reader.find(entry, "centroid");
        centroid != nullptr && !centroid->is_null()) {
        shard.centroid = readCentroid(*centroid, pointer + "/centroid", reader);
    }
    if (const json* routing = reader.find(entry, "routing"); routing && routing->is_object()) {
        if (const json* location = reader.find(*routing, "file_location");
            location && location->is_string()) {
            reader.keyField(location->get<std::string>(), pointer + "/routing");
        }
    }
    warnUnknownKeys(entry, kKnownShardKeys, pointer, reader);
    return shard;
}

void checkVersionAndBasics(const IndexManifest& m, FieldReader& reader) {
    if (m.manifestVersion &&
        (*m.manifestVersion == 0 || *m.manifestVersion > kMaxManifestVersion)) {
        reader.error("SL-MANIFEST-VERSION",
                     "unsupported manifest_version " + std::to_string(*m.manifestVersion) +
                         " (1 to 4 are accepted)",
                     "/manifest_version");
    }
    if (m.dims && *m.dims == 0) {
        reader.error("SL-DIMS", "dims must be > 0", "/dims");
    }
    if (!m.metric.empty() && m.metric != "cosine" && m.metric != "euclidean" &&
        m.metric != "inner_product") {
        reader.error(
            "SL-METRIC",
            "distance_metric \"" + m.metric + "\" is not one of cosine, euclidean, inner_product",
            "/distance_metric");
    }
}

void checkShardList(const IndexManifest& m, const json& root, FieldReader& reader) {
    const json* shards = reader.find(root, "shards");
    if (shards != nullptr && shards->is_array() && shards->empty()) {
        reader.error("SL-NO-SHARDS", "the manifest lists no shards", "/shards");
    }
    std::map<std::uint64_t, std::size_t> ids;
    std::map<std::string, std::size_t> keys;
    std::uint64_t sum = 0;
    bool allCounted = true;
    bool overflow = false;
    for (const ShardEntry& shard : m.shards) {
        const std::string pointer = pointerOf("/shards", shard.position);
        if (shard.shardId && !ids.emplace(*shard.shardId, shard.position).second) {
            reader.error("SL-DUPLICATE-SHARD",
                         "shard_id " + std::to_string(*shard.shardId) + " is listed twice",
                         pointer + "/shard_id");
        }
        if (!shard.artifactKey.empty() && !keys.emplace(shard.artifactKey, shard.position).second) {
            reader.error("SL-DUPLICATE-SHARD", "artifact " + shard.artifactKey + " is listed twice",
                         pointer + "/artifact_key");
        }
        if (m.dims && *m.dims != 0 && shard.centroid && shard.centroid->size() != *m.dims) {
            reader.error("SL-CENTROID-VALUE",
                         "centroid has " + std::to_string(shard.centroid->size()) +
                             " values; dims is " + std::to_string(*m.dims),
                         pointer + "/centroid");
        }
        if (shard.vectorCount && *shard.vectorCount == 0) {
            reader.warning("SL-EMPTY-SHARD",
                           "shard " + std::to_string(shard.shardId.value_or(shard.position)) +
                               " holds no vectors (the format lists only non-empty shards)",
                           pointer + "/vector_count");
        }
        if (!shard.vectorCount) {
            allCounted = false;
        } else if (!overflow) {
            // Plain overflow flags: the earlier std::optional form of this sum dropped the
            // error in optimised GCC 12 builds, for a reason not yet understood.
            overflow = __builtin_add_overflow(sum, *shard.vectorCount, &sum);
        }
    }
    const bool sumValid = allCounted && !overflow;
    if (allCounted && overflow) {
        reader.error("SL-TOTAL", "the shard vector counts add up to more than 2^64 - 1", "/shards");
    } else if (sumValid && m.totalVectorCount && sum != *m.totalVectorCount) {
        reader.error("SL-TOTAL",
                     "shard vector counts sum to " + std::to_string(sum) +
                         ", total_vector_count is " + std::to_string(*m.totalVectorCount),
                     "/total_vector_count");
    }
}

bool digitsAt(std::string_view text, std::size_t at, std::size_t count, int low, int high) {
    if (at + count > text.size()) {
        return false;
    }
    int value = 0;
    for (std::size_t i = at; i < at + count; ++i) {
        if (text[i] < '0' || text[i] > '9') {
            return false;
        }
        value = value * 10 + (text[i] - '0');
    }
    return value >= low && value <= high;
}

// `2026-03-10T17:44:00Z`, with optional fractional seconds and a `±HH:MM` offset: what the
// reference's date-time type reads.
bool rfc3339Text(std::string_view text) {
    if (!digitsAt(text, 0, 4, 0, 9999) || text.size() < 20 || text[4] != '-' ||
        !digitsAt(text, 5, 2, 1, 12) || text[7] != '-' || !digitsAt(text, 8, 2, 1, 31) ||
        (text[10] != 'T' && text[10] != 't' && text[10] != ' ') || !digitsAt(text, 11, 2, 0, 23) ||
        text[13] != ':' || !digitsAt(text, 14, 2, 0, 59) || text[16] != ':' ||
        !digitsAt(text, 17, 2, 0, 60)) {
        return false;
    }
    std::size_t at = 19;
    if (text[at] == '.') {
        const std::size_t digits = text.find_first_not_of("0123456789", at + 1);
        if (digits == at + 1 || digits == std::string_view::npos) {
            return false;
        }
        at = digits;
    }
    const std::string_view zone = text.substr(at);
    return zone == "Z" || zone == "z" ||
           (zone.size() == 6 && (zone[0] == '+' || zone[0] == '-') && digitsAt(zone, 1, 2, 0, 23) &&
            zone[3] == ':' && digitsAt(zone, 4, 2, 0, 59));
}

// The reference cannot read a manifest without these: they are not optional in its schema.
void checkBuildMetadata(const json& root, FieldReader& reader) {
    const json* build = reader.find(root, "build_metadata");
    if (build == nullptr) {
        reader.missing("", "build_metadata", true);
        return;
    }
    if (!build->is_object()) {
        reader.error("SL-MANIFEST", "`build_metadata` must be an object", "/build_metadata");
        return;
    }
    const std::string pointer = "/build_metadata";
    const std::string builtAt = reader.stringField(*build, pointer, "built_at", true);
    if (!builtAt.empty() && !rfc3339Text(builtAt)) {
        reader.error("SL-MANIFEST",
                     "build_metadata.built_at \"" + builtAt + "\" is not an RFC 3339 date-time",
                     pointer + "/built_at");
    }
    (void)reader.stringField(*build, pointer, "builder_version", true);
    (void)reader.unsignedField(*build, pointer, "num_kmeans_iters", true);
    (void)reader.unsignedField(*build, pointer, "nprobe_default", true);
}

void checkSummary(const IndexManifest& m, const json& root, FieldReader& reader) {
    const json* summary = reader.find(root, "shard_summary");
    if (summary == nullptr || !summary->is_object()) {
        return;
    }
    std::uint64_t minCount = 0;
    std::uint64_t maxCount = 0;
    for (std::size_t i = 0; i < m.shards.size(); ++i) {
        const std::uint64_t count = m.shards[i].vectorCount.value_or(0);
        minCount = i == 0 ? count : std::min(minCount, count);
        maxCount = std::max(maxCount, count);
    }
    const std::pair<const char*, std::uint64_t> expected[] = {{"num_shards", m.shards.size()},
                                                              {"min_shard_vector_count", minCount},
                                                              {"max_shard_vector_count", maxCount}};
    for (const auto& [key, actual] : expected) {
        const auto value = reader.unsignedField(*summary, "/shard_summary", key, true);
        if (value && *value != actual) {
            reader.error("SL-SUMMARY",
                         std::string("shard_summary.") + key + " is " + std::to_string(*value) +
                             "; the shard list gives " + std::to_string(actual),
                         std::string("/shard_summary/") + key);
        }
    }
}

Compression readCompression(const json& root, FieldReader& reader) {
    Compression c;
    const json* object = reader.find(root, "compression");
    if (object == nullptr || object->is_null()) {
        return c;
    }
    c.present = true;
    if (!object->is_object()) {
        reader.error("SL-MANIFEST", "`compression` must be an object", "/compression");
        return c;
    }
    if (const json* enabled = reader.find(*object, "enabled"); enabled && enabled->is_boolean()) {
        c.enabled = enabled->get<bool>();
    }
    const std::string codec = reader.stringField(*object, "/compression", "codec", false);
    c.codec = codec.empty() ? "none" : codec;
    c.pqM = reader.unsignedField(*object, "/compression", "pq_num_subspaces", false);
    c.pqK = reader.unsignedField(*object, "/compression", "pq_codebook_size", false);
    c.codebookKey = reader.stringField(*object, "/compression", "codebook_key", false);
    reader.keyField(c.codebookKey, "/compression/codebook_key");
    return c;
}

void checkCompression(const Compression& c, FieldReader& reader) {
    if (!c.present) {
        return;
    }
    if (c.codec != "none" && c.codec != "pq8") {
        reader.error("SL-COMPRESSION",
                     "compression.codec \"" + c.codec + "\" is not a known codec (none, pq8)",
                     "/compression/codec");
        return;
    }
    if (c.codec == "pq8") {
        if (!c.enabled) {
            reader.error("SL-COMPRESSION", "compression.codec is \"pq8\" but enabled is false",
                         "/compression/enabled");
        }
        if (!c.pqM || *c.pqM == 0) {
            reader.error("SL-COMPRESSION", "pq8 needs pq_num_subspaces > 0",
                         "/compression/pq_num_subspaces");
        }
        if (!c.pqK || *c.pqK == 0 || *c.pqK > 256) {
            reader.error("SL-COMPRESSION", "pq8 needs pq_codebook_size in 1..256",
                         "/compression/pq_codebook_size");
        }
        if (c.codebookKey.empty()) {
            reader.error("SL-COMPRESSION", "pq8 needs compression.codebook_key", "/compression");
        }
    } else if (c.enabled || c.pqM || c.pqK || !c.codebookKey.empty()) {
        reader.error(
            "SL-COMPRESSION",
            "compression.codec is \"none\" but compression is enabled or PQ fields are set",
            "/compression");
    }
}

void checkAlgorithm(const IndexManifest& m, const json& root, FieldReader& reader) {
    const json* algorithm = reader.find(root, "algorithm");
    const json* cqKey = reader.find(root, "coarse_quantizer_key");
    if (algorithm != nullptr && m.algorithm.empty()) {
        reader.error("SL-MANIFEST", "algorithm.algorithm must be a non-empty string", "/algorithm");
    }
    if (cqKey != nullptr && m.coarseQuantizerKey.empty()) {
        reader.error("SL-MANIFEST", "coarse_quantizer_key is empty", "/coarse_quantizer_key");
    }
    if ((m.algorithm == "ivf-flat" || m.algorithm == "hnsw") && cqKey == nullptr) {
        reader.error("SL-MANIFEST", "algorithm " + m.algorithm + " needs coarse_quantizer_key",
                     "/algorithm");
    }
    const json* build = reader.find(root, "build_metadata");
    if (build != nullptr && build->is_object()) {
        if (const json* duration = reader.find(*build, "build_duration_secs");
            duration && (!duration->is_number() || duration->get<double>() < 0 ||
                         !std::isfinite(duration->get<double>()))) {
            reader.error("SL-MANIFEST", "build_duration_secs must be a finite number >= 0",
                         "/build_metadata/build_duration_secs");
        }
    }
    if (const json* recall = reader.find(root, "recall_estimate");
        recall && !recall->is_null() &&
        (!recall->is_number() || recall->get<double>() < 0 || recall->get<double>() > 1)) {
        reader.error("SL-MANIFEST", "recall_estimate must be a number in [0, 1]",
                     "/recall_estimate");
    }
}

}  // namespace

bool isRfc3339(std::string_view text) {
    return rfc3339Text(text);
}

std::string keyProblem(std::string_view key) {
    if (key.empty()) {
        return "is empty";
    }
    if (key.find('\\') != std::string_view::npos) {
        return "contains a backslash";
    }
    if (key.front() == '/') {
        return "is absolute";
    }
    if (key.find('\0') != std::string_view::npos) {
        return "contains a NUL byte";
    }
    std::size_t start = 0;
    while (start <= key.size()) {
        const std::size_t end = std::min(key.find('/', start), key.size());
        const std::string_view segment = key.substr(start, end - start);
        if (segment.empty()) {
            return "has an empty path segment";
        }
        if (segment == "." || segment == "..") {
            return "has a \"" + std::string(segment) + "\" segment";
        }
        start = end + 1;
    }
    return {};
}

IndexManifest readIndexManifest(const JsonDoc& doc, std::vector<Diagnostic>& out) {
    IndexManifest m;
    FieldReader reader(doc, out);
    const json& root = doc.value;
    if (!root.is_object()) {
        reader.error("SL-MANIFEST", "the manifest is not a JSON object", "");
        return m;
    }
    m.manifestVersion = reader.unsignedField(root, "", "manifest_version", true);
    m.datasetVersion = reader.stringField(root, "", "dataset_version", true);
    m.embeddingVersion = reader.stringField(root, "", "embedding_version", true);
    m.indexVersion = reader.stringField(root, "", "index_version", true);
    m.alias = reader.stringField(root, "", "alias", true);
    m.dims = reader.unsignedField(root, "", "dims", true);
    m.metric = reader.stringField(root, "", "distance_metric", true);
    m.vectorsKey = reader.stringField(root, "", "vectors_key", true);
    reader.keyField(m.vectorsKey, "/vectors_key");
    m.metadataKey = reader.stringField(root, "", "metadata_key", true);
    reader.keyField(m.metadataKey, "/metadata_key");
    m.totalVectorCount = reader.unsignedField(root, "", "total_vector_count", true);
    m.coarseQuantizerKey = reader.stringField(root, "", "coarse_quantizer_key", false);
    reader.keyField(m.coarseQuantizerKey, "/coarse_quantizer_key");
    if (const json* algorithm = reader.find(root, "algorithm"); algorithm) {
        m.algorithm = algorithm->is_object()
                          ? reader.stringField(*algorithm, "/algorithm", "algorithm", true)
                          : (algorithm->is_string() ? algorithm->get<std::string>() : "");
    }
    m.compression = readCompression(root, reader);
    const json* shards = reader.find(root, "shards");
    if (shards == nullptr) {
        reader.missing("", "shards", true);
    } else if (!shards->is_array()) {
        reader.error("SL-MANIFEST", "`shards` must be an array", "/shards");
    } else {
        for (std::size_t i = 0; i < shards->size(); ++i) {
            m.shards.push_back(readShardEntry((*shards)[i], i, reader));
        }
    }
    checkVersionAndBasics(m, reader);
    checkShardList(m, root, reader);
    checkBuildMetadata(root, reader);
    checkSummary(m, root, reader);
    checkCompression(m.compression, reader);
    checkAlgorithm(m, root, reader);
    warnUnknownKeys(root, kKnownTopLevel, "", reader);
    return m;
}

std::optional<AliasPointer> readAlias(const JsonDoc& doc, std::vector<Diagnostic>& out) {
    FieldReader reader(doc, out);
    if (!doc.value.is_object()) {
        out.push_back(errorAt("SL-ALIAS", "the alias file is not a JSON object", doc.whole()));
        return std::nullopt;
    }
    AliasPointer alias;
    alias.alias = reader.stringField(doc.value, "", "alias", true);
    alias.indexVersion = reader.stringField(doc.value, "", "index_version", true);
    if (alias.indexVersion.empty()) {
        return std::nullopt;
    }
    return alias;
}

DatasetInfo readDatasetInfo(const JsonDoc& doc, std::vector<Diagnostic>& out) {
    FieldReader reader(doc, out);
    DatasetInfo info;
    if (!doc.value.is_object()) {
        out.push_back(errorAt("SL-MANIFEST", "the dataset info is not a JSON object", doc.whole()));
        return info;
    }
    const json& root = doc.value;
    info.manifestVersion = reader.unsignedField(root, "", "manifest_version", false);
    info.datasetVersion = reader.stringField(root, "", "dataset_version", true);
    info.embeddingVersion = reader.stringField(root, "", "embedding_version", false);
    info.dims = reader.unsignedField(root, "", "dims", true);
    // Real files say "vector_count"; the format document says "count".
    const bool hasCount = reader.find(root, "vector_count") != nullptr;
    info.count = reader.unsignedField(root, "", hasCount ? "vector_count" : "count", true);
    info.vectorsKey = reader.stringField(root, "", "vectors_key", true);
    reader.keyField(info.vectorsKey, "/vectors_key");
    info.metadataKey = reader.stringField(root, "", "metadata_key", true);
    reader.keyField(info.metadataKey, "/metadata_key");
    if (info.dims && *info.dims == 0) {
        reader.error("SL-DIMS", "dataset dims must be > 0", "/dims");
    }
    return info;
}

Diagnostic jsonError(const JsonDoc& doc, std::string_view what) {
    Region region = doc.whole();
    if (doc.source) {
        const std::uint64_t size = doc.source->size();
        const std::uint64_t at = std::min(doc.errorOffset, size);
        region = {doc.source.get(), at, at < size ? 1u : 0u};
    }
    return errorAt("SL-JSON", std::string(what) + " is not valid JSON: " + doc.error, region);
}

}  // namespace strata::shardlake
