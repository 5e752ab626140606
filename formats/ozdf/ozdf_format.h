// The OZDF entry in the format registry.
#pragma once

#include "formats/registry/format_handler.h"

namespace strata {

class OzdfFormat final : public FormatHandler {
public:
    FormatId id() const override { return FormatId::Ozdf; }
    std::optional<Detection> probe(const ProbeInput& input) const override;
    // For now: files as an `ozdf.file` root, folders as an `ozdf.folder` listing; no validator.
    std::unique_ptr<OpenedDocument> open(const std::filesystem::path& path,
                                         const Detection& detection) const override;
};

}  // namespace strata
