// The ZS entry in the format registry.
#pragma once

#include "formats/registry/format_handler.h"

namespace strata {

class ZsFormat final : public FormatHandler {
public:
    FormatId id() const override { return FormatId::Zs; }
    std::optional<Detection> probe(const ProbeInput& input) const override;
    // For now: a `zs.file` root over the whole file with a `zs.magic` child. Only files whose
    // magic is wrong or unfinished get a validator (ZS-INCOMPLETE, ZS-MAGIC).
    std::unique_ptr<OpenedDocument> open(const std::filesystem::path& path,
                                         const Detection& detection) const override;
};

}  // namespace strata
