// The zTensor entry in the format registry.
#pragma once

#include "formats/registry/format_handler.h"

namespace strata {

inline constexpr FormatId kZTensorFormat{"ztensor", "zTensor"};

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
    std::string recomputeDigestsText() const override;
    RepairReport repair(const std::filesystem::path& input, const std::filesystem::path& output,
                        const RepairOptions& options) const override;
};

}  // namespace strata
