// strata-cli clean-leftovers [--dry-run] [--json] PATH: removes what interrupted saves left
// beside or inside PATH (the temporary files and stage folders `validate` reports as
// *-LEFTOVER-*), except those a running process is still writing.
// Exit code: 0 nothing is left, 1 some leftovers were kept (in use, holding displaced data, or
// could not be removed), 2 neither PATH nor its folder exists.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli_app.h"
#include "command_context.h"
#include "formats/common/counted.h"
#include "formats/common/save_leftovers.h"
#include "json_output.h"

namespace strata::cli {

namespace {

namespace fs = std::filesystem;

struct CleanOptions {
    std::string path;
    bool dryRun = false;
    bool json = false;
};

// Every kind any format's validator reports, as deep as the deepest of them looks (a
// Shardlake root's shards, a ZDS collection's meta/), into no folder any format keeps out of
// its scan (the documents of a ZDS collection: writers only write those inside a stage).
LeftoverScan everyFormatsScan() {
    LeftoverScan scan;
    std::vector<std::function<bool(const fs::path&)>> filters;
    for (const FormatHandler* handler : cliFormats().handlers()) {
        LeftoverScan own = handler->leftoverScan();
        scan.kinds |= own.kinds;
        scan.depth = std::max(scan.depth, own.depth);
        if (own.descend) {
            filters.push_back(std::move(own.descend));
        }
    }
    scan.descend = [filters](const fs::path& relative) {
        return std::all_of(filters.begin(), filters.end(),
                           [&relative](const auto& descend) { return descend(relative); });
    };
    return scan;
}

std::string_view kindName(LeftoverKind kind) {
    switch (kind) {
        case LeftoverKind::TempFile:
            return "temporary file";
        case LeftoverKind::StageFolder:
            return "stage folder";
        case LeftoverKind::PartFile:
            return "unfinished ZS file";
    }
    return "temporary file";
}

std::string_view useName(LeftoverUse use) {
    switch (use) {
        case LeftoverUse::Unused:
            return "unused";
        case LeftoverUse::InUse:
            return "in use";
        case LeftoverUse::Unknown:
            return "unknown";
    }
    return "unknown";
}

struct Outcome {
    bool removed = false;
    std::string reason;  // why it was kept
};

Outcome cleanOne(const Leftover& leftover, bool dryRun) {
    if (!leftover.removable()) {
        return {false, leftover.keepReason()};
    }
    if (dryRun) {
        return {false, {}};
    }
    const LeftoverRemoval removal = removeLeftovers({leftover.path});
    return removal.removed.empty() ? Outcome{false, removal.kept.front().second}
                                   : Outcome{true, {}};
}

Json leftoverJson(const Leftover& l, const Outcome& outcome) {
    Json processes = Json::array();
    for (const std::int64_t pid : l.processes) {
        processes.push_back(pid);
    }
    return Json{{"path", l.path.string()},
                {"kind", std::string(leftoverCodeSuffix(l.kind))},
                {"target", l.target},
                {"bytes", l.bytes},
                {"use", std::string(useName(l.use))},
                {"processes", std::move(processes)},
                {"displaced", l.displaced},
                {"removed", outcome.removed},
                {"reason", outcome.reason}};
}

int runClean(const CleanOptions& request) {
    // A path that does not exist is fine when its folder does: an interrupted first save of
    // it (an unpack into a new folder, say) left its leftovers beside it.
    std::error_code ec;
    const fs::path absolute = fs::absolute(request.path, ec);
    if (!fs::exists(absolute, ec) && !fs::is_directory(absolute.parent_path(), ec)) {
        throw std::runtime_error(request.path + ": no such file or folder");
    }
    const std::vector<Leftover> leftovers = findSaveLeftovers(request.path, everyFormatsScan());
    std::size_t removed = 0;
    std::size_t kept = 0;
    Json list = Json::array();
    for (const Leftover& leftover : leftovers) {
        const Outcome outcome = cleanOne(leftover, request.dryRun);
        const bool keeps = !outcome.reason.empty();
        removed += outcome.removed ? 1 : 0;
        kept += keeps ? 1 : 0;
        if (request.json) {
            list.push_back(leftoverJson(leftover, outcome));
            continue;
        }
        const std::string verb = keeps ? "kept" : outcome.removed ? "removed" : "would remove";
        std::cout << verb << ' ' << leftover.path.string() << " (" << kindName(leftover.kind)
                  << ", " << counted(leftover.bytes, "byte") << ")"
                  << (keeps ? ": " + outcome.reason : std::string()) << '\n';
    }
    if (request.json) {
        printJson(
            Json{{"path", request.path},
                 {"dry_run", request.dryRun},
                 {"leftovers", std::move(list)},
                 {"summary", {{"found", leftovers.size()}, {"removed", removed}, {"kept", kept}}}});
    } else {
        std::cout << counted(leftovers.size(), "leftover") << " of interrupted saves: " << removed
                  << " removed, " << kept << " kept"
                  << (request.dryRun ? " (dry run: nothing removed)" : "") << '\n';
    }
    return kept == 0 ? kExitOk : kExitErrors;
}

// Run when the command line names the command (defineCommand).
void fillLeftoversCommand(CLI::App* command, CommandContext& context) {
    auto options = std::make_shared<CleanOptions>();
    command->add_option("PATH", options->path, "File or folder that was being saved")->required();
    command->add_flag("-n,--dry-run", options->dryRun,
                      "List what would be removed; remove nothing");
    command->add_flag("--json", options->json, "Print one JSON object");
    command->callback(
        [&context, options] { runGuarded(context, [&] { return runClean(*options); }); });
}

}  // namespace

void registerLeftoversCommand(CLI::App& app, CommandContext& context) {
    defineCommand(
        app, "clean-leftovers",
        "Remove the temporary files and stage folders interrupted saves left beside or inside "
        "PATH (never those a running process is writing; exit 1 when some are kept)",
        context, &fillLeftoversCommand);
}

}  // namespace strata::cli
