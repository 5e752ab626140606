#include "shardlake_format.h"

#include "formats/registry/directory_listing.h"
#include "shardlake_binary.h"
#include "shardlake_diff.h"
#include "shardlake_probe.h"
#include "shardlake_repair.h"
#include "shardlake_store.h"
#include "shardlake_tree.h"
#include "shardlake_validator.h"

namespace strata {

namespace fs = std::filesystem;
using namespace shardlake;

std::optional<Detection> ShardlakeFormat::probe(const ProbeInput& input) const {
    return probeShardlake(input);
}

namespace {

// The storage root above `path` when `path` sits at <root>/<folder>/<name>[/...]: the folder
// two levels up, or nothing when the layout does not match.
std::optional<fs::path> rootAbove(const fs::path& path, std::string_view folder, int levels) {
    fs::path parent = path;
    for (int i = 0; i < levels; ++i) {
        parent = parent.parent_path();
    }
    if (parent.filename() != folder) {
        return std::nullopt;
    }
    return parent.parent_path();
}

// The store for a root in the same tree as the opened path (a URL's root is read through it).
std::shared_ptr<Store> makeStore(const FileTreePtr& tree, fs::path root) {
    return tree ? std::make_shared<Store>(tree, std::move(root))
                : std::make_shared<Store>(std::move(root));
}

struct Plan {
    std::shared_ptr<Store> store;
    std::unique_ptr<Node> root;
    ValidationTarget target;
    bool validate = true;
};

Plan planFolder(const FileTreePtr& tree, const fs::path& path, ShardlakeKind kind) {
    Plan plan;
    const std::string name = path.filename().string();
    if (kind == ShardlakeKind::IndexFolder || kind == ShardlakeKind::DatasetFolder) {
        plan.store = makeStore(tree, path.parent_path().parent_path());
        const bool index = kind == ShardlakeKind::IndexFolder;
        plan.root = index ? makeIndexNode(*plan.store, name) : makeDatasetNode(*plan.store, name);
        plan.target = {index ? ValidationScope::Index : ValidationScope::Dataset, name, nullptr};
        return plan;
    }
    plan.store = makeStore(tree, path);
    plan.root = makeRootNode(*plan.store);
    plan.target = {ValidationScope::Root, {}, nullptr};
    return plan;
}

Plan planBinary(const FileTreePtr& tree, const fs::path& path, ShardlakeKind kind,
                ByteSourcePtr source) {
    Plan plan;
    plan.store = makeStore(tree, path.parent_path());
    const std::string label = path.filename().string();
    const std::string extension = lowerExtension(path);
    if (kind == ShardlakeKind::Shard ||
        (kind == ShardlakeKind::BadMagicFile && extension == ".sidx")) {
        plan.root = makeShardNode(source, label);
        plan.target = {ValidationScope::Shard, label, source};
    } else if (kind == ShardlakeKind::CoarseQuantizer || extension == ".cq") {
        plan.root = makeCoarseQuantizerNode(source, label);
        plan.target = {ValidationScope::CoarseQuantizer, label, source};
    } else {
        plan.root = makeCodebookNode(source, label);
        plan.target = {ValidationScope::Codebook, label, source};
    }
    return plan;
}

// JSON documents: inside a storage root they are validated with the index, dataset or alias
// they belong to; elsewhere a manifest is checked on its own.
Plan planJson(const FileTreePtr& tree, const fs::path& path, ShardlakeKind kind,
              ByteSourcePtr source) {
    Plan plan;
    const std::string label = path.filename().string();
    const std::string owner = path.parent_path().filename().string();
    if (kind == ShardlakeKind::Manifest) {
        plan.root = makeJsonNode(source, "shardlake.manifest", label);
        if (const auto root = rootAbove(path, "indexes", 2); root && label == "manifest.json") {
            plan.store = makeStore(tree, *root);
            plan.target = {ValidationScope::Index, owner, nullptr};
        } else {
            plan.store = makeStore(tree, path.parent_path());
            plan.target = {ValidationScope::Manifest, label, source};
        }
        return plan;
    }
    const bool alias = kind == ShardlakeKind::Alias;
    plan.root = makeJsonNode(source, alias ? "shardlake.alias" : "shardlake.dataset_info", label);
    const auto root = alias ? rootAbove(path, "aliases", 1) : rootAbove(path, "datasets", 2);
    plan.store = makeStore(tree, root.value_or(path.parent_path()));
    plan.validate = root.has_value() && (alias || label == "info.json");
    const std::string aliasName =
        label.ends_with(".json") ? label.substr(0, label.size() - 5) : label;
    plan.target = {alias ? ValidationScope::Alias : ValidationScope::Dataset,
                   alias ? aliasName : owner, nullptr};
    return plan;
}

void addFacts(OpenedDocument& document, const Detection& detection, const Node& root) {
    document.facts.emplace_back("format", std::string(formatName(detection.format)));
    document.facts.emplace_back("description", detection.description);
    if (root.region().valid()) {
        document.facts.emplace_back("size", std::to_string(root.region().source->size()));
    }
    if (!root.value().empty()) {
        document.facts.emplace_back("summary", root.value());
    }
    for (const Field& field : root.fields()) {
        document.facts.emplace_back(field.name, field.text());
    }
}

}  // namespace

std::unique_ptr<OpenedDocument> ShardlakeFormat::open(const fs::path& path,
                                                      const Detection& detection) const {
    return openTree(ProbeInput::fromPath(path), detection);
}

// Local paths and URLs alike: `input.tree` (null for local) reads every other file.
std::unique_ptr<OpenedDocument> ShardlakeFormat::openTree(const ProbeInput& input,
                                                          const Detection& detection) const {
    const fs::path& path = input.path;
    const ShardlakeKind kind = classifyShardlake(input).kind;
    Plan plan;
    ByteSourcePtr file;
    if (input.isDirectory) {
        plan = planFolder(input.tree, path, kind);
    } else {
        file = input.source ? input.source : openMappedFile(path);
        if (kind == ShardlakeKind::Manifest || kind == ShardlakeKind::Alias ||
            kind == ShardlakeKind::DatasetInfo) {
            plan = planJson(input.tree, path, kind, file);
        } else {
            plan = planBinary(input.tree, path, kind, file);
        }
    }
    auto document = std::make_unique<OpenedDocument>();
    document->format = kShardlakeFormat;
    document->path = path;
    if (file) {
        document->sources.push_back(file);
    }
    for (ByteSourcePtr& source : plan.store->sources()) {
        document->sources.push_back(std::move(source));
    }
    // Shards open as the tree first shows them.
    document->sourceOpenedLater = [store = plan.store](const ByteSource* wanted) {
        for (ByteSourcePtr& source : store->sources()) {
            if (source.get() == wanted) {
                return source;
            }
        }
        return ByteSourcePtr();
    };
    addFacts(*document, detection, *plan.root);
    document->root = std::move(plan.root);
    if (plan.target.scope == ValidationScope::Root) {
        // What the differ compares: two storage roots, or two index versions.
        document->state =
            std::make_shared<const ShardlakeState>(std::shared_ptr<const Store>(plan.store));
    } else if (plan.target.scope == ValidationScope::Index && input.isDirectory) {
        document->state = std::make_shared<const ShardlakeState>(
            std::make_shared<const StoreIndex>(StoreIndex{plan.store, plan.target.name}));
    } else if (plan.target.scope == ValidationScope::Dataset && input.isDirectory) {
        document->state = std::make_shared<const ShardlakeState>(
            std::make_shared<const StoreDataset>(StoreDataset{plan.store, plan.target.name}));
    } else if (plan.target.scope == ValidationScope::Shard && file) {
        document->state = std::make_shared<const ShardlakeState>(
            std::make_shared<const ShardFile>(ShardFile{file, path.filename().string()}));
    }
    if (plan.validate) {
        document->makeValidator = [store = std::shared_ptr<const Store>(plan.store),
                                   target = plan.target] {
            return makeShardlakeValidator(store, target);
        };
    }
    return document;
}

std::unique_ptr<Differ> ShardlakeFormat::makeDiffer(const OpenedDocument& a,
                                                    const OpenedDocument& b) const {
    // Like with like: two roots, two index folders, two dataset folders or two shards.
    if (auto sa = shardlake::openedAs<shardlake::Store>(a),
        sb = shardlake::openedAs<shardlake::Store>(b);
        sa && sb) {
        return makeShardlakeDiffer(sa, sb);
    }
    if (auto ia = shardlake::openedAs<shardlake::StoreIndex>(a),
        ib = shardlake::openedAs<shardlake::StoreIndex>(b);
        ia && ib) {
        return makeShardlakeIndexDiffer(*ia, *ib);
    }
    if (auto da = shardlake::openedAs<shardlake::StoreDataset>(a),
        db = shardlake::openedAs<shardlake::StoreDataset>(b);
        da && db) {
        return makeShardlakeDatasetDiffer(*da, *db);
    }
    if (auto fa = shardlake::openedAs<shardlake::ShardFile>(a),
        fb = shardlake::openedAs<shardlake::ShardFile>(b);
        fa && fb) {
        return makeShardlakeShardDiffer(*fa, *fb);
    }
    throw DiffError(
        "Shardlake comparisons are between two storage roots (folders holding datasets/, "
        "indexes/ and aliases/), two index folders, two dataset folders or two .sidx shards");
}

RepairReport ShardlakeFormat::repair(const std::filesystem::path& input,
                                     const std::filesystem::path& output,
                                     const RepairOptions& options) const {
    return repairShardlakeRoot(input, output, options);
}

std::string ShardlakeFormat::repairChoiceText(RepairChoice choice) const {
    if (choice != RepairChoice::RecomputeDigests) {
        return {};
    }
    return "Recomputing the fingerprints keeps the shards whose fingerprint fails and that nothing "
           "else vouches for, with new fingerprints over their bytes as they are now. The new "
           "fingerprints then vouch for bytes that no fingerprint protected; the report says "
           "which.";
}

LeftoverScan ShardlakeFormat::leftoverScan() const {
    // A root down to indexes/<version>/shards.
    return LeftoverScan(static_cast<unsigned>(LeftoverKind::TempFile), 3);
}

}  // namespace strata
