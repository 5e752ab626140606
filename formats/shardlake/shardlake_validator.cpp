#include "shardlake_validator.h"

#include <set>

#include "formats/common/save_leftovers.h"

#include "shardlake_checks.h"
#include "shardlake_dataset.h"
#include "shardlake_diagnostic.h"
#include "shardlake_json.h"
#include "shardlake_manifest.h"

namespace strata::shardlake {

namespace {

std::string stem(const std::string& name) {
    return name.ends_with(".json") ? name.substr(0, name.size() - 5) : name;
}

// Dims, ids and finiteness of every line of vectors.jsonl; `matchers` see every line too.
void checkDatasetVectors(const ByteSource& source, const JsonDoc& infoDoc, const DatasetInfo& info,
                         Reporter& reporter, const std::vector<RecordMatcher*>& matchers) {
    std::optional<std::size_t> firstDims;
    std::uint64_t lines = 0;
    IdCollector ids;
    forEachDatasetLine(
        source,
        [&](const DatasetLine& line) {
            ++lines;
            for (RecordMatcher* matcher : matchers) {
                matcher->feed(line);
            }
            if (!line.error.empty()) {
                reporter.report(
                    errorAt("SL-JSON",
                            "vectors line " + std::to_string(line.lineNumber) + ": " + line.error,
                            line.region));
            }
            if (line.id) {
                ids.add(*line.id, line.region);
            }
            if (line.nonFinite) {
                reporter.report(errorAt("SL-NONFINITE",
                                        "vectors line " + std::to_string(line.lineNumber) +
                                            " holds a value that is not a finite f32",
                                        line.region));
            }
            if (line.hasValues && !firstDims) {
                firstDims = line.values.size();
                if (info.dims && *info.dims != line.values.size()) {
                    reporter.report(makeDiagnostic(
                        Severity::Error, "SL-DIMS",
                        "dataset info says dims " + std::to_string(*info.dims) +
                            "; the vectors have " + std::to_string(line.values.size()),
                        {infoDoc.regionOf("/dims"), line.region}));
                }
            } else if (line.hasValues && line.values.size() != *firstDims) {
                reporter.report(errorAt("SL-DIMS",
                                        "vectors line " + std::to_string(line.lineNumber) +
                                            " has " + std::to_string(line.values.size()) +
                                            " values, not " + std::to_string(*firstDims),
                                        line.region));
            }
            return !reporter.cancelled();
        },
        reporter.options().threads);
    if (info.count && *info.count != lines && !reporter.cancelled()) {
        reporter.report(
            makeDiagnostic(Severity::Error, "SL-COUNT",
                           "dataset info says " + std::to_string(*info.count) +
                               " vectors; vectors file has " + std::to_string(lines),
                           {infoDoc.regionOf("/vector_count"), {&source, 0, source.size()}}));
    }
    ids.reportDuplicates(reporter, "the dataset");
}

void requireDatasetFile(const Store& store, const JsonDoc& doc, const std::string& key,
                        const std::string& pointer, Reporter& reporter) {
    if (!key.empty() && keyProblem(key).empty() && !store.exists(key)) {
        reporter.report(errorAt("SL-MISSING", "dataset file missing: " + key, doc.regionOf(pointer),
                                store.pathOf(key).string()));
    }
}

}  // namespace

// Where a metadata file that is not one JSON object goes wrong: by the full parse (with spans
// for the place), or past kMaxJsonBytes by the pass that keeps no tree.
void reportMetadataProblem(const ByteSourcePtr& metadata, const std::string& key,
                           Reporter& reporter) {
    if (metadata->size() > kMaxJsonBytes) {
        if (const auto problem = largeJsonObjectProblem(*metadata)) {
            const std::uint64_t at = std::min(problem->offset, metadata->size());
            reporter.report(
                errorAt("SL-JSON",
                        "metadata file " + key + " is not a valid JSON object: " + problem->error,
                        {metadata.get(), at, at < metadata->size() ? 1u : 0u}));
        }
        return;
    }
    const JsonDoc doc = loadJson(metadata);
    if (!doc.parsed) {
        reporter.report(jsonError(doc, "metadata file " + key));
    } else if (!doc.value.is_object()) {
        reporter.report(errorAt("SL-JSON", "the metadata file is not a JSON object", doc.whole()));
    }
}

void checkDataset(const Store& store, const std::string& version, Reporter& reporter,
                  const std::vector<std::shared_ptr<PreparedIndex>>& indexes) {
    const std::string key = "datasets/" + version + "/info.json";
    ByteSourcePtr source = store.source(key);
    if (!source) {
        reporter.report(
            errorAt("SL-MISSING", "dataset info missing: " + key, {}, store.pathOf(key).string()));
        return;
    }
    const JsonDoc doc = loadJson(source);
    if (!doc.parsed) {
        reporter.report(jsonError(doc, "dataset info " + key));
        return;
    }
    std::vector<Diagnostic> found;
    const DatasetInfo info = readDatasetInfo(doc, found);
    reporter.reportAll(std::move(found));
    if (!info.datasetVersion.empty() && info.datasetVersion != version) {
        reporter.report(errorAt("SL-NAME",
                                "dataset_version \"" + info.datasetVersion +
                                    "\" but the dataset folder is \"" + version + "\"",
                                doc.regionOf("/dataset_version")));
    }
    requireDatasetFile(store, doc, info.vectorsKey, "/vectors_key", reporter);
    requireDatasetFile(store, doc, info.metadataKey, "/metadata_key", reporter);
    // Only whether it parses as an object matters here: the full parse (with spans for the
    // diagnostic's place) runs only when the quick check fails.
    if (const ByteSourcePtr metadata = store.source(info.metadataKey);
        metadata && !holdsJsonObject(*metadata)) {
        reportMetadataProblem(metadata, info.metadataKey, reporter);
    }
    if (ByteSourcePtr vectors = store.source(info.vectorsKey)) {
        reporter.options().reportProgress(0.0, "dataset " + version + ": vectors");
        // Indexes built from this file compare their records in the same scan.
        std::vector<RecordMatcher*> matchers;
        for (const auto& index : indexes) {
            if (index->matcher && !index->matcher->finished() &&
                index->manifest->vectorsKey == info.vectorsKey) {
                matchers.push_back(index->matcher.get());
            }
        }
        checkDatasetVectors(*vectors, doc, info, reporter, matchers);
        if (!reporter.cancelled()) {
            for (RecordMatcher* matcher : matchers) {
                matcher->finish();
            }
        }
    }
}

void checkAlias(const Store& store, const std::string& name, Reporter& reporter) {
    const std::string key = "aliases/" + name + ".json";
    ByteSourcePtr source = store.source(key);
    if (!source) {
        reporter.report(
            errorAt("SL-MISSING", "alias file missing: " + key, {}, store.pathOf(key).string()));
        return;
    }
    const JsonDoc doc = loadJson(source);
    if (!doc.parsed) {
        reporter.report(jsonError(doc, "alias " + key));
        return;
    }
    std::vector<Diagnostic> found;
    const auto alias = readAlias(doc, found);
    for (Diagnostic& d : found) {
        d.code = "SL-ALIAS";
        reporter.report(std::move(d));
    }
    if (!alias) {
        return;
    }
    if (!alias->alias.empty() && alias->alias != name) {
        reporter.report(warningAt("SL-ALIAS",
                                  "alias file " + key + " names the alias \"" + alias->alias +
                                      "\"; it is looked up as \"" + name + "\"",
                                  doc.regionOf("/alias")));
    }
    if (const std::string problem = keyProblem(alias->indexVersion);
        !problem.empty() || alias->indexVersion.find('/') != std::string::npos) {
        reporter.report(errorAt(
            "SL-KEY-ESCAPE",
            "alias index_version \"" + alias->indexVersion + "\" is not a plain version name",
            doc.regionOf("/index_version")));
        return;
    }
    if (!store.exists("indexes/" + alias->indexVersion + "/manifest.json")) {
        reporter.report(errorAt("SL-ALIAS",
                                "alias " + name + " points at index \"" + alias->indexVersion +
                                    "\", which has no manifest",
                                doc.regionOf("/index_version")));
    }
}

void checkManifestAliases(const Store& store, Reporter& reporter) {
    for (const std::string& version : store.folders("indexes")) {
        const JsonDoc doc = loadJson(store.source("indexes/" + version + "/manifest.json"));
        if (!doc.parsed || !doc.value.is_object()) {
            continue;
        }
        const auto alias = doc.value.find("alias");
        if (alias == doc.value.end() || !alias->is_string()) {
            continue;
        }
        const std::string name = alias->get<std::string>();
        if (!name.empty() && keyProblem(name).empty() && name.find('/') == std::string::npos &&
            !store.exists("aliases/" + name + ".json")) {
            reporter.report(warningAt("SL-ALIAS",
                                      "index " + version + " was published as \"" + name +
                                          "\" but aliases/" + name + ".json does not exist",
                                      doc.regionOf("/alias")));
        }
    }
}

namespace {

class ShardlakeValidator final : public Validator {
public:
    ShardlakeValidator(std::shared_ptr<const Store> store, ValidationTarget target)
        : store_(std::move(store)), target_(std::move(target)) {}

    JobOutcome run(DiagnosticSink& sink, const ValidationOptions& options) override {
        Reporter reporter(sink, options);
        switch (target_.scope) {
            case ValidationScope::Root:
                runRoot(reporter);
                break;
            case ValidationScope::Index: {
                const auto index = prepareIndex(*store_, target_.name, options);
                matchOnItsOwn(*store_, *index, options.cancel);
                checkIndex(*store_, target_.name, reporter, *index);
                break;
            }
            case ValidationScope::Dataset:
                checkDataset(*store_, target_.name, reporter);
                break;
            case ValidationScope::Alias:
                checkAlias(*store_, target_.name, reporter);
                break;
            default:
                runFile(reporter);
                break;
        }
        reportLeftovers(reporter);
        reporter.finish();
        if (options.cancelled()) {
            return JobOutcome::Cancelled;
        }
        options.reportProgress(1.0, "done");
        return JobOutcome::Completed;
    }

private:
    // Temporary files of killed saves, in the folder validated (down to the shards of a root)
    // or beside the file.
    void reportLeftovers(Reporter& reporter) const {
        if (store_->remote()) {
            return;  // a save's temporary files are local; a URL has none to find
        }
        std::filesystem::path path = store_->root();
        unsigned depth = 3;  // indexes/<version>/shards
        switch (target_.scope) {
            case ValidationScope::Root:
                break;
            case ValidationScope::Index:
                path = path / "indexes" / target_.name;
                depth = 1;
                break;
            case ValidationScope::Dataset:
                path = path / "datasets" / target_.name;
                depth = 0;
                break;
            case ValidationScope::Alias:
                path = path / "aliases" / (target_.name + ".json");
                break;
            default:
                path = target_.file ? target_.file->name() : std::string();
                break;
        }
        CollectingSink found;
        reportSaveLeftovers(path, "SL", {static_cast<unsigned>(LeftoverKind::TempFile), depth, {}},
                            found);
        reporter.reportAll(found.diagnostics());
    }

    // Shards are read first (in parallel), so each dataset scan can compare their records
    // on the way; the report keeps its order: datasets, indexes, aliases.
    void runRoot(Reporter& reporter) {
        const std::vector<std::string> versions = store_->folders("indexes");
        std::vector<std::shared_ptr<PreparedIndex>> indexes;
        for (const std::string& version : versions) {
            if (reporter.cancelled()) {
                return;
            }
            indexes.push_back(prepareIndex(*store_, version, reporter.options()));
        }
        for (const std::string& version : store_->folders("datasets")) {
            checkDataset(*store_, version, reporter, indexes);
        }
        for (std::size_t i = 0; i < versions.size(); ++i) {
            if (reporter.cancelled()) {
                return;
            }
            matchOnItsOwn(*store_, *indexes[i], reporter.options().cancel);
            checkIndex(*store_, versions[i], reporter, *indexes[i]);
        }
        for (const std::string& name : store_->files("aliases")) {
            if (name.ends_with(".json")) {
                checkAlias(*store_, stem(name), reporter);
            }
        }
        checkManifestAliases(*store_, reporter);
    }

    void runFile(Reporter& reporter) {
        const ByteSource& source = *target_.file;
        switch (target_.scope) {
            case ValidationScope::Shard: {
                const ShardParse parse = parseShard(source);
                reporter.reportProblems(parse.problems);
                if (parse.layout) {
                    IdCollector ids;
                    checkShardContent(source, *parse.layout, reporter, &ids);
                    ids.reportDuplicates(reporter, "the shard");
                }
                break;
            }
            case ValidationScope::CoarseQuantizer: {
                const CoarseParse parse = parseCoarseQuantizer(source);
                reporter.reportProblems(parse.problems);
                if (parse.layout) {
                    checkCoarseContent(source, *parse.layout, reporter);
                }
                break;
            }
            case ValidationScope::Codebook: {
                const CodebookParse parse = parseCodebook(source);
                reporter.reportProblems(parse.problems);
                if (parse.layout) {
                    checkCodebookContent(source, *parse.layout, reporter);
                }
                break;
            }
            default:
                runManifestFile(reporter);
                break;
        }
    }

    void runManifestFile(Reporter& reporter) {
        const JsonDoc doc = loadJson(target_.file);
        if (!doc.parsed) {
            reporter.report(jsonError(doc, "manifest"));
            return;
        }
        std::vector<Diagnostic> found;
        (void)readIndexManifest(doc, found);
        reporter.reportAll(std::move(found));
    }

    std::shared_ptr<const Store> store_;
    ValidationTarget target_;
};

}  // namespace

std::unique_ptr<Validator> makeShardlakeValidator(std::shared_ptr<const Store> store,
                                                  ValidationTarget target) {
    return std::make_unique<ShardlakeValidator>(std::move(store), std::move(target));
}

}  // namespace strata::shardlake
