// The Shardlake entry in the format registry.
#pragma once

#include "formats/registry/format_handler.h"

namespace strata {

inline constexpr FormatId kShardlakeFormat{"shardlake", "Shardlake"};

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
    std::string recomputeDigestsText() const override;
    RepairReport repair(const std::filesystem::path& input, const std::filesystem::path& output,
                        const RepairOptions& options) const override;
};

}  // namespace strata
