// strata-cli diff A B [--json] [--summary] [--limit N] [--strict] [--quick]: a structural
// comparison of two files or folders of one format (formats/common/diff.h). Exit code like
// diff(1): 0 the same content (differences of storage alone do not count unless --strict),
// 1 they differ, 2 either side cannot be read or compared.
#include <CLI/CLI.hpp>
#include <csignal>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "cli_app.h"
#include "cli_interrupt.h"
#include "command_context.h"
#include "formats/common/thread_cancel.h"
#include "formats/registry/format_registry.h"
#include "input_source.h"
#include "json_output.h"
#include "terminal_progress.h"

namespace strata::cli {

namespace {

struct DiffArgs {
    std::string a, b;
    bool json = false;
    bool summaryOnly = false;
    bool strict = false;
    bool quick = false;
    std::uint64_t limit = 0;
    std::size_t answerK = 10;
    std::size_t answerQueries = 100;
    std::optional<std::size_t> nprobe;
};

Json sideJson(const DiffSide& side) {
    Json out = Json::object();
    out["value"] = side.value;
    if (side.region.valid()) {
        out["file"] = side.region.source->name();
        out["offset"] = side.region.offset;
        out["length"] = side.region.length;
    } else {
        out["file"] = nullptr;
        out["offset"] = nullptr;
        out["length"] = nullptr;
    }
    return out;
}

Json differenceJson(const Difference& d) {
    Json out = Json::object();
    out["kind"] = std::string(diffKindName(d.kind));
    out["path"] = d.path;
    out["description"] = d.description;
    out["a"] = sideJson(d.a);
    out["b"] = sideJson(d.b);
    Json fields = Json::array();
    for (const DiffField& f : d.fields) {
        fields.push_back({{"path", f.path},
                          {"kind", std::string(diffKindName(f.kind))},
                          {"a", f.a},
                          {"b", f.b}});
    }
    out["fields"] = std::move(fields);
    return out;
}

Json summaryJson(const DiffSummary& s) {
    return {{"added", s.added},
            {"removed", s.removed},
            {"changed", s.changed},
            {"moved", s.moved},
            {"encoding", s.encoding},
            {"compared", s.compared},
            {"content_equal", s.contentEqual()},
            {"limited", s.limited}};
}

void printDifference(const Difference& d) {
    std::string kind(diffKindName(d.kind));
    kind.resize(9, ' ');
    std::cout << kind << (d.path.empty() ? std::string(".") : d.path) << ": " << d.description
              << '\n';
    for (const DiffField& f : d.fields) {
        std::cout << "           " << f.path << ": "
                  << (f.kind == DiffKind::Added     ? "(absent) → " + f.b
                      : f.kind == DiffKind::Removed ? f.a + " → (absent)"
                                                    : f.a + " → " + f.b)
                  << '\n';
    }
}

class CliDiffSink final : public DiffSink {
public:
    CliDiffSink(const DiffArgs& args, Json& list, const ProgressCallback& progress)
        : args_(args), list_(list), progress_(progress) {}
    bool add(Difference d) override {
        if (args_.limit != 0 && seen_ >= args_.limit) {
            limited_ = true;
            return false;
        }
        ++seen_;
        if (args_.summaryOnly) {
            return true;
        }
        if (args_.json) {
            list_.push_back(differenceJson(d));
        } else {
            clearTerminalProgress(progress_);
            printDifference(d);
        }
        return true;
    }
    bool limited() const { return limited_; }

private:
    const DiffArgs& args_;
    Json& list_;
    const ProgressCallback& progress_;
    std::uint64_t seen_ = 0;
    bool limited_ = false;
};

int runDiff(const DiffArgs& args) {
    // Either side may be an http(s):// or s3:// URL of a single file.
    const auto a = openDocument(args.a);
    const auto b = openDocument(args.b);
    const auto differ = cliFormats().makeDiffer(*a, *b);
    DiffOptions options;
    options.cancel = &commandInterrupt();
    options.progress = terminalProgress();
    options.quick = args.quick;
    options.answerK = args.answerK;
    options.answerQueries = args.answerQueries;
    options.answerNprobe = args.nprobe;
    Json list = Json::array();
    CliDiffSink sink(args, list, options.progress);
    const JobOutcome outcome = [&] {
        const InterruptScope interruptible;
        return differ->run(sink, options);
    }();
    clearTerminalProgress(options.progress);
    DiffSummary summary = differ->summary();
    summary.limited = sink.limited();
    if (args.json) {
        Json out = Json::object();
        out["schema"] = "strata.diff/1";
        out["format"] = std::string(formatName(a->format));
        out["a"] = args.a;
        out["b"] = args.b;
        out["summary"] = summaryJson(summary);
        if (!args.summaryOnly) {
            out["differences"] = std::move(list);
        }
        if (outcome == JobOutcome::Cancelled) {
            out["interrupted"] = true;
        }
        printJson(out);
    } else {
        std::cout << formatName(a->format) << ' ' << args.a << " and " << args.b << ": "
                  << summary.added << " added, " << summary.removed << " removed, "
                  << summary.changed << " changed, " << summary.moved << " moved, "
                  << summary.encoding << " stored differently (" << summary.compared << " compared)"
                  << (summary.limited ? ", stopped at the limit" : "")
                  << (outcome == JobOutcome::Cancelled ? " (interrupted)" : "") << '\n';
    }
    if (outcome == JobOutcome::Cancelled) {
        return kExitFailure;
    }
    const bool same = args.strict ? summary.total() == 0 : summary.contentEqual();
    return same ? kExitOk : kExitErrors;
}

// Run when the command line names the command (defineCommand).
void fillDiffCommand(CLI::App* command, CommandContext& context) {
    auto args = std::make_shared<DiffArgs>();
    command->add_option("A", args->a, "First file or folder")->transform(inputArgument)->required();
    command->add_option("B", args->b, "Second file or folder")
        ->transform(inputArgument)
        ->required();
    command->add_flag("--json", args->json, "Print one JSON object (schema strata.diff/1)");
    command->add_flag("--summary", args->summaryOnly, "Only the counts");
    command->add_option("--limit", args->limit, "Stop after this many differences");
    command->add_flag("--strict", args->strict,
                      "Differences of storage alone (codec, layout, order) also make exit 1");
    command->add_flag("--quick", args->quick,
                      "Compare digests instead of values where both sides carry them");
    command
        ->add_option("--top-k", args->answerK,
                     "Shardlake: index versions are compared by their top K answers")
        ->check(CLI::Range(std::size_t{1}, std::size_t{10000}));
    command->add_option("--queries", args->answerQueries,
                        "Shardlake: vectors of A's dataset asked of both indexes (0: skip)");
    command->add_option("--nprobe", args->nprobe,
                        "Shardlake: shards probed per query (default: A's manifest default)");
    command->callback([&context, args] { runGuarded(context, [&] { return runDiff(*args); }); });
}

}  // namespace

void registerDiffCommand(CLI::App& app, CommandContext& context) {
    defineCommand(
        app, "diff",
        "Compare two files or folders of one format by what they hold (exit 0 same content, "
        "1 different, 2 cannot compare)",
        context, &fillDiffCommand);
}

}  // namespace strata::cli
