// The checks of one index version: its manifest, the files the manifest names, and every shard
// against the manifest (fingerprint, header, length, dims, counts, centroids, PQ parameters).
// Shards are checked on pool threads, one pass over each file, before anything is reported;
// their findings are then reported in manifest order, as a sequential check would.
#include <algorithm>
#include <cctype>
#include <cstring>
#include <set>
#include <unordered_map>

#include "formats/common/le_reader.h"
#include "formats/common/ordered_pool.h"
#include "shardlake_checks.h"
#include "shardlake_dataset.h"
#include "shardlake_diagnostic.h"
#include "shardlake_json.h"
#include "shardlake_manifest.h"

namespace strata::shardlake {

namespace {

// What the shard checks need to know about the index.
struct IndexContext {
    const Store& store;
    const JsonDoc& doc;
    const IndexManifest& manifest;
    Reporter& reporter;
    IdCollector ids;
};

// Raw records whose vector differs from the dataset's vector with the same id (warnings: the
// fingerprint cannot see a shard rewritten together with its manifest).
void reportComparison(Reporter& reporter, const RecordMatcher& matcher, std::size_t shard,
                      const ShardScan& scan) {
    const ShardLayout& layout = *scan.comparable;
    const ByteSource& source = *scan.source;
    const std::string& key = scan.entry->artifactKey;
    RecordReader records(source, layout);
    for (std::uint64_t i = 0; i < layout.recordsPresent() && !reporter.cancelled(); ++i) {
        const RecordMatcher::Verdict verdict = matcher.verdict(shard, i);
        if (verdict == RecordMatcher::Verdict::Equal) {
            continue;
        }
        const std::uint64_t offset = layout.recordOffset(i);
        const std::uint64_t id = records.id(i);
        if (verdict == RecordMatcher::Verdict::Missing) {
            reporter.report(warningAt("SL-VECTOR-MISMATCH",
                                      key + ": record " + std::to_string(i) + " has id " +
                                          std::to_string(id) + ", which the dataset does not have",
                                      {&source, offset, 8}));
        } else {
            reporter.report(warningAt(
                "SL-VECTOR-MISMATCH",
                key + ": the vector of id " + std::to_string(id) + " differs from the dataset's",
                {&source, offset + 8, layout.recordSize - 8}));
        }
    }
}

bool bitwiseEqual(const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

// A file the manifest names: SL-MISSING when absent; nullptr for unsafe keys (reported by the
// manifest check).
ByteSourcePtr requireFile(IndexContext& ctx, const std::string& key, const std::string& pointer,
                          const char* what) {
    if (key.empty() || !keyProblem(key).empty()) {
        return nullptr;
    }
    ByteSourcePtr source = ctx.store.source(key);
    if (!source) {
        ctx.reporter.report(errorAt("SL-MISSING", std::string(what) + " missing: " + key,
                                    ctx.doc.regionOf(pointer), ctx.store.pathOf(key).string()));
    }
    return source;
}

std::string fingerprintHint(const std::string& expected, const std::string& actual) {
    std::string lower = expected;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (lower == actual) {
        return " (only the letter case differs; fingerprints are lower-case hex and compared "
               "exactly)";
    }
    if (expected.size() == 64) {
        return " (the value looks like a real SHA-256 digest; Shardlake stores FNV-1a 64 here)";
    }
    return {};
}

void checkFingerprint(IndexContext& ctx, const ShardEntry& entry, const ByteSource& source,
                      std::uint64_t hash) {
    if (entry.fingerprint.empty()) {
        return;
    }
    const std::string actual = hex16(hash);
    if (entry.fingerprint != actual) {
        ctx.reporter.report(makeDiagnostic(
            Severity::Error, "SL-FINGERPRINT",
            "fingerprint mismatch for " + entry.artifactKey + ": manifest has " +
                entry.fingerprint + ", the file hashes to " + actual +
                fingerprintHint(entry.fingerprint, actual),
            {ctx.doc.regionOf(pointerOf("/shards", entry.position, entry.fingerprintField)),
             {&source, 0, source.size()}}));
    }
}

Region headerRegion(const ShardParse& parse, std::string_view name) {
    for (const HeaderField& field : parse.fields) {
        if (field.name == name) {
            return field.region;
        }
    }
    return {};
}

// False (after reporting) when the shard's version is not the one the manifest calls for.
bool checkShardVersion(IndexContext& ctx, const ShardParse& parse, const ShardLayout& layout) {
    const bool wantPq = ctx.manifest.compression.pqShards();
    if (layout.isPq() != wantPq) {
        ctx.reporter.report(
            errorAt("SL-VERSION",
                    std::string("shard format version ") + std::to_string(layout.version) + " in " +
                        (wantPq ? "a PQ index (expected 2)" : "a raw index (expected 1)"),
                    headerRegion(parse, "format_version")));
        return false;
    }
    return true;
}

void checkShardAgainstEntry(IndexContext& ctx, const ShardEntry& entry, const ShardParse& parse) {
    const ShardLayout& layout = *parse.layout;
    const std::string pointer = pointerOf("/shards", entry.position);
    const std::string name = entry.artifactKey;
    if (ctx.manifest.dims && layout.dims != *ctx.manifest.dims) {
        ctx.reporter.report(
            makeDiagnostic(Severity::Error, "SL-DIMS",
                           name + ": header dims " + std::to_string(layout.dims) +
                               ", manifest dims " + std::to_string(*ctx.manifest.dims),
                           {headerRegion(parse, "dims"), ctx.doc.regionOf("/dims")}));
    }
    if (entry.vectorCount && layout.vectorCount != *entry.vectorCount) {
        ctx.reporter.report(makeDiagnostic(
            Severity::Error, "SL-COUNT",
            name + ": header vector_count " + std::to_string(layout.vectorCount) +
                ", manifest vector_count " + std::to_string(*entry.vectorCount),
            {headerRegion(parse, "vector_count"), ctx.doc.regionOf(pointer + "/vector_count")}));
    }
    if (entry.shardId && layout.shardId != *entry.shardId) {
        ctx.reporter.report(makeDiagnostic(
            Severity::Error, "SL-SHARD-ID",
            name + ": header shard_id " + std::to_string(layout.shardId) + ", manifest shard_id " +
                std::to_string(*entry.shardId),
            {headerRegion(parse, "shard_id"), ctx.doc.regionOf(pointer + "/shard_id")}));
    }
    const Compression& c = ctx.manifest.compression;
    if (layout.isPq() && c.pqShards()) {
        if (c.pqM && layout.pqM != *c.pqM) {
            ctx.reporter.report(makeDiagnostic(
                Severity::Error, "SL-PQ",
                name + ": pq_m " + std::to_string(layout.pqM) + ", manifest pq_num_subspaces " +
                    std::to_string(*c.pqM),
                {headerRegion(parse, "pq_m"), ctx.doc.regionOf("/compression/pq_num_subspaces")}));
        }
        if (c.pqK && layout.pqK != *c.pqK) {
            ctx.reporter.report(makeDiagnostic(
                Severity::Error, "SL-PQ",
                name + ": pq_k " + std::to_string(layout.pqK) + ", manifest pq_codebook_size " +
                    std::to_string(*c.pqK),
                {headerRegion(parse, "pq_k"), ctx.doc.regionOf("/compression/pq_codebook_size")}));
        }
    }
}

void checkShardCentroid(IndexContext& ctx, const ShardEntry& entry, const ShardParse& parse,
                        const ByteSource& source) {
    const ShardLayout& layout = *parse.layout;
    if (layout.centroidCount == 0) {
        ctx.reporter.report(errorAt("SL-CENTROIDS",
                                    entry.artifactKey + ": the shard has no centroid",
                                    headerRegion(parse, "centroid_count")));
        return;
    }
    if (layout.centroidCount > 1) {
        ctx.reporter.report(warningAt("SL-CENTROIDS",
                                      entry.artifactKey + ": " +
                                          std::to_string(layout.centroidCount) +
                                          " centroids; Shardlake writes exactly 1",
                                      headerRegion(parse, "centroid_count")));
    }
    if (!entry.centroid || entry.centroid->empty() || layout.centroidsPresent() == 0 ||
        entry.centroid->size() != layout.dims) {
        return;  // a wrong length is reported against the manifest (dims) already
    }
    const std::vector<float> first = readF32s(source, layout.centroidsOffset, layout.dims);
    if (!bitwiseEqual(first, *entry.centroid)) {
        ctx.reporter.report(
            makeDiagnostic(Severity::Error, "SL-CENTROID-VALUE",
                           entry.artifactKey + ": the shard's centroid differs from the manifest's",
                           {{&source, layout.centroidsOffset, layout.centroidBytes},
                            ctx.doc.regionOf(pointerOf("/shards", entry.position, "centroid"))}));
    }
}

bool comparesWithDataset(const IndexManifest& m) {
    return m.dims && *m.dims != 0 && !m.compression.pqShards() && !m.vectorsKey.empty();
}

// Everything about one shard but the comparison with the dataset, in one pass over `source`
// (the shard's bytes): its fingerprint is computed while its records are checked, and the
// digests of raw records the dataset is compared with are taken, within `digestBudget`.
void checkShardBytes(IndexContext& ctx, const ShardEntry& entry, ShardScan& scan,
                     const ByteSource& source, std::atomic<std::int64_t>& digestBudget) {
    const ByteView whole = source.view(0, source.size());
    prefault(std::string_view(reinterpret_cast<const char*>(whole.data()), whole.size()));
    const ShardParse parse = parseShard(source);
    const bool known = parse.layout && (parse.layout->version == 1 || parse.layout->version == 2);
    const bool versionFits = known && parse.layout->isPq() == ctx.manifest.compression.pqShards();
    // Records are only meaningful when the header and the length agree.
    const bool content = versionFits && parse.problems.empty();
    Fnv1a64 hash;
    Fnv1a64* wanted = entry.fingerprint.empty() ? nullptr : &hash;
    // Content findings wait until the header findings are reported, as they always came after.
    DeferredSink contentSink(ctx.reporter.options().maxPerCode);
    if (content) {
        ValidationOptions uncapped = ctx.reporter.options();
        uncapped.maxPerCode = 0;  // contentSink caps
        Reporter contentReporter(contentSink, uncapped);
        checkShardContent(source, *parse.layout, contentReporter, &ctx.ids, wanted);
    } else if (wanted != nullptr) {
        checkFingerprint(ctx, entry, source, fingerprintOf(source, ctx.reporter.options().cancel));
        wanted = nullptr;
    }
    if (wanted != nullptr) {
        checkFingerprint(ctx, entry, source, hash.value());
    }
    ctx.reporter.reportProblems(parse.problems);
    if (!known) {
        return;
    }
    // Read with the wrong layout, every later field would be noise.
    if (!checkShardVersion(ctx, parse, *parse.layout)) {
        return;
    }
    checkShardAgainstEntry(ctx, entry, parse);
    checkShardCentroid(ctx, entry, parse, source);
    if (content) {
        contentSink.replayInto(*scan.diagnostics);
        if (!parse.layout->isPq() && parse.layout->layoutKnown && ctx.manifest.dims &&
            parse.layout->dims == *ctx.manifest.dims) {
            scan.comparable = parse.layout;
            const ShardLayout& layout = *parse.layout;
            const auto n = static_cast<std::int64_t>(layout.recordsPresent());
            if (comparesWithDataset(ctx.manifest) && digestBudget.fetch_sub(n) >= n) {
                scan.records = digestRecords(source, layout.recordsOffset, layout.recordsPresent(),
                                             layout.recordSize, ctx.reporter.options().cancel);
                scan.digested = scan.records.size() == layout.recordsPresent();
            }
        }
    }
}

// checkShardBytes over the shard file mapped for the pass: the store keeps no mapping (see
// Store), and a view of a whole file read on demand would copy it into memory. What is
// reported points into the store's source, which outlives the mapping.
void checkShard(IndexContext& ctx, const ShardEntry& entry, ShardScan& scan,
                std::atomic<std::int64_t>& digestBudget) {
    const std::string pointer = pointerOf("/shards", entry.position, "artifact_key");
    scan.source = requireFile(ctx, entry.artifactKey, pointer, "shard artifact");
    if (!scan.source) {
        return;
    }
    const ByteSourcePtr mapped = mappedForScan(*scan.source);
    checkShardBytes(ctx, entry, scan, mapped ? *mapped : *scan.source, digestBudget);
    if (mapped) {
        scan.diagnostics->rebase(mapped.get(), scan.source.get());
        ctx.ids.rebase(mapped.get(), scan.source.get());
    }
}

void checkCoarseQuantizer(IndexContext& ctx) {
    const IndexManifest& m = ctx.manifest;
    if (m.coarseQuantizerKey.empty()) {
        return;
    }
    ByteSourcePtr source =
        requireFile(ctx, m.coarseQuantizerKey, "/coarse_quantizer_key", "coarse quantizer");
    if (!source) {
        return;
    }
    const CoarseParse parse = parseCoarseQuantizer(*source);
    ctx.reporter.reportProblems(parse.problems);
    if (!parse.layout || !parse.layout->layoutKnown) {
        return;
    }
    const CoarseLayout& layout = *parse.layout;
    const Region dimsField = parse.fields.size() > 2 ? parse.fields[2].region : Region{};
    const Region clustersField = parse.fields.size() > 3 ? parse.fields[3].region : Region{};
    if (m.dims && layout.dims != *m.dims) {
        ctx.reporter.report(makeDiagnostic(Severity::Error, "SL-DIMS",
                                           "coarse quantizer dims " + std::to_string(layout.dims) +
                                               ", manifest dims " + std::to_string(*m.dims),
                                           {dimsField, ctx.doc.regionOf("/dims")}));
        return;
    }
    if (layout.clusters != m.shards.size()) {
        ctx.reporter.report(makeDiagnostic(
            Severity::Error, "SL-CENTROIDS",
            "coarse quantizer has " + std::to_string(layout.clusters) +
                " clusters; the manifest lists " + std::to_string(m.shards.size()) + " shards",
            {clustersField, ctx.doc.regionOf("/shards")}));
    }
    for (const ShardEntry& entry : m.shards) {
        if (entry.shardId && layout.clusters > 0 && *entry.shardId >= layout.clusters) {
            // Queries are routed to cluster i, served by shard_id i: this shard is never searched.
            ctx.reporter.report(makeDiagnostic(
                Severity::Error, "SL-SHARD-RANGE",
                "shard_id " + std::to_string(*entry.shardId) +
                    " has no centroid: the coarse "
                    "quantizer has " +
                    std::to_string(layout.clusters) + " clusters, so shard ids run from 0 to " +
                    std::to_string(layout.clusters - 1),
                {ctx.doc.regionOf(pointerOf("/shards", entry.position, "shard_id")),
                 clustersField}));
            continue;
        }
        if (!entry.shardId || !entry.centroid || entry.centroid->empty() ||
            *entry.shardId >= layout.centroidsPresent()) {
            continue;
        }
        const std::uint64_t offset = layout.centroidOffset(*entry.shardId);
        if (!bitwiseEqual(readF32s(*source, offset, layout.dims), *entry.centroid)) {
            ctx.reporter.report(makeDiagnostic(
                Severity::Error, "SL-CENTROID-VALUE",
                "coarse quantizer centroid " + std::to_string(*entry.shardId) +
                    " differs from the manifest's centroid for that shard",
                {{source.get(), offset, layout.centroidBytes},
                 ctx.doc.regionOf(pointerOf("/shards", entry.position, "centroid"))}));
        }
    }
    checkCoarseContent(*source, layout, ctx.reporter);
}

void checkCodebook(IndexContext& ctx) {
    const Compression& c = ctx.manifest.compression;
    if (c.codec != "pq8" || c.codebookKey.empty()) {
        return;
    }
    ByteSourcePtr source =
        requireFile(ctx, c.codebookKey, "/compression/codebook_key", "PQ codebook");
    if (!source) {
        return;
    }
    const CodebookParse parse = parseCodebook(*source);
    ctx.reporter.reportProblems(parse.problems);
    if (!parse.layout || !parse.layout->layoutKnown) {
        return;
    }
    const CodebookLayout& layout = *parse.layout;
    const Region whole{source.get(), 0, kCodebookHeaderSize};
    if (ctx.manifest.dims && layout.dims != *ctx.manifest.dims) {
        ctx.reporter.report(makeDiagnostic(Severity::Error, "SL-DIMS",
                                           "PQ codebook dims " + std::to_string(layout.dims) +
                                               ", manifest dims " +
                                               std::to_string(*ctx.manifest.dims),
                                           {whole, ctx.doc.regionOf("/dims")}));
    }
    if ((c.pqM && layout.m != *c.pqM) || (c.pqK && layout.k != *c.pqK)) {
        ctx.reporter.report(makeDiagnostic(
            Severity::Error, "SL-PQ",
            "PQ codebook has M " + std::to_string(layout.m) + ", K " + std::to_string(layout.k) +
                "; the manifest says M " + std::to_string(c.pqM.value_or(0)) + ", K " +
                std::to_string(c.pqK.value_or(0)),
            {whole, ctx.doc.regionOf("/compression")}));
    }
    checkCodebookContent(*source, layout, ctx.reporter);
}

void checkDatasetLink(IndexContext& ctx) {
    const IndexManifest& m = ctx.manifest;
    requireFile(ctx, m.vectorsKey, "/vectors_key", "vectors file");
    requireFile(ctx, m.metadataKey, "/metadata_key", "metadata file");
    if (m.datasetVersion.empty() || !keyProblem(m.datasetVersion).empty()) {
        return;
    }
    const JsonDoc info = loadJson(ctx.store.source("datasets/" + m.datasetVersion + "/info.json"));
    if (!info.parsed || !info.value.is_object()) {
        return;  // the dataset's own check reports it
    }
    const auto dims = info.value.find("dims");
    if (m.dims && dims != info.value.end() && dims->is_number_unsigned() &&
        dims->get<std::uint64_t>() != *m.dims) {
        ctx.reporter.report(makeDiagnostic(Severity::Error, "SL-DIMS",
                                           "manifest dims " + std::to_string(*m.dims) +
                                               ", dataset " + m.datasetVersion + " dims " +
                                               std::to_string(dims->get<std::uint64_t>()),
                                           {ctx.doc.regionOf("/dims"), info.regionOf("/dims")}));
    }
}

// Shard files in shards/ that no manifest entry names.
void checkOrphans(IndexContext& ctx, const std::string& version) {
    std::set<std::string> listed;
    for (const ShardEntry& entry : ctx.manifest.shards) {
        listed.insert(entry.artifactKey);
    }
    const std::string folder = "indexes/" + version + "/shards";
    for (const std::string& name : ctx.store.files(folder)) {
        const std::string key = folder + "/" + name;
        if (name.ends_with(".sidx") && !listed.contains(key)) {
            ByteSourcePtr source = ctx.store.source(key);
            ctx.reporter.report(
                warningAt("SL-ORPHAN", key + " is not listed in the manifest",
                          source ? Region{source.get(), 0, source->size()} : Region{},
                          ctx.store.pathOf(key).string()));
        }
    }
}

}  // namespace

namespace {

ShardScan scanShard(const Store& store, PreparedIndex& index, const ShardEntry& entry,
                    const ValidationOptions& options) {
    ShardScan scan;
    scan.entry = &entry;
    scan.diagnostics = std::make_unique<DeferredSink>(options.maxPerCode);
    ValidationOptions uncapped = options;
    uncapped.maxPerCode = 0;  // scan.diagnostics caps
    uncapped.progress = {};
    Reporter reporter(*scan.diagnostics, uncapped);
    IndexContext ctx{store, *index.doc, *index.manifest, reporter, {}};
    checkShard(ctx, entry, scan, index.digestBudget);
    scan.ids = std::move(ctx.ids);
    return scan;
}

// The dataset is compared with raw shards only; PQ codes are not vectors.
void buildMatcher(PreparedIndex& index) {
    const IndexManifest& m = *index.manifest;
    if (!comparesWithDataset(m)) {
        return;
    }
    index.matcher = std::make_shared<RecordMatcher>(static_cast<std::size_t>(*m.dims));
    for (std::size_t i = 0; i < index.shards.size(); ++i) {
        ShardScan& scan = index.shards[i];
        if (!scan.comparable) {
            continue;
        }
        if (!scan.digested) {
            index.matcher->giveUp();  // over the limit, or not read to the end
        } else {
            index.matcher->addShard(i, scan.records);
        }
        scan.records = {};
    }
    index.matcher->seal();
}

}  // namespace

std::shared_ptr<PreparedIndex> prepareIndex(const Store& store, const std::string& version,
                                            const ValidationOptions& options) {
    auto index = std::make_shared<PreparedIndex>();
    index->version = version;
    index->manifestSource = store.source("indexes/" + version + "/manifest.json");
    if (!index->manifestSource) {
        return index;
    }
    index->doc = std::make_shared<JsonDoc>(loadJson(index->manifestSource));
    if (!index->doc->parsed) {
        return index;
    }
    index->manifest = readIndexManifest(*index->doc, index->manifestFindings);
    if (comparesWithDataset(*index->manifest)) {
        index->digestBudget = static_cast<std::int64_t>(
            RecordMatcher(static_cast<std::size_t>(*index->manifest->dims)).recordLimit());
    }
    std::set<std::string> seen;
    std::vector<const ShardEntry*> entries;
    for (const ShardEntry& entry : index->manifest->shards) {
        if (seen.insert(entry.artifactKey).second) {
            entries.push_back(&entry);
        }
    }
    // Each shard on a pool thread; results come back in manifest order.
    const unsigned threads = options.threads;
    OrderedPool<ShardScan> pool(threads, 2 * std::max(2u, threads), options.cancel);
    std::size_t submitted = 0;
    auto submit = [&] {
        if (submitted < entries.size()) {
            const ShardEntry* entry = entries[submitted++];
            pool.submit([&store, &index, entry, &options] {
                return scanShard(store, *index, *entry, options);
            });
        }
    };
    while (submitted < entries.size() && !pool.full()) {
        submit();
    }
    while (std::optional<ShardScan> scan = pool.next()) {
        submit();
        index->shards.push_back(std::move(*scan));
        options.reportProgress(
            static_cast<double>(index->shards.size()) / static_cast<double>(entries.size()),
            version + ": shard " + std::to_string(index->shards.size()) + " of " +
                std::to_string(entries.size()));
    }
    if (index->shards.size() == entries.size()) {
        buildMatcher(*index);
    }
    return index;
}

void matchOnItsOwn(const Store& store, PreparedIndex& index, const CancelToken* cancel) {
    if (!index.matcher || index.matcher->finished()) {
        return;
    }
    const ByteSourcePtr source = store.source(index.manifest->vectorsKey);
    if (!source) {
        index.matcher->noDataset();
        return;
    }
    forEachDatasetLine(*source, [&](const DatasetLine& line) {
        index.matcher->feed(line);
        return index.matcher->wantsMore() && !(cancel != nullptr && cancel->cancelled());
    });
    index.matcher->finish();
}

void checkIndex(const Store& store, const std::string& version, Reporter& reporter,
                PreparedIndex& prepared) {
    const std::string manifestKey = "indexes/" + version + "/manifest.json";
    if (!prepared.manifestSource) {
        reporter.report(errorAt("SL-MISSING", "index manifest missing: " + manifestKey, {},
                                store.pathOf(manifestKey).string()));
        return;
    }
    const JsonDoc& doc = *prepared.doc;
    if (!doc.parsed) {
        reporter.report(jsonError(doc, "index manifest " + manifestKey));
        return;
    }
    reporter.reportAll(std::move(prepared.manifestFindings));
    const IndexManifest& manifest = *prepared.manifest;
    if (!manifest.indexVersion.empty() && manifest.indexVersion != version) {
        reporter.report(errorAt("SL-NAME",
                                "index_version \"" + manifest.indexVersion +
                                    "\" but the index folder is \"" + version + "\"",
                                doc.regionOf("/index_version")));
    }
    IndexContext ctx{store, doc, manifest, reporter, {}};
    checkDatasetLink(ctx);
    checkCodebook(ctx);
    checkCoarseQuantizer(ctx);
    const RecordMatcher* matcher =
        prepared.matcher && prepared.matcher->usable() ? prepared.matcher.get() : nullptr;
    for (std::size_t i = 0; i < prepared.shards.size() && !reporter.cancelled(); ++i) {
        ShardScan& scan = prepared.shards[i];
        scan.diagnostics->replayInto(reporter);
        ctx.ids.append(std::move(scan.ids));
        if (matcher != nullptr && scan.comparable) {
            reportComparison(reporter, *matcher, i, scan);
        }
    }
    ctx.ids.reportDuplicates(reporter, ("index " + version).c_str());
    checkOrphans(ctx, version);
}

}  // namespace strata::shardlake
