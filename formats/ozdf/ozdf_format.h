// The OZDF entry in the format registry.
#pragma once

#include "formats/registry/format_handler.h"

namespace strata {

class OzdfFormat final : public FormatHandler {
public:
    FormatId id() const override { return FormatId::Ozdf; }
    std::optional<Detection> probe(const ProbeInput& input) const override;
    // Files and directory documents as an `ozdf.document` tree, other folders as an
    // `ozdf.corpus`; the validator reports what the reader found. `formatState` holds what was
    // read: a std::shared_ptr<const ozdf::Corpus> for a corpus folder, a
    // std::shared_ptr<const ozdf::Document> for a document.
    std::unique_ptr<OpenedDocument> open(const std::filesystem::path& path,
                                         const Detection& detection) const override;
};

}  // namespace strata
