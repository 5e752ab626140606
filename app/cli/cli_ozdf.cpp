// strata-cli ozdf dump|validate|fmt|export|import: OZDF documents and corpora, built on
// formats/ozdf (reader, validator, canonical writer, safe save, JSONL interchange).
#include <CLI/CLI.hpp>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>

#include "command_context.h"
#include "formats/common/atomic_file.h"
#include "formats/common/counted.h"
#include "formats/common/location.h"
#include "formats/ozdf/ozdf_json.h"
#include "formats/ozdf/ozdf_parser.h"
#include "formats/ozdf/ozdf_save.h"
#include "formats/ozdf/ozdf_validator.h"
#include "input_source.h"
#include "json_output.h"

namespace strata::cli {

namespace {

namespace fs = std::filesystem;

// A local path, or a URL read through the run's remote session (see input_source.h).
struct Where {
    ozdf::TreeReader reader;
    fs::path path;
};

Where whereIs(const std::string& text) {
    if (!isUrl(text)) {
        return {ozdf::TreeReader(), text};
    }
    return {ozdf::TreeReader(inputTree(text)), Location::parse(text).text()};
}

// Commands that write refuse URLs: writes stay local.
void refuseUrl(const std::string& text, std::string_view what) {
    if (isUrl(text)) {
        throw std::runtime_error(text + ": " + std::string(what) +
                                 " writes files and cannot write to a URL; download the document "
                                 "or corpus and run it on the local copy");
    }
}

bool isCorpusFolder(const Where& where) {
    return where.reader.isDirectory(where.path) && !where.reader.opensAsDocument(where.path);
}

// A document or a corpus, read once; the corpus form holds a single document for a document.
struct Input {
    bool corpus = false;
    std::shared_ptr<ozdf::Corpus> documents = std::make_shared<ozdf::Corpus>();

    bool accepted() const { return documents->accepted(); }
};

Input readInput(const std::string& text) {
    const Where where = whereIs(text);
    const fs::path& path = where.path;
    Input input;
    if (isCorpusFolder(where)) {
        input.corpus = true;
        *input.documents = where.reader.readCorpus(path);
    } else {
        input.documents->path = path.parent_path();
        input.documents->remote = where.reader.remote();
        input.documents->documents.push_back(where.reader.readDocument(path));
    }
    return input;
}

int runDump(const std::string& path) {
    bool accepted = false;
    const Where where = whereIs(path);
    const ozdf::OrderedJson json = ozdf::dumpJson(where.reader, where.path, &accepted);
    std::cout << json.dump(2, ' ', false, ozdf::OrderedJson::error_handler_t::replace) << '\n';
    return accepted ? kExitOk : kExitErrors;
}

std::string upper(std::string_view text) {
    std::string out(text);
    for (char& c : out) {
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    return out;
}

// "ERROR OZDF-HEADER file.ozdf@12+5: message"
std::string diagnosticLine(const Diagnostic& d) {
    std::string line = upper(severityName(d.severity)) + ' ' + d.code + ' ' + d.fileName();
    if (!d.regions.empty() && d.regions.front().valid()) {
        line += '@' + std::to_string(d.regions.front().offset) + '+' +
                std::to_string(d.regions.front().length);
    }
    return line + ": " + d.message;
}

int runValidate(const std::string& path, bool json) {
    const Input input = readInput(path);
    std::unique_ptr<Validator> validator =
        input.corpus ? ozdf::makeOzdfCorpusValidator(input.documents)
                     : ozdf::makeOzdfValidator(std::make_shared<const ozdf::Document>(
                           input.documents->documents.front()));
    CollectingSink sink;
    validator->run(sink, ValidationOptions{});
    std::size_t errors = 0;
    std::size_t warnings = 0;
    Json list = Json::array();
    for (const Diagnostic& d : sink.diagnostics()) {
        errors += d.severity == Severity::Error ? 1 : 0;
        warnings += d.severity == Severity::Warning ? 1 : 0;
        if (json) {
            list.push_back(diagnosticJson(d));
        } else {
            std::cout << diagnosticLine(d) << '\n';
        }
    }
    if (json) {
        Json out = Json::object();
        out["path"] = path;
        out["accepted"] = input.accepted();
        out["summary"] = Json{{"errors", errors}, {"warnings", warnings}};
        out["diagnostics"] = std::move(list);
        printJson(out);
    } else {
        std::cout << counted(errors, "error") << ", " << counted(warnings, "warning") << "; "
                  << (input.accepted() ? "the reference reads it" : "the reference refuses it")
                  << '\n';
    }
    return errors == 0 ? kExitOk : kExitErrors;
}

int runFmt(const std::string& path, bool check) {
    refuseUrl(path, "ozdf fmt");
    const Input input = readInput(path);
    if (!input.accepted()) {
        std::cerr << "strata-cli: " << path
                  << ": has errors; not rewritten (see `strata-cli ozdf validate`)\n";
        return kExitErrors;
    }
    ozdf::SaveOptions options;
    options.dryRun = check;
    const ozdf::Corpus& corpus = *input.documents;
    ozdf::SaveReport report;
    if (input.corpus) {
        report = ozdf::saveCorpusInPlace(corpus, path, ozdf::footprintsOf(corpus), options);
    } else {
        const ozdf::DocumentFootprint before = ozdf::footprintOf(corpus.documents.front());
        report = ozdf::saveDocumentInPlace(corpus.documents.front(), fs::path(path).parent_path(),
                                           &before, options);
    }
    const char* verb = check ? "would rewrite " : "rewrote ";
    for (const fs::path& file : report.written) {
        std::cout << verb << file.string() << '\n';
    }
    for (const fs::path& file : report.removed) {
        std::cout << (check ? "would remove " : "removed ") << file.string() << '\n';
    }
    std::cout << counted(report.written.size(), "file") << " "
              << (check ? "not canonical" : "rewritten") << ", " << report.unchanged
              << " already canonical\n";
    return check && report.changed() ? kExitErrors : kExitOk;
}

int runExport(const std::string& path, const std::string& output) {
    refuseUrl(output, "ozdf export -o");
    const Input input = readInput(path);
    if (!input.accepted()) {
        std::cerr << "strata-cli: " << path << ": has errors; exporting what Strata reads\n";
    }
    if (output == "-") {
        ozdf::exportJsonl(*input.documents, std::cout);
        return input.accepted() ? kExitOk : kExitErrors;
    }
    std::ostringstream text;
    ozdf::exportJsonl(*input.documents, text);
    AtomicFile file(output);
    file.write(text.view());
    file.commit();
    std::cerr << counted(input.documents->documents.size(), "document") << " exported to " << output
              << '\n';
    return input.accepted() ? kExitOk : kExitErrors;
}

int runImport(const std::string& jsonl, const std::string& folder) {
    refuseUrl(folder, "ozdf import");
    if (isUrl(jsonl)) {
        throw std::runtime_error(jsonl + ": ozdf import reads a local JSONL file");
    }
    std::ifstream in(jsonl, std::ios::binary);
    if (!in) {
        throw std::runtime_error(jsonl + ": cannot open");
    }
    const ozdf::Corpus corpus = ozdf::importJsonl(in);
    const ozdf::SaveReport report = ozdf::saveCorpusToFolder(corpus, folder);
    std::cout << counted(corpus.documents.size(), "document") << ", "
              << counted(report.written.size(), "file") << " written to " << folder << '\n';
    return kExitOk;
}

// Run when the command line names the command (defineCommand).
void fillOzdfCommands(CLI::App* group, CommandContext& context) {
    group->require_subcommand(1);

    auto path = std::make_shared<std::string>();
    auto json = std::make_shared<bool>(false);
    auto check = std::make_shared<bool>(false);
    auto output = std::make_shared<std::string>("-");
    auto folder = std::make_shared<std::string>();

    CLI::App* dump = group->add_subcommand(
        "dump", "Print what the reference reads from a document, directory document or corpus");
    dump->add_option("PATH", *path, "document, directory document or corpus folder")
        ->transform(inputArgument)
        ->required();
    dump->callback([&context, path] { runGuarded(context, [&] { return runDump(*path); }); });

    CLI::App* validate =
        group->add_subcommand("validate", "Report every problem the reference would refuse");
    validate->add_option("PATH", *path, "document, directory document or corpus folder")
        ->transform(inputArgument)
        ->required();
    validate->add_flag("--json", *json, "print one JSON object");
    validate->callback(
        [&context, path, json] { runGuarded(context, [&] { return runValidate(*path, *json); }); });

    CLI::App* fmt = group->add_subcommand(
        "fmt", "Rewrite in the canonical form (each file replaced atomically)");
    fmt->add_option("PATH", *path, "document, directory document or corpus folder")
        ->transform(inputArgument)
        ->required();
    fmt->add_flag("--check", *check, "only list the files that are not canonical (exit 1)");
    fmt->callback(
        [&context, path, check] { runGuarded(context, [&] { return runFmt(*path, *check); }); });

    CLI::App* exportCommand =
        group->add_subcommand("export", "Write a document or corpus as JSONL, a document a line");
    exportCommand->add_option("PATH", *path, "document, directory document or corpus folder")
        ->transform(inputArgument)
        ->required();
    exportCommand->add_option("-o,--output", *output, "JSONL file (default: stdout)");
    exportCommand->callback([&context, path, output] {
        runGuarded(context, [&] { return runExport(*path, *output); });
    });

    CLI::App* importCommand =
        group->add_subcommand("import", "Write a new corpus folder from JSONL");
    importCommand->add_option("JSONL", *path, "JSONL file from `ozdf export`")->required();
    importCommand->add_option("FOLDER", *folder, "new corpus folder (must not exist or be empty)")
        ->required();
    importCommand->callback([&context, path, folder] {
        runGuarded(context, [&] { return runImport(*path, *folder); });
    });
}

}  // namespace

void registerOzdfCommands(CLI::App& app, CommandContext& context) {
    defineCommand(app, "ozdf", "OZDF documents and corpora", context, &fillOzdfCommands);
}

}  // namespace strata::cli
