// strata-cli shardlake: Shardlake storage roots.
//   info ROOT [--json]                       datasets, indexes and what each alias serves
//   validate PATH [--index V] [--json]       the Shardlake validator (exit 1 on errors)
//   query ROOT --index V (--vector JSON | --id ID) [-k 10] [--metric M]
//         [--nprobe N | --exact] [--threads N] [--json]
//   build ROOT --dataset-version D --index-version V [--input JSONL] [...]
//   alias ROOT NAME VERSION                  point an alias at another index version
#include <unistd.h>
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "command_context.h"
#include "formats/common/counted.h"
#include "formats/common/location.h"
#include "formats/registry/format_registry.h"
#include "formats/shardlake/shardlake_alias_edit.h"
#include "formats/shardlake/shardlake_answer_overlap.h"
#include "formats/shardlake/shardlake_builder.h"
#include "formats/shardlake/shardlake_dataset.h"
#include "formats/shardlake/shardlake_format.h"
#include "formats/shardlake/shardlake_json.h"
#include "formats/shardlake/shardlake_json_writer.h"
#include "formats/shardlake/shardlake_manifest.h"
#include "formats/shardlake/shardlake_search.h"
#include "formats/shardlake/shardlake_validator.h"
#include "input_source.h"
#include "json_output.h"
#include "terminal_progress.h"

namespace strata::cli {

namespace {

namespace sl = strata::shardlake;
using ojson = nlohmann::ordered_json;

// A storage root given as a local folder or as a URL (an HTTP folder, an S3 prefix), whose
// files are then read through the run's remote session.
std::shared_ptr<const sl::Store> openRoot(const std::string& text) {
    if (!isUrl(text)) {
        if (!std::filesystem::is_directory(text)) {
            throw std::runtime_error(text + ": not a folder");
        }
        return std::make_shared<const sl::Store>(text);
    }
    const Location location = Location::parse(text);
    const FileTreePtr tree = inputTree(text);
    const auto entry = tree->stat(location);
    if (!entry || !entry->isDirectory) {
        throw std::runtime_error(location.text() + ": not a folder");
    }
    return std::make_shared<const sl::Store>(tree, location.text());
}

// ---- info ---------------------------------------------------------------------------------

ojson indexSummary(const sl::Store& store, const std::string& version) {
    ojson out = ojson::object();
    out["version"] = version;
    const sl::JsonDoc doc = sl::loadJson(store.source("indexes/" + version + "/manifest.json"));
    if (!doc.parsed) {
        out["error"] = "manifest unreadable: " + doc.error;
        return out;
    }
    std::vector<Diagnostic> ignored;
    const sl::IndexManifest m = sl::readIndexManifest(doc, ignored);
    out["dataset_version"] = m.datasetVersion;
    out["metric"] = m.metric;
    out["dims"] = m.dims.value_or(0);
    out["shards"] = m.shards.size();
    out["vectors"] = m.totalVectorCount.value_or(0);
    out["compression"] = m.compression.pqShards() ? "pq8" : "none";
    return out;
}

ojson rootSummary(const sl::Store& store) {
    ojson out = ojson::object();
    out["root"] = store.root().string();
    ojson datasets = ojson::array();
    for (const std::string& version : store.folders("datasets")) {
        ojson entry = {{"version", version}};
        const sl::JsonDoc doc = sl::loadJson(store.source("datasets/" + version + "/info.json"));
        if (doc.parsed) {
            std::vector<Diagnostic> ignored;
            const sl::DatasetInfo info = sl::readDatasetInfo(doc, ignored);
            entry["dims"] = info.dims.value_or(0);
            entry["vectors"] = info.count.value_or(0);
        } else {
            entry["error"] = "info.json unreadable";
        }
        datasets.push_back(std::move(entry));
    }
    ojson indexes = ojson::array();
    for (const std::string& version : store.folders("indexes")) {
        indexes.push_back(indexSummary(store, version));
    }
    ojson aliases = ojson::array();
    for (std::string name : store.files("aliases")) {
        if (!name.ends_with(".json")) {
            continue;
        }
        name.resize(name.size() - 5);
        const sl::JsonDoc doc = sl::loadJson(store.source("aliases/" + name + ".json"));
        std::vector<Diagnostic> ignored;
        const auto alias = doc.parsed ? sl::readAlias(doc, ignored) : std::nullopt;
        ojson entry = {{"alias", name}};
        entry["index_version"] = alias ? ojson(alias->indexVersion) : ojson(nullptr);
        entry["target_ok"] = alias && sl::aliasTargetProblem(store, alias->indexVersion).empty();
        aliases.push_back(std::move(entry));
    }
    out["datasets"] = std::move(datasets);
    out["indexes"] = std::move(indexes);
    out["aliases"] = std::move(aliases);
    return out;
}

void printRootSummary(const ojson& summary) {
    std::cout << "root: " << summary["root"].get<std::string>() << '\n';
    for (const ojson& d : summary["datasets"]) {
        std::cout << "dataset " << d["version"].get<std::string>();
        if (d.contains("error")) {
            std::cout << ": " << d["error"].get<std::string>() << '\n';
            continue;
        }
        std::cout << ": " << counted(d["vectors"].get<std::uint64_t>(), "vector") << ", "
                  << d["dims"] << " dims\n";
    }
    for (const ojson& i : summary["indexes"]) {
        std::cout << "index " << i["version"].get<std::string>();
        if (i.contains("error")) {
            std::cout << ": " << i["error"].get<std::string>() << '\n';
            continue;
        }
        std::cout << ": " << i["metric"].get<std::string>() << ", " << i["dims"] << " dims, "
                  << counted(i["shards"].get<std::uint64_t>(), "shard") << ", "
                  << counted(i["vectors"].get<std::uint64_t>(), "vector") << ", "
                  << i["compression"].get<std::string>() << '\n';
    }
    for (const ojson& a : summary["aliases"]) {
        std::cout << "alias " << a["alias"].get<std::string>() << " -> "
                  << (a["index_version"].is_string() ? a["index_version"].get<std::string>()
                                                     : std::string("(unreadable)"))
                  << (a["target_ok"].get<bool>() ? "" : " (no such index)") << '\n';
    }
}

int runInfo(const std::string& root, bool json) {
    const ojson summary = rootSummary(*openRoot(root));
    if (json) {
        std::cout << summary.dump(2) << '\n';
    } else {
        printRootSummary(summary);
    }
    return kExitOk;
}

// ---- validate -----------------------------------------------------------------------------

std::string diagnosticText(const Diagnostic& d) {
    std::string severity(severityName(d.severity));
    for (char& c : severity) {
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    std::string line = severity + ' ' + d.code + ' ' + d.fileName();
    if (!d.regions.empty() && d.regions.front().valid()) {
        line += '@' + std::to_string(d.regions.front().offset) + '+' +
                std::to_string(d.regions.front().length);
    }
    return line + ": " + d.message;
}

struct ValidateRequest {
    std::string path;
    std::string index;
    bool json = false;
    unsigned threads = 0;
};

int runValidate(const ValidateRequest& request) {
    std::unique_ptr<Validator> validator;
    std::unique_ptr<OpenedDocument> document;
    if (!request.index.empty()) {
        auto store = openRoot(request.path);
        sl::ValidationTarget target;
        target.scope = sl::ValidationScope::Index;
        target.name = request.index;
        validator = sl::makeShardlakeValidator(store, target);
    } else {
        document = openDocument(request.path);
        if (document->format != kShardlakeFormat || !document->makeValidator) {
            throw std::runtime_error(request.path + ": not a Shardlake root, index or file");
        }
        validator = document->makeValidator();
    }
    std::size_t errors = 0;
    std::size_t warnings = 0;
    Json diagnostics = Json::array();
    CallbackSink sink([&](Diagnostic d) {
        errors += d.severity == Severity::Error ? 1 : 0;
        warnings += d.severity == Severity::Warning ? 1 : 0;
        if (request.json) {
            diagnostics.push_back(diagnosticJson(d));
        } else {
            std::cout << diagnosticText(d) << '\n';
        }
    });
    ValidationOptions options;
    options.threads = request.threads;
    validator->run(sink, options);
    if (request.json) {
        Json out = Json::object();
        out["path"] = request.path;
        out["diagnostics"] = std::move(diagnostics);
        out["summary"] = {{"errors", errors}, {"warnings", warnings}};
        printJson(out);
    } else {
        std::cout << "Shardlake " << request.path << ": " << counted(errors, "error") << ", "
                  << counted(warnings, "warning") << '\n';
    }
    return errors > 0 ? kExitErrors : kExitOk;
}

// ---- query --------------------------------------------------------------------------------

struct QueryRequest {
    std::string root;
    std::string index;
    std::string vector;
    std::optional<std::uint64_t> id;
    std::size_t k = 10;
    std::string metric;
    std::optional<std::size_t> nprobe;
    bool exact = false;
    unsigned threads = 0;
    bool json = false;
};

// An index version, or an alias naming one.
std::string resolveIndex(const sl::Store& store, const std::string& name) {
    if (store.exists("indexes/" + name + "/manifest.json") ||
        !store.exists("aliases/" + name + ".json")) {
        return name;
    }
    const sl::JsonDoc doc = sl::loadJson(store.source("aliases/" + name + ".json"));
    std::vector<Diagnostic> ignored;
    const auto alias = doc.parsed ? sl::readAlias(doc, ignored) : std::nullopt;
    return alias ? alias->indexVersion : name;
}

std::vector<float> parseVector(const std::string& text) {
    const nlohmann::json parsed = nlohmann::json::parse(text, nullptr, false);
    if (!parsed.is_array()) {
        throw std::runtime_error("--vector must be a JSON array of numbers");
    }
    std::vector<float> out;
    for (const auto& value : parsed) {
        if (!value.is_number()) {
            throw std::runtime_error("--vector must be a JSON array of numbers");
        }
        out.push_back(static_cast<float>(value.get<double>()));
    }
    return out;
}

// The stored vector of `id`: from a raw shard, else from the dataset's vectors.
std::optional<std::vector<float>> vectorOfId(const sl::Store& store, const sl::LoadedIndex& index,
                                             std::uint64_t id) {
    if (!index.pq) {
        for (const auto& shard : index.shards) {
            const std::uint64_t count = shard.layout.recordsPresent();
            sl::RecordReader records(*shard.source, shard.layout);  // not a read per record
            for (std::uint64_t i = 0; i < count; ++i) {
                if (records.id(i) == id) {
                    return sl::readF32s(*shard.source, shard.layout.recordOffset(i) + 8,
                                        shard.layout.dims);
                }
            }
        }
    }
    const ByteSourcePtr vectors = store.source(sl::indexDatasetKey(store, index.version));
    std::optional<std::vector<float>> found;
    if (vectors) {
        sl::forEachDatasetLine(*vectors, [&](const sl::DatasetLine& line) {
            if (line.id == id && line.error.empty()) {
                found = std::vector<float>(line.values.begin(), line.values.end());
                return false;
            }
            return true;
        });
    }
    return found;
}

std::vector<sl::DatasetVector> datasetVectors(const sl::Store& store, const std::string& version) {
    const ByteSourcePtr source = store.source(sl::indexDatasetKey(store, version));
    if (!source) {
        throw std::runtime_error("the index's dataset vectors are missing");
    }
    std::string error;
    std::vector<sl::DatasetVector> out = sl::readDatasetVectors(*source, &error);
    if (!error.empty()) {
        throw std::runtime_error("dataset vectors: " + error);
    }
    return out;
}

void printHits(const std::vector<sl::Hit>& hits, bool withShard, bool json) {
    if (json) {
        std::string out = "[";
        for (std::size_t i = 0; i < hits.size(); ++i) {
            out += i == 0 ? "\n  " : ",\n  ";
            out += "{\"id\": " + std::to_string(hits[i].id) +
                   ", \"score\": " + sl::formatF32(hits[i].score) + ", \"shard\": " +
                   (withShard ? std::to_string(hits[i].shardId) : std::string("null")) + '}';
        }
        std::cout << out << (hits.empty() ? "]\n" : "\n]\n");
        return;
    }
    std::cout << "rank\tid\tscore\tshard\n";
    for (std::size_t i = 0; i < hits.size(); ++i) {
        std::cout << i + 1 << '\t' << hits[i].id << '\t' << sl::formatF32(hits[i].score) << '\t'
                  << (withShard ? std::to_string(hits[i].shardId) : std::string("-")) << '\n';
    }
}

int runQuery(const QueryRequest& request) {
    const std::shared_ptr<const sl::Store> opened = openRoot(request.root);
    const sl::Store& store = *opened;
    const std::string version = resolveIndex(store, request.index);
    const sl::IndexLoad load = sl::loadIndex(store, version);
    if (!load.index) {
        throw std::runtime_error("index " + version + ": " + load.error);
    }
    const sl::LoadedIndex& index = *load.index;
    std::vector<float> query;
    if (request.id) {
        const auto found = vectorOfId(store, index, *request.id);
        if (!found) {
            throw std::runtime_error("no vector with id " + std::to_string(*request.id));
        }
        query = *found;
    } else {
        query = parseVector(request.vector);
    }
    std::optional<sl::Metric> metric;
    if (!request.metric.empty()) {
        metric = sl::metricFromName(request.metric);
        if (!metric) {
            throw std::runtime_error("unknown metric " + request.metric +
                                     " (cosine, euclidean, inner_product)");
        }
    }
    sl::SearchResult result;
    bool withShard = true;
    if (request.exact && index.pq) {
        const auto vectors = datasetVectors(store, version);
        result = sl::exactSearch(vectors, query, metric.value_or(index.metric), request.k);
        withShard = false;
    } else {
        sl::SearchOptions options;
        options.k = request.k;
        options.metric = metric;
        options.nprobe = request.exact ? 0 : request.nprobe.value_or(0);
        options.threads = request.threads;
        result = sl::searchIndex(index, query, options);
    }
    if (!result.error.empty()) {
        std::cerr << "strata-cli: " << result.error << '\n';
        return kExitErrors;
    }
    printHits(result.hits, withShard, request.json);
    return kExitOk;
}

// ---- build and alias ----------------------------------------------------------------------

struct BuildArgs {
    std::string root;
    std::string input;
    sl::BuildRequest build;
    std::string metric = "cosine";
    std::optional<std::uint32_t> sample;
    bool json = false;
};

int runBuild(BuildArgs& args) {
    sl::BuildRequest& r = args.build;
    r.root = args.root;
    const auto metric = sl::metricFromName(args.metric);
    if (!metric) {
        throw std::runtime_error("unknown metric " + args.metric);
    }
    r.metric = *metric;
    r.kmeansSampleSize = args.sample;
    r.progress = terminalProgress();
    if (!args.input.empty()) {
        sl::IngestRequest ingest;
        ingest.root = args.root;
        ingest.input = args.input;
        ingest.datasetVersion = r.datasetVersion;
        ingest.embeddingVersion = r.embeddingVersion;
        ingest.timestamp = r.timestamp;
        ingest.replace = r.replace;
        ingest.progress = r.progress;
        const sl::BuildOutcome ingested = sl::ingestVectors(ingest);
        if (!ingested.ok) {
            throw std::runtime_error("ingest: " + ingested.error);
        }
    }
    const sl::BuildOutcome built = sl::buildIndex(r);
    clearTerminalProgress(r.progress);
    if (!built.ok) {
        throw std::runtime_error("build: " + built.error);
    }
    if (args.json) {
        ojson out = {{"index_version", r.indexVersion},
                     {"shards", built.shards},
                     {"vectors", built.vectors},
                     {"dims", built.dims},
                     {"seconds", built.seconds}};
        std::cout << out.dump(2) << '\n';
    } else {
        std::cout << "Index built: index_version=" << r.indexVersion << " ("
                  << counted(built.shards, "shard") << ", " << counted(built.vectors, "vector")
                  << ") in " << built.seconds << " s\n";
    }
    return kExitOk;
}

int runAlias(const std::string& root, const std::string& name, const std::string& version,
             bool replaceOnly) {
    const sl::AliasWrite result =
        sl::writeAlias(root, name, version,
                       replaceOnly ? sl::AliasMode::ReplaceOnly : sl::AliasMode::CreateOrReplace);
    if (!result.ok) {
        throw std::runtime_error(result.error);
    }
    std::cout << "alias " << name << ": "
              << (result.previousVersion.empty() ? "(new)" : result.previousVersion) << " -> "
              << version << '\n';
    return kExitOk;
}

void addInfo(CLI::App& group, CommandContext& context) {
    auto root = std::make_shared<std::string>();
    auto json = std::make_shared<bool>(false);
    CLI::App* c = group.add_subcommand("info", "Datasets, indexes and aliases of a storage root");
    c->add_option("ROOT", *root, "Storage root folder")->transform(inputArgument)->required();
    c->add_flag("--json", *json, "Print one JSON object");
    c->callback(
        [&context, root, json] { runGuarded(context, [&] { return runInfo(*root, *json); }); });
}

void addValidate(CLI::App& group, CommandContext& context) {
    auto r = std::make_shared<ValidateRequest>();
    CLI::App* c = group.add_subcommand("validate", "Validate a root, an index or a file");
    c->add_option("PATH", r->path, "Storage root, index folder or Shardlake file")
        ->transform(inputArgument)
        ->required();
    c->add_option("--index", r->index, "Only this index version of the root");
    c->add_option("--threads", r->threads, "Worker threads (0: one per core)");
    c->add_flag("--json", r->json, "Print one JSON object");
    c->callback([&context, r] { runGuarded(context, [&] { return runValidate(*r); }); });
}

void addQuery(CLI::App& group, CommandContext& context) {
    auto r = std::make_shared<QueryRequest>();
    CLI::App* c = group.add_subcommand("query", "Nearest neighbours of a vector in an index");
    c->add_option("ROOT", r->root, "Storage root folder")->transform(inputArgument)->required();
    c->add_option("--index", r->index, "Index version (or an alias)")->required();
    auto* vector = c->add_option("--vector", r->vector, "Query vector as a JSON array");
    auto* id = c->add_option("--id", r->id, "Use the stored vector with this id as the query");
    vector->excludes(id);
    c->add_option("-k", r->k, "Number of results")->capture_default_str();
    c->add_option("--metric", r->metric, "cosine, euclidean or inner_product (default: index's)");
    auto* nprobe = c->add_option("--nprobe", r->nprobe, "Shards probed, nearest centroids first");
    auto* exact = c->add_flag("--exact", r->exact,
                              "Exact distances over every vector (a PQ index: the dataset's)");
    nprobe->excludes(exact);
    c->add_option("--threads", r->threads, "Worker threads (0: one per core)");
    c->add_flag("--json", r->json, "Print [{\"id\", \"score\", \"shard\"}], best first");
    c->callback([&context, r] {
        runGuarded(context, [&] {
            if (r->vector.empty() && !r->id) {
                throw std::runtime_error("give --vector or --id");
            }
            return runQuery(*r);
        });
    });
}

void addBuild(CLI::App& group, CommandContext& context) {
    auto a = std::make_shared<BuildArgs>();
    CLI::App* c = group.add_subcommand(
        "build", "Build an index from a dataset (ingesting a vectors JSONL first with --input)");
    c->add_option("ROOT", a->root, "Storage root folder (created when missing)")
        ->transform(inputArgument)
        ->required();
    c->add_option("--input", a->input,
                  "Vectors JSONL to ingest first ({\"id\", \"vector\", \"metadata\"} lines)");
    c->add_option("--dataset-version", a->build.datasetVersion, "Dataset version")->required();
    c->add_option("--embedding-version", a->build.embeddingVersion, "Embedding version");
    c->add_option("--index-version", a->build.indexVersion, "Index version")->required();
    c->add_option("--metric", a->metric, "cosine, euclidean or inner-product")
        ->capture_default_str();
    c->add_option("--num-shards", a->build.numShards, "Shards (k-means k)")->capture_default_str();
    c->add_option("--kmeans-iters", a->build.kmeansIters, "k-means iterations")
        ->capture_default_str();
    c->add_option("--nprobe", a->build.nprobe, "Default shards probed per query")
        ->capture_default_str();
    c->add_option("--kmeans-seed", a->build.kmeansSeed, "k-means seed")->capture_default_str();
    c->add_option("--kmeans-sample-size", a->sample, "Train k-means on at most N vectors");
    c->add_option("--timestamp", a->build.timestamp,
                  "RFC 3339 time to record instead of now (reproducible output)");
    c->add_flag("--replace", a->build.replace, "Overwrite an existing dataset or index version");
    c->add_option("--threads", a->build.threads, "Worker threads (0: one per core)");
    c->add_flag("--json", a->json, "Print one JSON object");
    c->callback([&context, a] { runGuarded(context, [&] { return runBuild(*a); }); });
}

void addAlias(CLI::App& group, CommandContext& context) {
    struct Args {
        std::string root, name, version;
        bool replaceOnly = false;
    };
    auto a = std::make_shared<Args>();
    CLI::App* c = group.add_subcommand("alias", "Point an alias at an index version");
    c->add_option("ROOT", a->root, "Storage root folder")->transform(inputArgument)->required();
    c->add_option("NAME", a->name, "Alias name")->required();
    c->add_option("VERSION", a->version, "Index version")->required();
    c->add_flag("--existing", a->replaceOnly, "Fail when the alias does not exist yet");
    c->callback([&context, a] {
        runGuarded(context, [&] { return runAlias(a->root, a->name, a->version, a->replaceOnly); });
    });
}

// Run when the command line names the command (defineCommand).
void fillShardlakeCommands(CLI::App* group, CommandContext& context) {
    group->require_subcommand(1);
    addInfo(*group, context);
    addValidate(*group, context);
    addQuery(*group, context);
    addBuild(*group, context);
    addAlias(*group, context);
}

}  // namespace

void registerShardlakeCommands(CLI::App& app, CommandContext& context) {
    defineCommand(app, "shardlake", "Shardlake storage roots and shards", context,
                  &fillShardlakeCommands);
}

}  // namespace strata::cli
