#include "ztensor_format.h"

#include "formats/registry/file_document.h"
#include "formats/registry/fixed_diagnostic_validator.h"
#include "ztensor_probe.h"

namespace strata {

std::optional<Detection> ZTensorFormat::probe(const ProbeInput& input) const {
    return probeZTensor(input);
}

std::unique_ptr<OpenedDocument> ZTensorFormat::open(const std::filesystem::path& path,
                                                    const Detection& detection) const {
    const ZTensorVersion version = classifyZTensor(ProbeInput::fromPath(path));
    auto document = openFileDocument(path, detection, "ztensor");
    Node* magic = addMagicNode(*document, kZTensorMagicV1.size(), "ztensor");
    const std::string_view versionName = zTensorVersionName(version);
    if (!versionName.empty()) {
        document->facts.emplace_back("version", std::string(versionName));
        magic->addField("version", std::string(versionName), magic->region());
        return document;
    }
    magic->setStatus(Status::Error);
    const std::string message = version == ZTensorVersion::Truncated
                                    ? "the file ends inside the 8-byte zTensor magic"
                                : version == ZTensorVersion::Unknown
                                    ? "the magic names no known zTensor version (expected ZTEN1000)"
                                    : "the file does not start with the zTensor magic ZTEN1000";
    document->makeValidator = [diagnostic =
                                   makeError("ZT-MAGIC", message, magic->region(), magic->path())] {
        return makeFixedDiagnosticValidator({diagnostic});
    };
    return document;
}

}  // namespace strata
