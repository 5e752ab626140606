// strata-cli zt info|validate|dump|convert|import: zTensor files, built on formats/ztensor.
//   info PATH [--json]                tensors with dtype, shape, format, components
//   validate PATH [--json] [-j N]     every zTensor check; exit 1 when there are errors
//   dump PATH [--jsonl] [--stats] [--values NAME [--limit N]]
//                                     logical contents (the corpus' expected/logical.jsonl keys)
//   convert IN OUT [--encoding keep|raw|zstd] [--level N] [--digest keep|none|crc32c|sha256]
//              [--rename OLD=NEW]... [--drop NAME]... [--set-attr K=V]... [--remove-attr K]...
//   import IN OUT [--encoding raw|zstd] [--level N] [--digest none|crc32c|sha256]
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <csignal>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "cli_interrupt.h"
#include "command_context.h"
#include "formats/common/checksums.h"
#include "formats/common/counted.h"
#include "formats/common/thread_cancel.h"
#include "formats/ztensor/zt_convert.h"
#include "formats/ztensor/zt_decode.h"
#include "formats/ztensor/zt_file.h"
#include "formats/ztensor/zt_import.h"
#include "formats/ztensor/zt_logical.h"
#include "formats/ztensor/zt_nodes.h"
#include "formats/ztensor/zt_validator.h"
#include "input_source.h"
#include "json_output.h"

namespace strata::cli {

namespace {

// Opens a zTensor file whose manifest can be read; throws with the first fatal problem.
std::shared_ptr<const ztensor::ZtFile> openZt(const std::string& path) {
    auto file = ztensor::ZtFile::open(openInput(path));
    const bool known =
        file->layout() == ztensor::ZtLayout::V1_0 || file->layout() == ztensor::ZtLayout::V1_1;
    if (!known || !file->manifestDecoded()) {
        std::string why = "not a readable zTensor file (" +
                          std::string(ztensor::ztLayoutName(file->layout())) + ")";
        for (const auto& d : file->diagnostics()) {
            if (d.severity == Severity::Error) {
                why = d.code + ": " + d.message;
                break;
            }
        }
        throw std::runtime_error(path + ": " + why);
    }
    return file;
}

Json componentJson(const ztensor::ZtComponent& c) {
    Json json = Json::object();
    json["offset"] = c.offset ? Json(*c.offset) : Json(nullptr);
    json["length"] = c.length ? Json(*c.length) : Json(nullptr);
    json["encoding"] = c.encodingName;
    json["digest"] = c.digest ? Json(*c.digest) : Json(nullptr);
    return json;
}

Json tensorJson(const ztensor::ZtFile& file, const ztensor::ZtTensor& t) {
    Json json = Json::object();
    json["name"] = t.name;
    json["dtype"] = t.dtypeName;
    json["shape"] = t.shape;
    json["format"] = t.formatName;
    json["nbytes"] = t.byteSize ? Json(*t.byteSize) : Json(nullptr);
    Json components = Json::object();
    for (std::size_t index : t.components) {
        components[file.components()[index].role] = componentJson(file.components()[index]);
    }
    json["components"] = components;
    return json;
}

int runInfo(const std::string& path, bool json) {
    const auto file = openZt(path);
    if (json) {
        Json out = Json::object();
        out["path"] = path;
        out["facts"] = factsJson(ztensor::ztFacts(*file));
        Json attributes = Json::object();
        for (const auto& [key, value] : file->attributes()) {
            attributes[key] = value;
        }
        out["attributes"] = attributes;
        Json tensors = Json::array();
        for (const auto& t : file->tensors()) {
            tensors.push_back(tensorJson(*file, t));
        }
        out["tensors"] = tensors;
        printJson(out);
        return kExitOk;
    }
    for (const auto& [key, value] : ztensor::ztFacts(*file)) {
        std::cout << key << ": " << value << '\n';
    }
    for (const auto& t : file->tensors()) {
        std::uint64_t stored = 0;
        std::string encodings;
        for (std::size_t index : t.components) {
            const ztensor::ZtComponent& c = file->components()[index];
            stored += c.length.value_or(0);
            if (encodings.find(c.encodingName) == std::string::npos) {
                encodings += (encodings.empty() ? "" : "+") + c.encodingName;
            }
        }
        std::cout << "tensor " << t.name << ": " << t.dtypeName << ' '
                  << ztensor::ztShapeText(t.shape) << ' ' << t.formatName << ' '
                  << (encodings.empty() ? "-" : encodings) << " stored " << stored << " logical "
                  << (t.byteSize ? std::to_string(*t.byteSize) : std::string("?")) << '\n';
    }
    return kExitOk;
}

// "ERROR ZT-DIGEST file.zt@64+24: message [node]"
std::string diagnosticLine(const Diagnostic& d) {
    std::string severity(severityName(d.severity));
    std::transform(severity.begin(), severity.end(), severity.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    std::string line = severity + ' ' + d.code + ' ' + d.fileName();
    if (!d.regions.empty() && d.regions.front().valid()) {
        line += '@' + std::to_string(d.regions.front().offset) + '+' +
                std::to_string(d.regions.front().length);
    }
    line += ": " + d.message;
    if (!d.nodePath.empty()) {
        line += " [" + d.nodePath + ']';
    }
    return line;
}

int runValidate(const std::string& path, bool json, unsigned threads) {
    auto file = ztensor::ZtFile::open(openInput(path));
    CollectingSink sink;
    ValidationOptions options;
    options.threads = threads;
    options.cancel = &commandInterrupt();
    const JobOutcome outcome = [&] {
        const InterruptScope interruptible;
        return ztensor::ZtValidator(file).run(sink, options);
    }();
    const std::size_t errors = sink.countOf(Severity::Error);
    if (json) {
        Json out = Json::object();
        out["format"] = "zTensor";
        out["path"] = path;
        Json diagnostics = Json::array();
        for (const auto& d : sink.diagnostics()) {
            diagnostics.push_back(diagnosticJson(d));
        }
        out["diagnostics"] = diagnostics;
        out["summary"] = Json{{"errors", errors},
                              {"warnings", sink.countOf(Severity::Warning)},
                              {"completed", outcome == JobOutcome::Completed}};
        printJson(out);
    } else {
        for (const auto& d : sink.diagnostics()) {
            std::cout << diagnosticLine(d) << '\n';
        }
        std::cout << counted(errors, "error") << ", "
                  << counted(sink.countOf(Severity::Warning), "warning") << '\n';
    }
    if (outcome == JobOutcome::Cancelled) {
        return kExitFailure;
    }
    return errors > 0 ? kExitErrors : kExitOk;
}

struct DumpRequest {
    std::string path;
    bool jsonl = false;
    bool stats = false;
    std::string values;
    std::uint64_t limit = 100;
};

Json statsJson(const ztensor::ZtStatsResult& result) {
    if (!result.ok) {
        return Json{{"error", result.error}};
    }
    const ztensor::ZtStats& s = result.stats;
    auto number = [](const std::optional<double>& v) { return v ? Json(*v) : Json(nullptr); };
    return Json{{"count", s.count},       {"zeros", s.zeros},       {"nan", s.nan},
                {"inf", s.inf},           {"min", number(s.min)},   {"max", number(s.max)},
                {"mean", number(s.mean)}, {"std", number(s.stddev)}};
}

// One line of `zt dump --jsonl`: the keys of the corpus' expected/logical.jsonl.
Json logicalJson(const std::string& fileName, const ztensor::ZtFile& file,
                 const ztensor::ZtTensor& t, bool& failed) {
    Json json = Json::object();
    json["file"] = fileName;
    json["name"] = t.name;
    json["dtype"] = t.dtypeName;
    json["shape"] = t.shape;
    json["format"] = t.formatName;
    Json stored = Json::object();
    for (std::size_t index : t.components) {
        const ztensor::ZtComponent& c = file.components()[index];
        stored[c.role] = Json{{"offset", c.offset ? Json(*c.offset) : Json(nullptr)},
                              {"length", c.length ? Json(*c.length) : Json(nullptr)}};
    }
    json["stored_components"] = stored;
    const ztensor::ZtTensorSummary summary =
        ztensor::ztSummarizeTensor(file, t, &commandInterrupt());
    if (!summary.ok) {
        json["error"] = summary.error;
        failed = true;
        return json;
    }
    if (t.format == ztensor::ZtTensorFormat::Dense) {
        json["nbytes"] = summary.nbytes;
        json["sha256"] = toHex(summary.sha256);
    } else {
        Json sizes = Json::object();
        Json hashes = Json::object();
        for (const auto& c : summary.components) {
            sizes[c.role] = c.nbytes;
            hashes[c.role] = toHex(c.sha256);
        }
        json["components_nbytes"] = sizes;
        json["components_sha256"] = hashes;
    }
    return json;
}

std::string valueText(ztensor::ZtDType dtype, const std::uint8_t* bytes) {
    const double value = ztensor::ztElementValue(dtype, bytes);
    std::ostringstream out;
    if (ztensor::ztDTypeIsFloat(dtype)) {
        out << std::setprecision(9) << value;
    } else if (dtype == ztensor::ZtDType::Int64) {
        std::int64_t v = 0;
        for (int i = 7; i >= 0; --i) {
            v = static_cast<std::int64_t>(static_cast<std::uint64_t>(v) << 8 | bytes[i]);
        }
        out << v;
    } else if (dtype == ztensor::ZtDType::UInt64) {
        std::uint64_t v = 0;
        for (int i = 7; i >= 0; --i) {
            v = v << 8 | bytes[i];
        }
        out << v;
    } else if (dtype == ztensor::ZtDType::Bool) {
        out << (value != 0 ? "true" : "false");
    } else {
        out << static_cast<std::int64_t>(value);
    }
    return out.str();
}

// The first `limit` logical elements of a tensor, one per line with its row-major index.
int dumpValues(const ztensor::ZtFile& file, const std::string& name, std::uint64_t limit) {
    const ztensor::ZtTensor* t = file.findTensor(name);
    if (t == nullptr) {
        throw std::runtime_error("no tensor '" + name + "'");
    }
    if (!t->dtype) {
        throw std::runtime_error("tensor '" + name + "' has an unknown dtype");
    }
    const unsigned size = ztensor::ztDTypeSize(*t->dtype);
    if (t->format != ztensor::ZtTensorFormat::Dense) {
        const ztensor::ZtBytes bytes = ztensor::ztTensorBytes(file, *t);
        if (!bytes.ok()) {
            throw std::runtime_error("tensor '" + name + "': " + bytes.error);
        }
        for (std::uint64_t i = 0; i < limit && (i + 1) * size <= bytes.view.size(); ++i) {
            std::cout << i << '\t' << valueText(*t->dtype, bytes.view.data() + i * size) << '\n';
        }
        return kExitOk;
    }
    const ztensor::ZtComponent* data = file.component(*t, "data");
    if (data == nullptr) {
        throw std::runtime_error("tensor '" + name + "' has no data component");
    }
    std::uint64_t index = 0;
    // Stops reading once `limit` elements are out (over a URL: no further bytes fetched) or on
    // Ctrl-C.
    CancelToken stop;
    const ztensor::ZtReadResult read = ztensor::ztReadComponent(
        file, *data,
        [&](std::span<const std::uint8_t> piece) {
            for (std::size_t at = 0; at + size <= piece.size() && index < limit; at += size) {
                std::cout << index++ << '\t' << valueText(*t->dtype, piece.data() + at) << '\n';
            }
            if (index >= limit || commandInterrupt().cancelled()) {
                stop.cancel();
            }
        },
        size, &stop);
    if (!read.ok && !(read.cancelled && index >= limit)) {
        throw std::runtime_error("tensor '" + name + "': " + read.error);
    }
    return kExitOk;
}

int runDump(const DumpRequest& request) {
    const auto file = openZt(request.path);
    if (!request.values.empty()) {
        return dumpValues(*file, request.values, request.limit);
    }
    const std::string fileName = std::filesystem::path(request.path).filename().string();
    bool failed = false;
    const InterruptScope interruptible;
    if (file->tensors().empty() && request.jsonl) {
        std::cout << Json{{"file", fileName}, {"name", nullptr}, {"note", "no tensors"}}.dump()
                  << '\n';
    }
    // Sorted by name, as the corpus lists them.
    std::vector<const ztensor::ZtTensor*> tensors;
    for (const auto& t : file->tensors()) {
        tensors.push_back(&t);
    }
    std::sort(
        tensors.begin(), tensors.end(),
        [](const ztensor::ZtTensor* a, const ztensor::ZtTensor* b) { return a->name < b->name; });
    for (const ztensor::ZtTensor* t : tensors) {
        Json line = logicalJson(fileName, *file, *t, failed);
        if (request.stats) {
            line["stats"] = statsJson(ztensor::ztTensorStats(*file, *t, &commandInterrupt()));
        }
        if (request.jsonl) {
            std::cout << line.dump(-1, ' ', false, Json::error_handler_t::replace) << '\n';
            continue;
        }
        std::cout << t->name << '\t' << t->dtypeName << '\t' << ztensor::ztShapeText(t->shape)
                  << '\t' << t->formatName << '\t';
        if (line.contains("error")) {
            std::cout << "error: " << line["error"].get<std::string>();
        } else if (line.contains("sha256")) {
            std::cout << line["nbytes"] << " bytes sha256 " << line["sha256"].get<std::string>();
        } else {
            for (const auto& [role, hash] : line["components_sha256"].items()) {
                std::cout << role << ' ' << line["components_nbytes"][role] << " bytes sha256 "
                          << hash.get<std::string>() << ' ';
            }
        }
        if (request.stats) {
            std::cout << "\tstats " << line["stats"].dump();
        }
        std::cout << '\n';
    }
    if (commandInterrupt().cancelled()) {
        return kExitFailure;
    }
    return failed ? kExitErrors : kExitOk;
}

std::pair<std::string, std::string> splitPair(const std::string& text, const char* what) {
    const auto eq = text.find('=');
    if (eq == std::string::npos || eq == 0) {
        throw CLI::ValidationError(std::string(what) + " needs KEY=VALUE, got '" + text + "'");
    }
    return {text.substr(0, eq), text.substr(eq + 1)};
}

struct ConvertRequest {
    std::string in, out;
    std::string encoding = "keep";
    std::optional<int> level;
    std::string digest = "keep";
    unsigned threads = 0;
    std::vector<std::string> renames, drops, setAttributes, removeAttributes;
    bool noVerify = false;
    bool recompress = false;
    bool quiet = false;
};

ztensor::ZtDigestChoice digestChoice(const std::string& name) {
    static const std::map<std::string, ztensor::ZtDigestChoice> kChoices = {
        {"keep", ztensor::ZtDigestChoice::Keep},
        {"none", ztensor::ZtDigestChoice::None},
        {"crc32c", ztensor::ZtDigestChoice::Crc32c},
        {"sha256", ztensor::ZtDigestChoice::Sha256}};
    return kChoices.at(name);
}

void applyAttributeEdits(ztensor::ZtConvertPlan& plan, const ConvertRequest& request) {
    for (const auto& key : request.removeAttributes) {
        const auto before = plan.attributes.size();
        std::erase_if(plan.attributes, [&](const auto& kv) { return kv.first == key; });
        if (plan.attributes.size() == before) {
            throw std::runtime_error("no attribute '" + key + "'");
        }
    }
    for (const auto& text : request.setAttributes) {
        const auto pair = splitPair(text, "--set-attr");
        const auto& key = pair.first;
        const auto& value = pair.second;
        auto it = std::find_if(plan.attributes.begin(), plan.attributes.end(),
                               [&key](const auto& kv) { return kv.first == key; });
        if (it != plan.attributes.end()) {
            it->second = value;
        } else {
            plan.attributes.emplace_back(key, value);
        }
    }
}

int runConvert(const ConvertRequest& request) {
    const auto file = openZt(request.in);
    ztensor::ZtConvertPlan plan = ztensor::ztPlanFor(*file);
    for (const auto& name : request.drops) {
        if (!ztensor::ztRemoveTensor(plan, name)) {
            throw std::runtime_error("no tensor '" + name + "' to drop");
        }
    }
    for (const auto& text : request.renames) {
        auto [from, to] = splitPair(text, "--rename");
        if (!ztensor::ztRenameTensor(plan, from, to)) {
            throw std::runtime_error("no tensor '" + from + "' to rename");
        }
    }
    applyAttributeEdits(plan, request);
    if (request.encoding != "keep") {
        ztensor::ztSetEncoding(plan, request.encoding == "zstd" ? ztensor::ZtEncoding::Zstd
                                                                : ztensor::ZtEncoding::Raw);
    }
    ztensor::ztSetDigest(plan, digestChoice(request.digest));
    if (request.level) {
        plan.zstdLevel = *request.level;
    }
    plan.recompress = request.recompress || request.level.has_value();
    plan.verifyDigests = !request.noVerify;
    ztensor::ZtConvertOptions options;
    options.threads = request.threads;
    options.cancel = &commandInterrupt();
    const ztensor::ZtConvertResult result = [&] {
        const InterruptScope interruptible;
        return ztensor::ztConvertFile(*file, plan, request.out, options);
    }();
    if (result.cancelled) {
        std::cerr << "strata-cli: interrupted; " << request.out << " was not written\n";
        return kExitFailure;
    }
    if (!request.quiet) {
        std::cout << "wrote " << request.out << ": " << counted(result.tensors, "tensor") << ", "
                  << counted(result.components, "component") << ", "
                  << counted(result.bytesOut, "byte") << '\n';
    }
    return kExitOk;
}

struct ImportRequest {
    std::string in, out;
    std::string encoding = "raw";
    int level = 3;
    std::string digest = "none";
    unsigned threads = 0;
    bool quiet = false;
};

int runImport(const ImportRequest& request) {
    const ztensor::ZtImportSet set = ztensor::ztReadImport(request.in);
    ztensor::ZtImportOptions options;
    options.encoding =
        request.encoding == "zstd" ? ztensor::ZtEncoding::Zstd : ztensor::ZtEncoding::Raw;
    options.zstdLevel = request.level;
    if (request.digest == "crc32c") {
        options.digest = ztensor::ZtDigestAlgorithm::Crc32c;
    } else if (request.digest == "sha256") {
        options.digest = ztensor::ZtDigestAlgorithm::Sha256;
    }
    options.threads = request.threads;
    options.cancel = &commandInterrupt();
    for (const auto& note : set.notes) {
        std::cerr << "strata-cli: " << request.in << ": " << note << '\n';
    }
    const ztensor::ZtImportResult result = [&] {
        const InterruptScope interruptible;
        return ztensor::ztWriteImport(set, request.out, options);
    }();
    if (result.cancelled) {
        std::cerr << "strata-cli: interrupted; " << request.out << " was not written\n";
        return kExitFailure;
    }
    if (!request.quiet) {
        std::cout << "imported " << counted(result.tensors, "tensor") << " from " << set.kind
                  << " into " << request.out << " (" << counted(result.bytesOut, "byte") << ")\n";
    }
    return kExitOk;
}

// Run when the command line names the command (defineCommand).
void fillZtensorCommands(CLI::App* group, CommandContext& context) {
    group->require_subcommand(1);

    auto info = std::make_shared<std::pair<std::string, bool>>();
    CLI::App* infoCmd = group->add_subcommand("info", "Header facts and every tensor");
    infoCmd->add_flag("--json", info->second, "JSON output");
    infoCmd->add_option("file", info->first, "zTensor file")->transform(inputArgument)->required();
    infoCmd->callback([&context, info] {
        runGuarded(context, [&] { return runInfo(info->first, info->second); });
    });

    struct ValidateArgs {
        std::string path;
        bool json = false;
        unsigned threads = 0;
    };
    auto validate = std::make_shared<ValidateArgs>();
    CLI::App* validateCmd =
        group->add_subcommand("validate", "Every zTensor check; exit code 1 on errors");
    validateCmd->add_flag("--json", validate->json, "JSON output");
    validateCmd->add_option("-j,--threads", validate->threads, "Threads (0 = one per core)");
    validateCmd->add_option("file", validate->path, "zTensor file")
        ->transform(inputArgument)
        ->required();
    validateCmd->callback([&context, validate] {
        runGuarded(context,
                   [&] { return runValidate(validate->path, validate->json, validate->threads); });
    });

    auto dump = std::make_shared<DumpRequest>();
    CLI::App* dumpCmd = group->add_subcommand(
        "dump", "Logical contents: size and SHA-256 of every tensor, or one tensor's values");
    dumpCmd->add_flag("--jsonl", dump->jsonl,
                      "One JSON object per tensor (keys of the corpus' logical.jsonl)");
    dumpCmd->add_flag("--stats", dump->stats, "Add min, max, mean, std, zeros, NaN, Inf");
    dumpCmd->add_option("--values", dump->values, "Print this tensor's elements instead");
    dumpCmd->add_option("--limit", dump->limit, "At most this many elements (with --values)");
    dumpCmd->add_option("file", dump->path, "zTensor file")->transform(inputArgument)->required();
    dumpCmd->callback([&context, dump] { runGuarded(context, [&] { return runDump(*dump); }); });

    auto convert = std::make_shared<ConvertRequest>();
    CLI::App* convertCmd = group->add_subcommand(
        "convert",
        "Write a new zTensor file: re-encode, refresh digests, rename, drop, attributes");
    convertCmd->add_option("in", convert->in, "Input zTensor file")->required();
    convertCmd->add_option("out", convert->out, "Output file (replaced atomically)")->required();
    convertCmd->add_option("--encoding", convert->encoding, "keep, raw or zstd")
        ->check(CLI::IsMember({"keep", "raw", "zstd"}));
    convertCmd->add_option("--level", convert->level,
                           "zstd level (also re-encodes zstd components)");
    convertCmd->add_option("--digest", convert->digest, "keep, none, crc32c or sha256")
        ->check(CLI::IsMember({"keep", "none", "crc32c", "sha256"}));
    convertCmd->add_option("-j,--threads", convert->threads, "Threads (0 = one per core)");
    convertCmd->add_option("--rename", convert->renames, "OLD=NEW: rename a tensor");
    convertCmd->add_option("--drop", convert->drops, "Leave this tensor out");
    convertCmd->add_option("--set-attr", convert->setAttributes, "KEY=VALUE: set an attribute");
    convertCmd->add_option("--remove-attr", convert->removeAttributes, "Remove an attribute");
    convertCmd->add_flag("--recompress", convert->recompress,
                         "Encode zstd components again instead of copying their frames");
    convertCmd->add_flag("--no-verify", convert->noVerify,
                         "Do not check the input's digests before rewriting");
    convertCmd->add_flag("-q,--quiet", convert->quiet, "No summary line");
    convertCmd->callback(
        [&context, convert] { runGuarded(context, [&] { return runConvert(*convert); }); });

    auto import = std::make_shared<ImportRequest>();
    CLI::App* importCmd =
        group->add_subcommand("import", "A NumPy .npy/.npz or safetensors file as a zTensor file");
    importCmd->add_option("in", import->in, "Input .npy, .npz or .safetensors file")->required();
    importCmd->add_option("out", import->out, "Output zTensor file")->required();
    importCmd->add_option("--encoding", import->encoding, "raw or zstd")
        ->check(CLI::IsMember({"raw", "zstd"}));
    importCmd->add_option("--level", import->level, "zstd level");
    importCmd->add_option("--digest", import->digest, "none, crc32c or sha256")
        ->check(CLI::IsMember({"none", "crc32c", "sha256"}));
    importCmd->add_option("-j,--threads", import->threads, "Threads (0 = one per core)");
    importCmd->add_flag("-q,--quiet", import->quiet, "No summary line");
    importCmd->callback(
        [&context, import] { runGuarded(context, [&] { return runImport(*import); }); });
}

}  // namespace

void registerZtensorCommands(CLI::App& app, CommandContext& context) {
    defineCommand(app, "zt", "zTensor files: info, validate, dump, convert, import", context,
                  &fillZtensorCommands);
}

}  // namespace strata::cli
