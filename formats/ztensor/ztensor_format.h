// The zTensor entry in the format registry.
#pragma once

#include "formats/registry/format_handler.h"

namespace strata {

class ZTensorFormat final : public FormatHandler {
public:
    FormatId id() const override { return FormatId::ZTensor; }
    std::optional<Detection> probe(const ProbeInput& input) const override;
    // For now: a `ztensor.file` root over the whole file with a `ztensor.magic` child. Only
    // files without a known magic get a validator (ZT-MAGIC).
    std::unique_ptr<OpenedDocument> open(const std::filesystem::path& path,
                                         const Detection& detection) const override;
};

}  // namespace strata
