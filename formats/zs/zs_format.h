// The ZS entry in the format registry.
#pragma once

#include "formats/registry/format_handler.h"

namespace strata {

inline constexpr FormatId kZsFormat{"zs", "ZS"};

namespace zs {

class ZsFile;

// What a ZS open() keeps: the file with its header and root index read, which the views and
// the differ reuse.
struct ZsState final : FormatState {
    explicit ZsState(std::shared_ptr<const ZsFile> f) : file(std::move(f)) {}
    std::shared_ptr<const ZsFile> file;
};

// The ZS file `opened` holds, or null when it is not an opened ZS document.
inline std::shared_ptr<const ZsFile> openedFile(const OpenedDocument& opened) {
    const auto state = opened.stateOf<ZsState>();
    return state ? state->file : nullptr;
}

}  // namespace zs

class ZsFormat final : public FormatHandler {
public:
    FormatId id() const override { return kZsFormat; }
    std::optional<Detection> probe(const ProbeInput& input) const override;
    // The lazy tree of zs_tree.h (header and root index read now, the rest on expansion) and
    // the full ZsValidator. Damage never makes open() fail: the validator reports it.
    std::unique_ptr<OpenedDocument> open(const std::filesystem::path& path,
                                         const Detection& detection) const override;
    std::unique_ptr<OpenedDocument> openSource(const ByteSourcePtr& source,
                                               const Detection& detection) const override;
    LeftoverScan leftoverScan() const override;
    std::vector<std::string> fileDialogPatterns() const override { return {"*.zs"}; }
    std::unique_ptr<Differ> makeDiffer(const OpenedDocument& a,
                                       const OpenedDocument& b) const override;
    bool canRepair() const override { return true; }
    std::optional<std::filesystem::path> repairQuarantinePath(
        const std::filesystem::path& output) const override;
    RepairReport repair(const std::filesystem::path& input, const std::filesystem::path& output,
                        const RepairOptions& options) const override;
};

}  // namespace strata
