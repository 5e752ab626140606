// The ZDS entry in the format registry.
#pragma once

#include "formats/registry/format_handler.h"

namespace strata {

inline constexpr FormatId kZdsFormat{"zds", "ZDS"};

namespace zds {

class ZdsDataset;

// What a ZDS open() keeps for a dataset (a folder, a collection folder or a `.zds` archive):
// the parsed dataset whose sources the document holds, reused by the Documents tab, the editor
// and the differ. A lone index file or an archive that does not open keeps none.
struct ZdsState final : FormatState {
    explicit ZdsState(std::shared_ptr<const ZdsDataset> d) : dataset(std::move(d)) {}
    std::shared_ptr<const ZdsDataset> dataset;
};

// The dataset `opened` holds, or null when it is not an opened ZDS dataset.
inline std::shared_ptr<const ZdsDataset> openedDataset(const OpenedDocument& opened) {
    const auto state = opened.stateOf<ZdsState>();
    return state ? state->dataset : nullptr;
}

}  // namespace zds

class ZdsFormat final : public FormatHandler {
public:
    FormatId id() const override { return kZdsFormat; }
    std::optional<Detection> probe(const ProbeInput& input) const override;
    // Dataset folders, collection folders and `.zds` archives get the full ZDS tree and
    // validator (zds_tree.h, zds_validator.h); an archive libzip cannot open is shown as a raw
    // file whose validator explains why. A lone ZDX index gets a `zds.file` root with a
    // `zds.magic` child; a `.zds` that is not a ZIP reports ZDS-NOT-ZIP.
    std::unique_ptr<OpenedDocument> open(const std::filesystem::path& path,
                                         const Detection& detection) const override;
    // The same at a URL: a dataset folder (an HTTP folder with JSON listings, an S3 prefix) or a
    // `.zds` read by range; read-only.
    std::unique_ptr<OpenedDocument> openTree(const ProbeInput& input,
                                             const Detection& detection) const override;
    LeftoverScan leftoverScan() const override;
    std::vector<std::string> fileDialogPatterns() const override { return {"*.zds"}; }
    std::unique_ptr<Differ> makeDiffer(const OpenedDocument& a,
                                       const OpenedDocument& b) const override;
    bool canRepair() const override { return true; }
    std::optional<std::filesystem::path> repairQuarantinePath(
        const std::filesystem::path& output) const override;
    std::string repairChoiceText(RepairChoice choice) const override;
    RepairReport repair(const std::filesystem::path& input, const std::filesystem::path& output,
                        const RepairOptions& options) const override;
};

}  // namespace strata
