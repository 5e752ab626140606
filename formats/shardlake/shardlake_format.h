// The Shardlake entry in the format registry.
#pragma once

#include <memory>
#include <variant>

#include "formats/registry/format_handler.h"

namespace strata {

inline constexpr FormatId kShardlakeFormat{"shardlake", "Shardlake"};

namespace shardlake {

class Store;
struct StoreIndex;
struct StoreDataset;
struct ShardFile;

// What a Shardlake open() keeps for the differ and the views, by what was opened: a storage
// root, one index version or one dataset of it, or a lone shard. Other files (a manifest, an
// alias) keep none.
struct ShardlakeState final : FormatState {
    using Opened =
        std::variant<std::shared_ptr<const Store>, std::shared_ptr<const StoreIndex>,
                     std::shared_ptr<const StoreDataset>, std::shared_ptr<const ShardFile>>;
    explicit ShardlakeState(Opened o) : opened(std::move(o)) {}
    Opened opened;
};

// What `opened` holds when it is a T (one of ShardlakeState::Opened's), else null.
template <class T>
std::shared_ptr<const T> openedAs(const OpenedDocument& opened) {
    const auto state = opened.stateOf<ShardlakeState>();
    const auto* held = state ? std::get_if<std::shared_ptr<const T>>(&state->opened) : nullptr;
    return held != nullptr ? *held : nullptr;
}

}  // namespace shardlake

class ShardlakeFormat final : public FormatHandler {
public:
    FormatId id() const override { return kShardlakeFormat; }
    std::optional<Detection> probe(const ProbeInput& input) const override;
    // Storage roots, index and dataset folders, shards, quantizers, codebooks, manifests,
    // aliases and dataset info as the lazy tree of shardlake_tree.h, with the validator of
    // shardlake_validator.h over what was opened.
    std::unique_ptr<OpenedDocument> open(const std::filesystem::path& path,
                                         const Detection& detection) const override;
    // The same under a URL: a storage root, index or dataset folder, or one of their files on
    // an HTTP server or under an S3 prefix, every other file read through input.tree.
    std::unique_ptr<OpenedDocument> openTree(const ProbeInput& input,
                                             const Detection& detection) const override;
    LeftoverScan leftoverScan() const override;
    std::vector<std::string> fileDialogPatterns() const override { return {"*.sidx"}; }
    std::unique_ptr<Differ> makeDiffer(const OpenedDocument& a,
                                       const OpenedDocument& b) const override;
    bool canRepair() const override { return true; }
    std::string repairChoiceText(RepairChoice choice) const override;
    RepairReport repair(const std::filesystem::path& input, const std::filesystem::path& output,
                        const RepairOptions& options) const override;
};

}  // namespace strata
