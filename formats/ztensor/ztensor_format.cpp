#include "ztensor_format.h"

#include "formats/registry/file_document.h"
#include "zt_diff.h"
#include "zt_file.h"
#include "zt_nodes.h"
#include "zt_repair.h"
#include "zt_validator.h"
#include "ztensor_probe.h"

namespace strata {

std::optional<Detection> ZTensorFormat::probe(const ProbeInput& input) const {
    return ztensor::probeZTensor(input);
}

std::unique_ptr<OpenedDocument> ZTensorFormat::open(const std::filesystem::path& path,
                                                    const Detection& detection) const {
    return openSource(openMappedFile(path), detection);
}

std::unique_ptr<OpenedDocument> ZTensorFormat::openSource(const ByteSourcePtr& source,
                                                          const Detection& detection) const {
    auto document = openFileDocument(source, detection, "ztensor");
    // Reads the header and the manifest only; damage is kept for the validator, never thrown.
    std::shared_ptr<const ztensor::ZtFile> file = ztensor::ZtFile::open(document->sources.front());
    document->root = ztensor::makeZtNodeTree(file, document->path.filename().string());
    for (auto& fact : ztensor::ztFacts(*file)) {
        document->facts.push_back(std::move(fact));
    }
    document->makeValidator = [file] { return ztensor::makeZtValidator(file); };
    document->state = std::make_shared<const ztensor::ZtState>(file);
    return document;
}

std::unique_ptr<Differ> ZTensorFormat::makeDiffer(const OpenedDocument& a,
                                                  const OpenedDocument& b) const {
    auto fa = ztensor::openedFile(a);
    auto fb = ztensor::openedFile(b);
    if (!fa || !fb) {
        throw DiffError("a zTensor side could not be read (see validate)");
    }
    return ztensor::makeZtDiffer(fa, fb);
}

RepairReport ZTensorFormat::repair(const std::filesystem::path& input,
                                   const std::filesystem::path& output,
                                   const RepairOptions& options) const {
    return ztensor::repairZtFile(input, output, options);
}

std::string ZTensorFormat::repairChoiceText(RepairChoice choice) const {
    if (choice != RepairChoice::RecomputeDigests) {
        return {};
    }
    return "Recomputing the digests keeps the tensors whose digest fails, with new digests over "
           "their bytes as they are now. The new digests then vouch for bytes that no digest "
           "protected; the report says which.";
}

LeftoverScan ZTensorFormat::leftoverScan() const {
    return LeftoverScan(static_cast<unsigned>(LeftoverKind::TempFile));  // beside the file
}

}  // namespace strata
