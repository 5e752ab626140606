// strata-cli zds: ZDS datasets (folders and `.zds` archives), built on formats/zds.
//   validate PATH [--json]                      every ZDS check; exit 1 when there are errors
//   ls PATH [--collection NAME] [--json]        ids of the live documents in stored order
//   get PATH ID [--collection NAME] [--raw] [--with-id] [--pretty]
//                                               the document as the reference reads it
//   search PATH (--id | --field PTR | --text) [--op eq|lt|gt|contains|regex] VALUE
//                                               matching documents, streamed
//   pack FOLDER OUT.zds [--deflate]             unpack IN.zds FOLDER [--max-bytes N]
//   reindex PATH [--collection NAME] [--from-lines]
//   compact PATH [--collection NAME] [--deflate]
//   convert PATH --to docs|jsonl [--collection NAME]
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "cli_interrupt.h"
#include "command_context.h"
#include "formats/common/counted.h"
#include "formats/common/location.h"
#include "formats/common/thread_cancel.h"
#include "formats/zds/zds_jobs.h"
#include "formats/zds/zds_line_index.h"
#include "formats/zds/zds_live_set.h"
#include "formats/zds/zds_reader.h"
#include "formats/zds/zds_search.h"
#include "formats/zds/zds_validator.h"
#include "formats/zds/zds_writer.h"
#include "input_source.h"
#include "json_output.h"
#include "terminal_progress.h"

namespace strata::cli {

namespace {

namespace fs = std::filesystem;

std::string dumpJson(const nlohmann::ordered_json& json, int indent = -1) {
    return json.dump(indent, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

// A dataset folder or `.zds` given as a path or a URL (http(s)://, s3://), which is then read
// through the run's remote session.
std::shared_ptr<zds::ZdsDataset> openDataset(const std::string& path) {
    if (isUrl(path)) {
        return zds::ZdsDataset::open(inputTree(path), Location::parse(path));
    }
    std::error_code ec;
    if (!fs::exists(path, ec)) {
        throw SourceError(path + ": no such file or folder");
    }
    return zds::ZdsDataset::open(path);
}

// The commands that write refuse a URL: a remote dataset is read-only.
void requireLocal(const std::string& command, const std::string& path) {
    if (isUrl(path)) {
        throw std::runtime_error("zds " + command + ": " + path +
                                 " is a URL, and datasets at URLs are read-only; download it and " +
                                 command + " the local copy");
    }
}

// ---- validate ----

int runValidate(const std::string& path, bool json) {
    FileTreePtr tree;
    if (isUrl(path)) {
        tree = inputTree(path);
        if (!tree->stat(Location::parse(path))) {
            throw SourceError(path + ": no such file or folder");
        }
    } else {
        std::error_code ec;
        if (!fs::exists(path, ec)) {
            throw SourceError(path + ": no such file or folder");
        }
    }
    const InterruptScope interruptible;
    auto validator = zds::makeZdsValidator(path, nullptr, nullptr, tree);
    CollectingSink sink;
    ValidationOptions options;
    options.cancel = &commandInterrupt();
    options.progress = terminalProgress();
    const JobOutcome outcome = validator->run(sink, options);
    clearTerminalProgress(options.progress);
    const std::size_t errors = sink.countOf(Severity::Error);
    const std::size_t warnings = sink.countOf(Severity::Warning);
    if (json) {
        Json out;
        out["format"] = "ZDS";
        out["path"] = path;
        out["summary"] = {{"errors", errors},
                          {"warnings", warnings},
                          {"infos", sink.countOf(Severity::Info)},
                          {"completed", outcome == JobOutcome::Completed}};
        Json list = Json::array();
        for (const Diagnostic& d : sink.diagnostics()) {
            list.push_back(diagnosticJson(d));
        }
        out["diagnostics"] = std::move(list);
        std::cout << dumpJson(out, 2) << '\n';
    } else {
        for (const Diagnostic& d : sink.diagnostics()) {
            std::string severity(severityName(d.severity));
            for (char& c : severity) {
                c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
            }
            std::cout << severity << ' ' << d.code << ' ' << d.fileName();
            if (!d.regions.empty() && d.regions.front().valid()) {
                std::cout << '@' << d.regions.front().offset << '+' << d.regions.front().length;
            }
            std::cout << ": " << d.message << '\n';
        }
        std::cout << path << ": " << counted(errors, "error") << ", "
                  << counted(warnings, "warning") << '\n';
    }
    if (outcome == JobOutcome::Cancelled) {
        std::cerr << "strata-cli: interrupted\n";
        return kExitFailure;
    }
    return errors > 0 ? kExitErrors : kExitOk;
}

// ---- ls / get ----

// What the live set of a collection says about its index and data, on stderr.
void printLiveNotes(const zds::ZdsCollection& c, const zds::ZdsLiveSet& live) {
    for (const std::string& note : live.notes()) {
        std::cerr << "note: " << c.name() << ": " << note << '\n';
    }
}

int runLs(const std::string& path, const std::string& collection, bool json) {
    const auto ds = openDataset(path);
    const zds::ZdsCollection& c = zds::chooseZdsCollection(*ds, collection);
    const auto live = c.liveSet();
    printLiveNotes(c, *live);
    if (json) {
        nlohmann::ordered_json ids = nlohmann::ordered_json::array();
        for (std::uint64_t i = 0; i < live->size(); ++i) {
            ids.push_back(std::string(live->id(i)));
        }
        std::cout << dumpJson(ids, 2) << '\n';
        return kExitOk;
    }
    for (std::uint64_t i = 0; i < live->size(); ++i) {
        std::cout << live->id(i) << '\n';
    }
    return kExitOk;
}

struct GetArgs {
    std::string path, id, collection;
    bool raw = false, withId = false, pretty = false;
};

// The document `id` of `c`, or a note of why it cannot be read (already printed).
std::optional<zds::ZdsDocument> findDocumentForGet(const zds::ZdsCollection& c,
                                                   const std::string& id) {
    // Through the index and one line when that settles it: a remote collection then reads
    // no more of data.jsonl than the document.
    const zds::ZdsIndexedLookup quick = zds::lookUpThroughIndex(c, id);
    if (quick.outcome == zds::ZdsIndexedLookup::Outcome::Found) {
        return quick.document;
    }
    const auto live =
        quick.outcome == zds::ZdsIndexedLookup::Outcome::Absent ? nullptr : c.liveSet();
    const auto index = live ? live->find(id) : std::nullopt;
    if (!index) {
        std::cerr << "strata-cli: no document \"" << id << "\" in collection " << c.name() << '\n';
        return std::nullopt;
    }
    const zds::ZdsDocument doc = c.document(*index);
    if (doc.flags & zds::kZdsLiveUnreadable) {
        std::cerr << "strata-cli: document \"" << id << "\" in collection " << c.name()
                  << " is listed by " << live->basisText() << " but its bytes cannot be found\n";
        return std::nullopt;
    }
    if (doc.flags & zds::kZdsLiveRelocated) {
        std::cerr << "note: the index entry of \"" << id
                  << "\" does not point at its line; read from offset " << doc.region.offset
                  << " of data.jsonl instead\n";
    }
    if (doc.flags & zds::kZdsLiveKeyMismatch) {
        std::cerr << "note: the index lists \"" << id << "\" at a line whose _id is different\n";
    }
    return doc;
}

int runGet(const GetArgs& args) {
    const auto ds = openDataset(args.path);
    const zds::ZdsCollection& c = zds::chooseZdsCollection(*ds, args.collection);
    const auto doc = findDocumentForGet(c, args.id);
    if (!doc) {
        return kExitErrors;
    }
    const ByteView bytes = c.documentBytes(*doc);
    if (args.raw) {
        std::cout.write(reinterpret_cast<const char*>(bytes.data()),
                        static_cast<std::streamsize>(bytes.size()));
        std::cout << '\n';
        return kExitOk;
    }
    auto json =
        nlohmann::ordered_json::parse(bytes.bytes.begin(), bytes.bytes.end(), nullptr, false);
    if (json.is_discarded()) {
        std::cerr << "strata-cli: document \"" << args.id << "\" in collection " << c.name()
                  << " is not valid JSON (" << doc->region.source->name() << ")\n";
        return kExitErrors;
    }
    if (json.is_object() && !args.withId) {
        json.erase("_id");  // the reference returns the document without its id
    }
    std::cout << dumpJson(json, args.pretty ? 2 : -1) << '\n';
    return kExitOk;
}

// ---- search ----

struct SearchArgs {
    std::string path, collection, field, op = "eq", value;
    bool id = false, text = false, ignoreCase = false, json = false;
    std::uint64_t limit = 0;
};

int runSearch(const SearchArgs& args) {
    zds::ZdsQuery q;
    const int targets = (args.id ? 1 : 0) + (args.text ? 1 : 0) + (args.field.empty() ? 0 : 1);
    if (targets != 1) {
        throw CLI::ValidationError("search", "give exactly one of --id, --field PTR, --text");
    }
    q.target = args.id     ? zds::ZdsQuery::Target::Id
               : args.text ? zds::ZdsQuery::Target::Text
                           : zds::ZdsQuery::Target::Field;
    q.pointer = args.field;
    q.value = args.value;
    q.ignoreCase = args.ignoreCase;
    const std::map<std::string, zds::ZdsQuery::Op> ops = {{"eq", zds::ZdsQuery::Op::Equals},
                                                          {"lt", zds::ZdsQuery::Op::Less},
                                                          {"gt", zds::ZdsQuery::Op::Greater},
                                                          {"contains", zds::ZdsQuery::Op::Contains},
                                                          {"regex", zds::ZdsQuery::Op::Regex}};
    q.op = ops.at(args.op);
    std::string error;
    const auto matcher = zds::ZdsMatcher::compile(q, &error);
    if (!matcher) {
        std::cerr << "strata-cli: " << error << '\n';
        return kExitFailure;
    }
    const auto ds = openDataset(args.path);
    const zds::ZdsCollection& c = zds::chooseZdsCollection(*ds, args.collection);
    const InterruptScope interruptible;
    zds::ZdsSearchOptions options;
    options.cancel = &commandInterrupt();
    options.maxHits = args.limit;
    options.progress = terminalProgress();
    nlohmann::ordered_json hits = nlohmann::ordered_json::array();
    const auto outcome = zds::searchZdsCollection(
        c, *matcher,
        [&](const zds::ZdsSearchHit& hit) {
            if (args.json) {
                hits.push_back({{"id", hit.id},
                                {"offset", hit.region.offset},
                                {"length", hit.region.length},
                                {"match", hit.snippet}});
            } else {
                clearTerminalProgress(options.progress);
                std::cout << hit.id << '\t' << hit.snippet << '\n';
            }
            return true;
        },
        options);
    clearTerminalProgress(options.progress);
    if (args.json) {
        std::cout << dumpJson(hits, 2) << '\n';
    }
    if (outcome.cancelled) {
        std::cerr << "strata-cli: interrupted\n";
        return kExitFailure;
    }
    return kExitOk;
}

// ---- jobs ----

int finishJob(const zds::ZdsJobResult& result, const std::string& what) {
    for (const std::string& note : result.notes) {
        std::cerr << "note: " << note << '\n';
    }
    if (result.cancelled) {
        std::cerr << "strata-cli: interrupted; nothing was changed\n";
        return kExitFailure;
    }
    std::cout << what << '\n';
    return kExitOk;
}

zds::ZdsJobOptions jobOptions(const std::string& collection = {}, bool deflate = false) {
    const InterruptScope interruptible;
    zds::ZdsJobOptions options;
    options.cancel = &commandInterrupt();
    options.progress = terminalProgress();
    options.collection = collection;
    options.deflate = deflate;
    return options;
}

struct JobArgs {
    std::string a, b, collection, to;
    bool deflate = false;
    bool fromLines = false;
    std::uint64_t maxBytes = 64ull << 30;
};

// Run when the command line names the command (defineCommand).
void fillZdsCommands(CLI::App* group, CommandContext& context) {
    group->require_subcommand(1);

    auto validate = std::make_shared<std::pair<std::string, bool>>();
    CLI::App* validateCmd =
        group->add_subcommand("validate", "Every ZDS check; exit code 1 on errors");
    validateCmd->add_option("path", validate->first, "Dataset folder or .zds")
        ->transform(inputArgument)
        ->required();
    validateCmd->add_flag("--json", validate->second, "JSON output");
    validateCmd->callback([&context, validate] {
        runGuarded(context, [&] { return runValidate(validate->first, validate->second); });
    });

    struct LsArgs {
        std::string path, collection;
        bool json = false;
    };
    auto ls = std::make_shared<LsArgs>();
    CLI::App* lsCmd = group->add_subcommand("ls", "Document ids in stored order");
    lsCmd->add_option("path", ls->path, "Dataset folder or .zds")
        ->transform(inputArgument)
        ->required();
    lsCmd->add_option("--collection", ls->collection,
                      "Collection (default: the only one, or `default`)");
    lsCmd->add_flag("--json", ls->json, "A JSON array of strings");
    lsCmd->callback([&context, ls] {
        runGuarded(context, [&] { return runLs(ls->path, ls->collection, ls->json); });
    });

    auto get = std::make_shared<GetArgs>();
    CLI::App* getCmd =
        group->add_subcommand("get", "One document as JSON, without its _id as the reference");
    getCmd->add_option("path", get->path, "Dataset folder or .zds")
        ->transform(inputArgument)
        ->required();
    getCmd->add_option("id", get->id, "Document id")->required();
    getCmd->add_option("--collection", get->collection,
                       "Collection (default: the only one, or `default`)");
    getCmd->add_flag("--raw", get->raw, "The stored bytes exactly");
    getCmd->add_flag("--with-id", get->withId, "Keep the _id field");
    getCmd->add_flag("--pretty", get->pretty, "Indent the JSON");
    getCmd->callback([&context, get] { runGuarded(context, [&] { return runGet(*get); }); });

    auto search = std::make_shared<SearchArgs>();
    CLI::App* searchCmd = group->add_subcommand("search", "Documents matching a query");
    searchCmd->add_option("path", search->path, "Dataset folder or .zds")
        ->transform(inputArgument)
        ->required();
    searchCmd->add_option("value", search->value, "Value, substring or pattern")->required();
    searchCmd->add_option("--collection", search->collection, "Collection");
    searchCmd->add_flag("--id", search->id, "Match ids");
    searchCmd->add_option("--field", search->field, "Match the value at this JSON pointer");
    searchCmd->add_flag("--text", search->text, "Match the raw document text");
    searchCmd->add_option("--op", search->op, "eq, lt, gt, contains or regex")
        ->check(CLI::IsMember({"eq", "lt", "gt", "contains", "regex"}));
    searchCmd->add_flag("-i,--ignore-case", search->ignoreCase, "Ignore case");
    searchCmd->add_option("--limit", search->limit, "Stop after this many matches");
    searchCmd->add_flag("--json", search->json, "JSON output");
    searchCmd->callback(
        [&context, search] { runGuarded(context, [&] { return runSearch(*search); }); });

    auto pack = std::make_shared<JobArgs>();
    CLI::App* packCmd = group->add_subcommand("pack", "Pack a dataset folder into a .zds");
    packCmd->add_option("folder", pack->a, "Dataset folder")->required();
    packCmd->add_option("out", pack->b, "Archive to write (replaced atomically)")->required();
    packCmd->add_flag("--deflate", pack->deflate, "DEFLATE members (default: STORE)");
    packCmd->callback([&context, pack] {
        runGuarded(context, [&] {
            requireLocal("pack", pack->a);
            requireLocal("pack", pack->b);
            const auto r = zds::packZds(pack->a, pack->b, jobOptions({}, pack->deflate));
            return finishJob(r, "packed " + counted(r.documents, "document") + " into " + pack->b);
        });
    });

    auto unpack = std::make_shared<JobArgs>();
    CLI::App* unpackCmd = group->add_subcommand("unpack", "Unpack a .zds into a new folder");
    unpackCmd->add_option("archive", unpack->a, ".zds archive")->required();
    unpackCmd->add_option("folder", unpack->b, "Folder to create")->required();
    unpackCmd->add_option("--max-bytes", unpack->maxBytes,
                          "Refuse archives that unpack to more bytes (default 64 GiB)");
    unpackCmd->callback([&context, unpack] {
        runGuarded(context, [&] {
            requireLocal("unpack", unpack->a);
            requireLocal("unpack", unpack->b);
            zds::ZdsJobOptions options = jobOptions();
            options.maxUnpackedBytes = unpack->maxBytes;
            const auto r = zds::unpackZds(unpack->a, unpack->b, options);
            return finishJob(r, "unpacked " + counted(r.files, "file") + " into " + unpack->b);
        });
    });

    auto reindex = std::make_shared<JobArgs>();
    CLI::App* reindexCmd = group->add_subcommand(
        "reindex",
        "Rebuild each collection's index (meta/index.bin, or doc_index.jsonl and order.ids) so "
        "it lists the live documents exactly");
    reindexCmd->add_option("path", reindex->a, "Dataset folder or .zds")
        ->transform(inputArgument)
        ->required();
    reindexCmd->add_option("--collection", reindex->collection, "Only this collection");
    reindexCmd->add_flag("--from-lines", reindex->fromLines,
                         "Rebuild meta/index.bin from the lines of data.jsonl alone: documents "
                         "deleted only from the old index come back");
    reindexCmd->callback([&context, reindex] {
        runGuarded(context, [&] {
            requireLocal("reindex", reindex->a);
            zds::ZdsJobOptions options = jobOptions(reindex->collection);
            options.fromLines = reindex->fromLines;
            const auto r = zds::reindexZds(reindex->a, options);
            return finishJob(r, "indexed " + counted(r.documents, "document"));
        });
    });

    auto compact = std::make_shared<JobArgs>();
    CLI::App* compactCmd = group->add_subcommand(
        "compact", "Rewrite data.jsonl with only the live documents, and a new index");
    compactCmd->add_option("path", compact->a, "Dataset folder or .zds")
        ->transform(inputArgument)
        ->required();
    compactCmd->add_option("--collection", compact->collection, "Only this collection");
    compactCmd->add_flag("--deflate", compact->deflate, "Archives: DEFLATE rewritten members");
    compactCmd->callback([&context, compact] {
        runGuarded(context, [&] {
            requireLocal("compact", compact->a);
            const auto r =
                zds::compactZds(compact->a, jobOptions(compact->collection, compact->deflate));
            return finishJob(r, "kept " + counted(r.documents, "document"));
        });
    });

    auto convert = std::make_shared<JobArgs>();
    CLI::App* convertCmd = group->add_subcommand(
        "convert", "Convert collections between docs/ files and data.jsonl + index.bin");
    convertCmd->add_option("path", convert->a, "Dataset folder or .zds")
        ->transform(inputArgument)
        ->required();
    convertCmd->add_option("--to", convert->to, "docs or jsonl")
        ->required()
        ->check(CLI::IsMember({"docs", "jsonl"}));
    convertCmd->add_option("--collection", convert->collection, "Only this collection");
    convertCmd->callback([&context, convert] {
        runGuarded(context, [&] {
            requireLocal("convert", convert->a);
            const auto r = zds::convertZds(
                convert->a, convert->to == "docs" ? zds::ZdsLayout::Docs : zds::ZdsLayout::Jsonl,
                jobOptions(convert->collection));
            return finishJob(
                r, "converted " + counted(r.documents, "document") + " to " + convert->to);
        });
    });
}

}  // namespace

void registerZdsCommands(CLI::App& app, CommandContext& context) {
    defineCommand(
        app, "zds",
        "ZDS datasets: validate, ls, get, search, pack, unpack, reindex, compact, convert", context,
        &fillZdsCommands);
}

}  // namespace strata::cli
