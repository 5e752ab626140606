#include "zds_format.h"

#include "formats/registry/file_document.h"
#include "formats/registry/fixed_diagnostic_validator.h"
#include "zds_probe.h"

namespace strata {

std::optional<Detection> ZdsFormat::probe(const ProbeInput& input) const {
    return probeZds(input);
}

namespace {

void setFixedValidator(OpenedDocument& document, Diagnostic diagnostic) {
    document.makeValidator = [diagnostic = std::move(diagnostic)] {
        return makeFixedDiagnosticValidator({diagnostic});
    };
}

}  // namespace

std::unique_ptr<OpenedDocument> ZdsFormat::open(const std::filesystem::path& path,
                                                const Detection& detection) const {
    const ProbeInput input = ProbeInput::fromPath(path);
    const ZdsKind kind = classifyZds(input).kind;
    if (input.isDirectory) {
        auto document = openFolderDocument(path, detection, "zds");
        if (kind == ZdsKind::NoCollectionsFolder) {
            Diagnostic diagnostic = makeError(
                "ZDS-NO-COLLECTIONS",
                "the dataset has no collections/ folder (its collections are under another name)",
                {});
            diagnostic.file = (path / "collections").string();
            setFixedValidator(*document, std::move(diagnostic));
        }
        return document;
    }
    auto document = openFileDocument(path, detection, "zds");
    if (kind == ZdsKind::ZdxIndex) {
        addMagicNode(*document, kZdxMagic.size(), "zds");
    } else if (kind == ZdsKind::NotAZip) {
        document->root->setStatus(Status::Error);
        setFixedValidator(*document,
                          makeError("ZDS-NOT-ZIP",
                                    "a .zds file must be a ZIP archive, and this one "
                                    "does not start with a ZIP header",
                                    Region{document->sources.front().get(), 0, 4}.clipped(),
                                    document->root->path()));
    }
    return document;
}

}  // namespace strata
