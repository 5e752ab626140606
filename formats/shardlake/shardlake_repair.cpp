// The Shardlake repair of a storage root (see shardlake_repair.h): datasets, then indexes
// (shardlake_repair_dataset.cpp, shardlake_repair_index.cpp), then aliases; the plan written
// into a stage, validated, and published.
#include "shardlake_repair.h"

#include "formats/common/json_diff.h"
#include "shardlake_diff.h"
#include "shardlake_repair_parts.h"

namespace strata {

namespace shardlake::repair {
namespace {

// --- aliases ---------------------------------------------------------------------------------

void repairAlias(Context& ctx, const std::string& file) {
    const Store& in = *ctx.store;
    const std::string key = "aliases/" + file;
    const ByteSourcePtr source = in.source(key);
    if (isLeftoverName(file)) {
        ctx.action(key + ": left out (a leftover of an interrupted save)", wholeOf(source));
        return;
    }
    if (!file.ends_with(".json") || !source) {
        ctx.action(key + ": left out (not an alias file)", wholeOf(source));
        return;
    }
    const std::string name = file.substr(0, file.size() - 5);
    if (!nameProblem(name).empty()) {
        ctx.loss(key + ": alias removed: its name " + nameProblem(name), wholeOf(source));
        return;
    }
    const std::optional<ojson> doc = parseObject(textOf(*source));
    const std::string target = doc ? stringAt(*doc, "index_version") : std::string();
    auto written = [&](const std::string& version) {
        return std::any_of(ctx.indexes.begin(), ctx.indexes.end(),
                           [&](const KeptIndex& k) { return k.version == version; });
    };
    if (doc && !target.empty() && written(target)) {
        // Copied as it is, an `alias` field other than the file's name included: lookups go by
        // the name, and the field is the file's content all the same.
        ctx.add({key, source, {}, {}, 0, 0, {}, {}});
        return;
    }
    const std::string why = !doc ? std::string("the file is not a JSON object")
                            : target.empty()
                                ? std::string("it names no index_version")
                                : "its target index " + target + " is not in the repaired root";
    // Repointed only to an index that says it was published under this name, the newest when
    // their build times tell them apart.
    std::vector<const KeptIndex*> candidates;
    for (const KeptIndex& k : ctx.indexes) {
        if (k.alias == name) {
            candidates.push_back(&k);
        }
    }
    std::sort(candidates.begin(), candidates.end(),
              [](const KeptIndex* a, const KeptIndex* b) { return a->builtAt > b->builtAt; });
    const bool unambiguous =
        candidates.size() == 1 || (candidates.size() > 1 && !candidates[0]->builtAt.empty() &&
                                   candidates[0]->builtAt.size() == candidates[1]->builtAt.size() &&
                                   candidates[0]->builtAt > candidates[1]->builtAt);
    if (!candidates.empty() && unambiguous) {
        ctx.action(key + ": " + why + "; repointed to " + candidates[0]->version +
                       (candidates.size() == 1
                            ? ", the only index whose manifest names alias " + name
                            : ", the newest of the " + std::to_string(candidates.size()) +
                                  " indexes whose manifests name alias " + name),
                   wholeOf(source));
        ctx.add({key, nullptr, aliasFileText(name, candidates[0]->version), {}, 0, 0, {}, {}});
        return;
    }
    ctx.loss(key + ": alias " + name + " removed: " + why + ", and " +
                 (candidates.empty() ? std::string("no index's manifest names this alias")
                                     : "several indexes name it with no newest among them"),
             wholeOf(source));
}

// --- what the output holds otherwise than the input ---------------------------------------

// The files Strata's comparison of two roots looks at: aliases, and each dataset's and index
// version's files down to one sub-folder (shards/), but no leftover of an interrupted save.
std::vector<std::string> comparedKeys(const Store& store) {
    std::vector<std::string> keys;
    for (const std::string& file : store.files("aliases")) {
        if (!isLeftoverName(file)) {
            keys.push_back("aliases/" + file);
        }
    }
    for (const char* section : {"datasets", "indexes"}) {
        for (const std::string& name : store.folders(section)) {
            const std::string folder = std::string(section) + "/" + name;
            if (isLeftoverName(name)) {
                continue;
            }
            for (const std::string& file : store.files(folder)) {
                if (!isLeftoverName(file)) {
                    keys.push_back(folder + "/" + file);
                }
            }
            for (const std::string& sub : store.folders(folder)) {
                for (const std::string& file : store.files(folder + "/" + sub)) {
                    if (!isLeftoverName(sub) && !isLeftoverName(file)) {
                        keys.push_back(folder + "/" + sub + "/" + file);
                    }
                }
            }
        }
    }
    return keys;
}

bool sameJson(const ByteSource& source, const std::string& text) {
    const auto a = parseJsonExact(textOf(source));
    const auto b = parseJsonExact(text);
    return a && b && sameJsonValue(*a, *b);
}

// The dataset, index version or alias folder a key belongs to ("indexes/v1", "aliases").
std::string folderOf(const std::string& key) {
    const std::size_t first = key.find('/');
    if (key.starts_with("aliases/")) {
        return "aliases";
    }
    const std::size_t second = key.find('/', first + 1);
    return key.substr(0, second);
}

// `key` within `folder` (folderOf), or the key itself when it is no deeper: a file where an
// index or dataset folder belongs.
std::string withinFolder(const std::string& key, const std::string& folder) {
    return key.size() > folder.size() ? key.substr(folder.size() + 1) : key;
}

// What happens to input file `key` in the plan; empty when the output holds it unchanged.
std::string fateOf(const std::string& key, const ByteSourcePtr& source,
                   const std::map<std::string, const OutFile*>& planned) {
    const auto it = planned.find(key);
    if (it == planned.end()) {
        return "not in the output";
    }
    const OutFile& file = *it->second;
    if (file.copy == source) {
        return {};
    }
    const bool text = !file.copy && !file.generate && file.runs.empty();
    if (key.ends_with(".json") && text && sameJson(*source, file.text)) {
        return {};  // the same JSON written otherwise: storage, not content
    }
    return "written with other content";
}

// Every file of the input that the output does not hold as it was, and every file it adds, that
// no loss names yet: the output's content differs there, so the repair is not complete. One
// loss per dataset, index version or the aliases.
void listChangedFiles(Context& ctx) {
    const Store& in = *ctx.store;
    std::map<std::string, const OutFile*> planned;
    for (const OutFile& f : ctx.files) {
        planned.emplace(f.key, &f);
    }
    std::set<std::string> named;
    for (const RepairStep& l : ctx.report.losses) {
        named.insert(l.bytes.file);
    }
    std::map<std::string, std::vector<std::string>> fates;
    std::map<std::string, Region> firstBytes;
    std::set<std::string> inInput;
    for (const std::string& key : comparedKeys(in)) {
        inInput.insert(key);
        const ByteSourcePtr source = in.source(key);
        if (!source || named.contains(source->name())) {
            continue;
        }
        const std::string fate = fateOf(key, source, planned);
        if (!fate.empty()) {
            const std::string folder = folderOf(key);
            fates[folder].push_back(withinFolder(key, folder) + " (" + fate + ")");
            firstBytes.emplace(folder, wholeOf(source));
        }
    }
    for (const auto& [key, file] : planned) {
        const bool compared = key.starts_with("aliases/") || key.starts_with("datasets/") ||
                              key.starts_with("indexes/");
        if (compared && !inInput.contains(key)) {
            fates[folderOf(key)].push_back(withinFolder(key, folderOf(key)) +
                                           " (only in the output)");
        }
    }
    for (const auto& [folder, list] : fates) {
        std::string joined;
        for (const std::string& f : list) {
            joined += (joined.empty() ? "" : ", ") + f;
        }
        const auto bytes = firstBytes.find(folder);
        ctx.loss(folder + ": the output's files differ from the input's: " + joined,
                 bytes == firstBytes.end() ? Region{} : bytes->second);
    }
}

// --- the whole root --------------------------------------------------------------------------

void requireRoot(const fs::path& input) {
    std::error_code ec;
    if (!fs::is_directory(input, ec)) {
        throw RepairError(input.string() +
                          ": only a Shardlake storage root (a folder with datasets/, indexes/ "
                          "and aliases/) can be repaired, not a single file");
    }
    fs::path path = fs::absolute(input, ec).lexically_normal();
    if (!path.has_filename()) {
        path = path.parent_path();
    }
    const std::string above = path.parent_path().filename().string();
    const bool root = fs::is_directory(input / "indexes", ec) ||
                      fs::is_directory(input / "datasets", ec) ||
                      fs::is_directory(input / "aliases", ec);
    if (!root || above == "indexes" || above == "datasets") {
        throw RepairError(input.string() +
                          ": repair the storage root that holds it instead (an index or dataset "
                          "folder alone cannot be written as a valid root: its keys and its "
                          "dataset live above it)");
    }
}

// The output's diagnostics but the errors of required manifest fields the plan left absent
// because they could not be read (each a loss already).
std::vector<Diagnostic> unexpectedErrors(const Context& ctx, const std::vector<Diagnostic>& all) {
    std::vector<Diagnostic> out;
    for (const Diagnostic& d : all) {
        bool planned = false;
        for (const auto& [key, fields] : ctx.absentFields) {
            for (const std::string& field : fields) {
                planned = planned || (d.code == "SL-MANIFEST" &&
                                      d.message == "missing field `" + field + "`" &&
                                      d.fileName().ends_with("/" + key));
            }
        }
        if (!planned) {
            out.push_back(d);
        }
    }
    return out;
}

void writeAndPublish(Context& ctx, const fs::path& output) {
    runInRepairStage(output, [&](const fs::path& stage) {
        for (const char* folder : {"datasets", "indexes", "aliases"}) {
            fs::create_directories(stage / folder);
        }
        for (std::size_t i = 0; i < ctx.files.size(); ++i) {
            ctx.options.reportProgress(0.5 + 0.4 * static_cast<double>(i) / ctx.files.size(),
                                       "writing " + ctx.files[i].key);
            writeOut(stage, ctx.files[i], ctx.options.cancel);
        }
        ctx.options.reportProgress(0.9, "validating the repaired root");
        auto store = std::make_shared<const Store>(stage);
        CollectingSink sink;
        ValidationOptions validation;
        validation.cancel = ctx.options.cancel;
        makeShardlakeValidator(store, {ValidationScope::Root, {}, nullptr})->run(sink, validation);
        ctx.checkCancel();
        requireValidOutput(unexpectedErrors(ctx, sink.diagnostics()));
        listContentDifferences(*makeShardlakeDiffer(ctx.store, store), ctx.report, ctx.options,
                               {ctx.store->root().string()});
        store.reset();
        publishRepairFolder(stage, output);
    });
}

}  // namespace
}  // namespace shardlake::repair

RepairReport repairShardlakeRoot(const std::filesystem::path& input,
                                 const std::filesystem::path& output,
                                 const RepairOptions& options) {
    using namespace shardlake;
    using namespace shardlake::repair;
    RepairReport report = beginRepair("vectors", output, options);
    requireRoot(input);
    refuseOutputInsideInput(input, output);
    Context ctx{std::make_shared<const Store>(input), options, report, {}, {}, {}, {}, {}, {}, {}};
    const Store& in = *ctx.store;
    std::size_t indexCount = 0;
    try {
        for (const std::string& name : in.files("")) {
            ctx.action(name + ": left out (not part of a Shardlake root)",
                       wholeOf(in.source(name)));
        }
        for (const std::string& name : in.folders("")) {
            if (name != "datasets" && name != "indexes" && name != "aliases") {
                ctx.action(name + "/: left out (not part of a Shardlake root)");
            }
        }
        for (const std::string& name : in.folders("datasets")) {
            ctx.checkCancel();
            options.reportProgress(0.05, "dataset " + name);
            repairDataset(ctx, name);
        }
        const std::vector<std::string> versions = in.folders("indexes");
        for (std::size_t i = 0; i < versions.size(); ++i) {
            ctx.checkCancel();
            options.reportProgress(0.1 + 0.4 * static_cast<double>(i) / versions.size(),
                                   "index " + versions[i]);
            if (isLeftoverName(versions[i]) || !nameProblem(versions[i]).empty()) {
                ctx.action("indexes/" + versions[i] + "/: left out (not an index version name)");
                continue;
            }
            ++indexCount;
            repairIndex(ctx, versions[i]);
        }
        for (const std::string& file : in.files("aliases")) {
            repairAlias(ctx, file);
        }
    } catch (const RepairError&) {
        throw;
    } catch (const JobCancelled&) {
        throw;
    } catch (const std::exception& e) {
        throw RepairError(input.string() + ": " + e.what());
    }
    if (indexCount > 0 && ctx.indexes.empty()) {
        // The reason an index was not written, or else the first loss.
        std::string why =
            report.losses.empty() ? "none was found" : report.losses.front().description;
        for (const RepairStep& l : report.losses) {
            if (l.description.starts_with("index ") &&
                l.description.find(" not written: ") != std::string::npos) {
                why = l.description;
                break;
            }
        }
        throw RepairError(input.string() + ": no index could be recovered (" + why + ")");
    }
    if (indexCount == 0 && ctx.datasets.empty()) {
        throw RepairError(input.string() +
                          ": nothing to recover (no index and no readable dataset)");
    }
    listChangedFiles(ctx);
    if (!options.dryRun) {
        writeAndPublish(ctx, output);
        report.written = true;
    }
    return report;
}

}  // namespace strata
