#include "shardlake_probe.h"

#include <algorithm>

#include "formats/registry/directory_listing.h"
#include "shardlake_format.h"

namespace strata {

namespace fs = std::filesystem;

namespace {

// Index folders looked at under indexes/ before deciding.
constexpr std::size_t kIndexFolderLimit = 64;

bool hasKey(std::string_view json, std::string_view key) {
    return json.find("\"" + std::string(key) + "\"") != std::string_view::npos;
}

bool looksLikeJsonObject(std::string_view text) {
    const auto start = text.find_first_not_of(" \t\r\n");
    return start != std::string_view::npos && text[start] == '{';
}

// Index manifests and dataset info files both carry "manifest_version"; only an index
// manifest names its index version or lists shards.
bool isIndexManifestText(std::string_view text) {
    return looksLikeJsonObject(text) && hasKey(text, "manifest_version") &&
           (hasKey(text, "index_version") || hasKey(text, "shards"));
}

bool isDatasetInfoText(std::string_view text) {
    return looksLikeJsonObject(text) && hasKey(text, "dataset_version") &&
           hasKey(text, "vectors_key") && !hasKey(text, "shards");
}

bool hasManifest(const ProbeInput& input, const fs::path& folder) {
    return isIndexManifestText(input.readHeadAt(folder / "manifest.json"));
}

// An index version folder by layout: a shards/ folder, a coarse quantizer or a manifest file.
bool looksLikeIndexFolder(const ProbeInput& input) {
    return input.hasDirectory("shards") || input.hasFile("coarse_quantizer.cq") ||
           input.hasFile("manifest.json");
}

ShardlakeProbe make(ShardlakeKind kind, int confidence, std::string description) {
    return {kind, {kShardlakeFormat, confidence, std::move(description)}};
}

ShardlakeProbe classifyRoot(const ProbeInput& input) {
    const int layoutDirs = int{input.hasDirectory("datasets")} +
                           int{input.hasDirectory("indexes")} + int{input.hasDirectory("aliases")};
    if (input.hasDirectory("indexes")) {
        const DirectoryListing indexes = input.listAt(input.path / "indexes", kIndexFolderLimit);
        const bool anyManifest =
            std::any_of(indexes.entries.begin(), indexes.entries.end(), [&](const ProbeEntry& e) {
                return e.isDirectory && hasManifest(input, input.path / "indexes" / e.name);
            });
        if (anyManifest) {
            return make(ShardlakeKind::StorageRoot, 90, "Shardlake storage root");
        }
    }
    if (layoutDirs >= 2) {
        return make(ShardlakeKind::StorageRoot, 60, "Shardlake storage root");
    }
    return {};
}

ShardlakeProbe classifyFolder(const ProbeInput& input) {
    if (ShardlakeProbe root = classifyRoot(input); root.kind != ShardlakeKind::None) {
        return root;
    }
    if (input.hasFile("manifest.json") && hasManifest(input, input.path)) {
        return make(ShardlakeKind::IndexFolder, 80, "Shardlake index folder");
    }
    // A damaged index folder (its manifest missing) still has its shards and quantizer.
    const bool insideIndexes = input.path.parent_path().filename() == "indexes";
    if (input.hasDirectory("shards") && (input.hasFile("coarse_quantizer.cq") || insideIndexes)) {
        return make(ShardlakeKind::IndexFolder, 50, "Shardlake index folder");
    }
    if (insideIndexes && looksLikeIndexFolder(input)) {
        return make(ShardlakeKind::IndexFolder, 40, "Shardlake index folder");
    }
    const bool anyShard = std::any_of(
        input.entries.begin(), input.entries.end(),
        [](const ProbeEntry& e) { return e.isRegularFile && lowerExtension(e.name) == ".sidx"; });
    if (anyShard) {
        return make(ShardlakeKind::ShardsFolder, 50, "Shardlake shards folder");
    }
    if (input.hasFile("info.json") &&
        isDatasetInfoText(input.readHeadAt(input.path / "info.json"))) {
        return make(ShardlakeKind::DatasetFolder, 60, "Shardlake dataset");
    }
    return {};
}

// A JSON file at a place only Shardlake uses, even when its content is damaged: a manifest in
// indexes/<version>/, dataset info in datasets/<version>/, an alias in aliases/ of a root.
ShardlakeProbe classifyByPlace(const ProbeInput& input) {
    const std::string name = input.path.filename().string();
    const fs::path parent = input.path.parent_path();
    const std::string grandparent = parent.parent_path().filename().string();
    if (name == "manifest.json" && grandparent == "indexes" &&
        input.isDirectoryAt(parent / "shards")) {
        return make(ShardlakeKind::Manifest, 30, "Shardlake index manifest");
    }
    if (name == "info.json" && grandparent == "datasets" &&
        input.isFileAt(parent / "vectors.jsonl")) {
        return make(ShardlakeKind::DatasetInfo, 30, "Shardlake dataset info");
    }
    if (parent.filename() == "aliases" && input.isDirectoryAt(parent.parent_path() / "indexes")) {
        return make(ShardlakeKind::Alias, 30, "Shardlake alias");
    }
    return {};
}

ShardlakeProbe classifyJson(const ProbeInput& input) {
    const std::string_view text = input.headText();
    if (!looksLikeJsonObject(text)) {
        return classifyByPlace(input);
    }
    const std::string name = input.path.filename().string();
    const std::string parent = input.path.parent_path().filename().string();
    if (isIndexManifestText(text)) {
        return make(ShardlakeKind::Manifest, name == "manifest.json" ? 70 : 40,
                    "Shardlake index manifest");
    }
    if (isDatasetInfoText(text)) {
        return make(ShardlakeKind::DatasetInfo, name == "info.json" ? 50 : 40,
                    "Shardlake dataset info");
    }
    if (hasKey(text, "alias") && hasKey(text, "index_version")) {
        return make(ShardlakeKind::Alias, parent == "aliases" ? 60 : 40, "Shardlake alias");
    }
    if (hasKey(text, "manifest_version")) {
        return make(ShardlakeKind::Manifest, 30, "Shardlake manifest of unknown kind");
    }
    return classifyByPlace(input);
}

ShardlakeProbe classifyFile(const ProbeInput& input) {
    if (input.headStartsWith(kShardMagic)) {
        return make(ShardlakeKind::Shard, 100, "Shardlake shard");
    }
    if (input.headStartsWith(kCoarseQuantizerMagic)) {
        return make(ShardlakeKind::CoarseQuantizer, 100, "Shardlake coarse quantizer");
    }
    if (input.headStartsWith(kPqCodebookMagic)) {
        return make(ShardlakeKind::PqCodebook, 100, "Shardlake PQ codebook");
    }
    if (input.extension == ".json") {
        return classifyJson(input);
    }
    const std::string name = input.path.filename().string();
    if (input.extension == ".sidx") {
        return make(ShardlakeKind::BadMagicFile, 20, "file named .sidx without the shard magic");
    }
    if (input.extension == ".cq") {
        return make(ShardlakeKind::BadMagicFile, 20,
                    "file named .cq without the coarse quantizer magic");
    }
    if (name == "pq_codebook.bin") {
        return make(ShardlakeKind::BadMagicFile, 20,
                    "pq_codebook.bin without the PQ codebook magic");
    }
    return {};
}

}  // namespace

ShardlakeProbe classifyShardlake(const ProbeInput& input) {
    return input.isDirectory ? classifyFolder(input) : classifyFile(input);
}

std::optional<Detection> probeShardlake(const ProbeInput& input) {
    ShardlakeProbe probe = classifyShardlake(input);
    if (probe.kind == ShardlakeKind::None) {
        return std::nullopt;
    }
    return probe.detection;
}

}  // namespace strata
