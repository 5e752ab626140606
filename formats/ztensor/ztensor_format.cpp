#include "ztensor_format.h"

#include "formats/registry/file_document.h"
#include "zt_file.h"
#include "zt_nodes.h"
#include "zt_validator.h"
#include "ztensor_probe.h"

namespace strata {

std::optional<Detection> ZTensorFormat::probe(const ProbeInput& input) const {
    return probeZTensor(input);
}

std::unique_ptr<OpenedDocument> ZTensorFormat::open(const std::filesystem::path& path,
                                                    const Detection& detection) const {
    auto document = openFileDocument(path, detection, "ztensor");
    // Reads the header and the manifest only; damage is kept for the validator, never thrown.
    std::shared_ptr<const ZtFile> file = ZtFile::open(document->sources.front());
    document->root = makeZtNodeTree(file, path.filename().string());
    for (auto& fact : ztFacts(*file)) {
        document->facts.push_back(std::move(fact));
    }
    document->makeValidator = [file] { return makeZtValidator(file); };
    document->formatState = file;
    return document;
}

}  // namespace strata
