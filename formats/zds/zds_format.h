// The ZDS entry in the format registry.
#pragma once

#include "formats/registry/format_handler.h"

namespace strata {

class ZdsFormat final : public FormatHandler {
public:
    FormatId id() const override { return FormatId::Zds; }
    std::optional<Detection> probe(const ProbeInput& input) const override;
    // For now: folders as a `zds.folder` listing; files as a `zds.file` root (a ZDX index gets a
    // `zds.magic` child). A `.zds` that is not a ZIP (ZDS-NOT-ZIP) and a dataset without a
    // collections/ folder (ZDS-NO-COLLECTIONS) get a validator reporting just that.
    std::unique_ptr<OpenedDocument> open(const std::filesystem::path& path,
                                         const Detection& detection) const override;
};

}  // namespace strata
