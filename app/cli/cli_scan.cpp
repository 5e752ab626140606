// strata-cli scan PATH|URL [--jobs N] [--shard I/N] [--jsonl] [--only V,...] [--format F]
//                 [--cache-dir DIR] [--report FILE] [--hidden]
// strata-cli scan --merge A.jsonl B.jsonl ... [--jsonl] [--only V,...] [--report FILE]
// Every file and folder format under a folder, HTTP listing or S3 prefix, checked in parallel
// (formats/scan/scanner.h; docs/scan.md). Exit code: 0 nothing damaged or unreadable, 1 some
// entry is, 2 the listing itself failed, a usage error, or interrupted.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <thread>

#include "cli_app.h"
#include "cli_interrupt.h"
#include "command_context.h"
#include "formats/remote/remote_url.h"
#include "formats/scan/scan_cache.h"
#include "formats/scan/scan_merge.h"
#include "input_source.h"
#include "scan_output.h"

namespace strata::cli {

namespace {

struct ScanArgs {
    std::vector<std::string> inputs;
    bool merge = false;
    bool jsonl = false;
    bool hidden = false;
    unsigned jobs = std::max(2u, std::thread::hardware_concurrency());
    std::string shard, only, format, cacheDir, report;
};

std::string lower(std::string_view text) {
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

// --only damaged,unreadable
std::set<scan::Verdict> parseOnly(const std::string& text) {
    std::set<scan::Verdict> verdicts;
    std::size_t start = 0;
    while (start <= text.size() && !text.empty()) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        const std::string name = text.substr(start, comma - start);
        const std::optional<scan::Verdict> verdict = scan::parseVerdict(lower(name));
        if (!verdict) {
            throw std::invalid_argument("--only " + text + ": \"" + name +
                                        "\" is not a verdict (valid, warnings, damaged, "
                                        "unreadable, unknown-format)");
        }
        verdicts.insert(*verdict);
        start = comma + 1;
    }
    return verdicts;
}

// --format zs / ZS / zTensor: a format of the run's registry, by key or name.
FormatId parseFormat(const std::string& text) {
    std::string known;
    for (const FormatHandler* handler : cliFormats().handlers()) {
        const FormatId id = handler->id();
        if (lower(text) == lower(id.key()) || lower(text) == lower(id.name())) {
            return id;
        }
        known += (known.empty() ? "" : ", ") + std::string(id.name());
    }
    throw std::invalid_argument("--format " + text + ": not a format Strata knows (" + known + ")");
}

int exitCodeFor(const scan::ScanTally& tally) {
    return tally.problems() > 0 ? kExitErrors : kExitOk;
}

int runMerge(const ScanArgs& args, ScanPrinting printing) {
    ScanOutput output(std::move(printing), "merged scan outputs", {});
    const std::vector<std::filesystem::path> files(args.inputs.begin(), args.inputs.end());
    const scan::MergeStats stats =
        scan::mergeScanOutputs(files, [&](const scan::ScanResult& r) { output.checked(r); });
    scan::Json extra = {
        {"merged", stats.files}, {"duplicates", stats.duplicates}, {"malformed", stats.malformed}};
    std::string note = std::to_string(stats.files) + " outputs merged";
    if (stats.duplicates > 0 || stats.malformed > 0) {
        note += ", " + std::to_string(stats.duplicates) + " duplicate and " +
                std::to_string(stats.malformed) + " unreadable lines left out";
    }
    output.finish(extra, note);
    return exitCodeFor(output.tally());
}

scan::ScanOptions scanOptions(const ScanArgs& args) {
    scan::ScanOptions options;
    options.jobs = std::max(1u, args.jobs);
    if (!args.shard.empty()) {
        options.shard = scan::parseShardSpec(args.shard);
    }
    if (!args.format.empty()) {
        options.onlyFormat = parseFormat(args.format);
    }
    options.includeHidden = args.hidden;
    options.cancel = &commandInterrupt();
    return options;
}

int runScan(const ScanArgs& args, ScanPrinting printing) {
    if (args.inputs.size() != 1) {
        throw std::invalid_argument(
            "scan takes one PATH or URL (or --merge with JSON Lines "
            "files)");
    }
    const std::string& input = args.inputs.front();
    scan::ScanOptions options = scanOptions(args);
    std::unique_ptr<scan::ScanCache> cache;
    if (!args.cacheDir.empty()) {
        cache = std::make_unique<scan::ScanCache>(args.cacheDir, "strata " STRATA_VERSION);
        options.cache = cache.get();
    }
    scan::Scanner scanner(cliFormats(), options);
    ScanOutput output(std::move(printing), redactCredentials(input),
                      [&scanner] { return scanner.counters(); });
    scan::ScanOutcome outcome;
    {
        const InterruptScope interruptible;
        outcome = scanner.run(inputTree(input), Location::parse(input), output);
    }
    if (cache) {
        cache->flush();
    }
    const scan::ScanCounters counters = scanner.counters();
    const bool interrupted = outcome.outcome == JobOutcome::Cancelled;
    scan::Json extra = {{"root", redactCredentials(input)},
                        {"shard", options.shard ? options.shard->text() : "0/1"},
                        {"skipped", counters.skipped},
                        {"other_shards", counters.otherShards},
                        {"listing_failed", outcome.listingFailed},
                        {"interrupted", interrupted}};
    std::string note = options.shard ? "shard " + options.shard->text() : "";
    note += interrupted ? (note.empty() ? "" : ", ") + std::string("interrupted") : "";
    if (outcome.listingFailed) {
        if (args.jsonl) {
            output.finish(extra, note);  // a machine reading the lines learns it failed
        }
        std::cerr << "strata-cli: " << redactCredentials(outcome.listingError) << '\n';
        return kExitFailure;
    }
    output.finish(extra, note);
    return interrupted ? kExitFailure : exitCodeFor(output.tally());
}

int runScanCommand(const ScanArgs& args) {
    ScanPrinting printing{args.jsonl, parseOnly(args.only), args.report};
    if (args.merge) {
        return runMerge(args, std::move(printing));
    }
    return runScan(args, std::move(printing));
}

void fillScanCommand(CLI::App* command, CommandContext& context) {
    auto args = std::make_shared<ScanArgs>();
    command
        ->add_option("PATH", args->inputs,
                     "Folder, file or URL to scan (JSON Lines files "
                     "with --merge)")
        ->transform(inputArgument)
        ->required();
    command->add_flag("--merge", args->merge,
                      "Join the --jsonl outputs of earlier scans (their shards) into one");
    command->add_option("--jobs", args->jobs, "Entries checked at once (default: cores)")
        ->check(CLI::Range(1u, 1024u));
    command
        ->add_option("--shard", args->shard,
                     "Scan only part I of N (0 <= I < N) of the entries, chosen by a hash "
                     "of their path")
        ->option_text("I/N");
    command->add_flag("--jsonl", args->jsonl,
                      "Print one JSON object per entry, then a summary object");
    command
        ->add_option("--only", args->only,
                     "Print only entries with these verdicts (valid, warnings, damaged, "
                     "unreadable, unknown-format; comma-separated)")
        ->option_text("VERDICT,...");
    command->add_option("--format", args->format, "Check only entries of this format")
        ->option_text("FORMAT");
    command
        ->add_option("--cache-dir", args->cacheDir,
                     "Keep results in DIR: a rerun skips entries that have not changed")
        ->option_text("DIR");
    command->add_option("--report", args->report, "Write a self-contained HTML report to FILE")
        ->option_text("FILE");
    command->add_flag("--hidden", args->hidden, "Also scan names starting with '.'");
    command->callback(
        [&context, args] { runGuarded(context, [&] { return runScanCommand(*args); }); });
}

}  // namespace

void registerScanCommand(CLI::App& app, CommandContext& context) {
    defineCommand(app, "scan",
                  "Check every file and dataset under a folder, URL or S3 prefix in parallel "
                  "(exit 1 when any is damaged)",
                  context, &fillScanCommand);
}

}  // namespace strata::cli
