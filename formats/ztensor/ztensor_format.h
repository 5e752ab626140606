// The zTensor entry in the format registry.
#pragma once

#include "formats/registry/format_handler.h"

namespace strata {

inline constexpr FormatId kZTensorFormat{"ztensor", "zTensor"};

namespace ztensor {

class ZtFile;

// What a zTensor open() keeps: the file with its header and manifest read, which the views,
// the editor and the differ reuse.
struct ZtState final : FormatState {
    explicit ZtState(std::shared_ptr<const ZtFile> f) : file(std::move(f)) {}
    std::shared_ptr<const ZtFile> file;
};

// The zTensor file `opened` holds, or null when it is not an opened zTensor document.
inline std::shared_ptr<const ZtFile> openedFile(const OpenedDocument& opened) {
    const auto state = opened.stateOf<ZtState>();
    return state ? state->file : nullptr;
}

}  // namespace ztensor

class ZTensorFormat final : public FormatHandler {
public:
    FormatId id() const override { return kZTensorFormat; }
    std::optional<Detection> probe(const ProbeInput& input) const override;
    // Maps the file, reads its header and manifest into the lazy `ztensor.*` tree (see
    // zt_nodes.h) and offers the full validator (zt_validator.h).
    std::unique_ptr<OpenedDocument> open(const std::filesystem::path& path,
                                         const Detection& detection) const override;
    std::unique_ptr<OpenedDocument> openSource(const ByteSourcePtr& source,
                                               const Detection& detection) const override;
    LeftoverScan leftoverScan() const override;
    std::vector<std::string> fileDialogPatterns() const override { return {"*.zt", "*.ztensor"}; }
    std::unique_ptr<Differ> makeDiffer(const OpenedDocument& a,
                                       const OpenedDocument& b) const override;
    bool canRepair() const override { return true; }
    std::string repairChoiceText(RepairChoice choice) const override;
    RepairReport repair(const std::filesystem::path& input, const std::filesystem::path& output,
                        const RepairOptions& options) const override;
};

}  // namespace strata
