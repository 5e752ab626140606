// The Shardlake entry in the format registry.
#pragma once

#include "formats/registry/format_handler.h"

namespace strata {

class ShardlakeFormat final : public FormatHandler {
public:
    FormatId id() const override { return FormatId::Shardlake; }
    std::optional<Detection> probe(const ProbeInput& input) const override;
    // For now: folders as a `shardlake.folder` listing; files as a `shardlake.file` root, with a
    // `shardlake.magic` child for the binary artifacts. Only binary artifacts without their
    // magic get a validator (SLK-MAGIC).
    std::unique_ptr<OpenedDocument> open(const std::filesystem::path& path,
                                         const Detection& detection) const override;
};

}  // namespace strata
