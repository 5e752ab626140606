// The fallback for any readable file or folder that no format recognises.
#pragma once

#include <memory>

#include "format_handler.h"

namespace strata {

class RawBinaryFormat final : public FormatHandler {
public:
    FormatId id() const override { return kRawBinaryFormat; }
    // Always matches, with the lowest confidence (1): "raw binary file" or "folder".
    std::optional<Detection> probe(const ProbeInput& input) const override;
    // A `raw.file` root covering the file, or a `raw.folder` root listing the files under it.
    std::unique_ptr<OpenedDocument> open(const std::filesystem::path& path,
                                         const Detection& detection) const override;
    std::unique_ptr<OpenedDocument> openSource(const ByteSourcePtr& source,
                                               const Detection& detection) const override;
};

}  // namespace strata
