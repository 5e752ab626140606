// The OZDF entry in the format registry.
#pragma once

#include "formats/registry/format_handler.h"

namespace strata {

inline constexpr FormatId kOzdfFormat{"ozdf", "OZDF"};

class OzdfFormat final : public FormatHandler {
public:
    FormatId id() const override { return kOzdfFormat; }
    std::optional<Detection> probe(const ProbeInput& input) const override;
    // Files and directory documents as an `ozdf.document` tree, other folders as an
    // `ozdf.corpus`; the validator reports what the reader found. `formatState` holds what was
    // read: a std::shared_ptr<const ozdf::ListedCorpus> for a local corpus folder (listed, its
    // documents read when the tree shows them or a job asks for them all), a
    // std::shared_ptr<const ozdf::Corpus> for a remote one, a
    // std::shared_ptr<const ozdf::Document> for a document.
    std::unique_ptr<OpenedDocument> open(const std::filesystem::path& path,
                                         const Detection& detection) const override;
    // The same for an http(s):// or s3:// file or folder: a document's part files and a
    // corpus's documents are read through the input's tree (the probe's file is not fetched
    // again).
    std::unique_ptr<OpenedDocument> openTree(const ProbeInput& input,
                                             const Detection& detection) const override;
    LeftoverScan leftoverScan() const override;
    std::vector<std::string> fileDialogPatterns() const override { return {"*.ozdf"}; }
    std::unique_ptr<Differ> makeDiffer(const OpenedDocument& a,
                                       const OpenedDocument& b) const override;
    bool canRepair() const override { return true; }
    std::optional<std::filesystem::path> repairQuarantinePath(
        const std::filesystem::path& output) const override;
    RepairReport repair(const std::filesystem::path& input, const std::filesystem::path& output,
                        const RepairOptions& options) const override;
};

}  // namespace strata
