#include "zds_format.h"

#include "formats/registry/file_document.h"
#include "formats/registry/fixed_diagnostic_validator.h"
#include "zds_probe.h"
#include "zds_reader.h"
#include "zds_tree.h"
#include "zds_validator.h"

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

std::unique_ptr<OpenedDocument> openDataset(const std::filesystem::path& path,
                                            const Detection& detection) {
    auto dataset = ZdsDataset::open(path);
    auto document = std::make_unique<OpenedDocument>();
    document->format = FormatId::Zds;
    document->path = path;
    if (dataset->archive()) {
        document->sources.push_back(dataset->archive()->archiveSource());
    }
    for (const auto& source : dataset->storage().openedSources()) {
        document->sources.push_back(source);
    }
    document->root = buildZdsTree(dataset);
    document->facts.emplace_back("format", "ZDS");
    document->facts.emplace_back("description", detection.description);
    document->facts.emplace_back("container", dataset->archive() ? "ZIP archive" : "folder");
    document->facts.emplace_back("collections", std::to_string(dataset->collections.size()));
    document->makeValidator = [path, dataset] { return makeZdsValidator(path, dataset); };
    // The Documents tab and the editor read this same dataset: one parse, one set of sources.
    document->formatState = dataset;
    return document;
}

}  // namespace

std::unique_ptr<OpenedDocument> ZdsFormat::open(const std::filesystem::path& path,
                                                const Detection& detection) const {
    const ProbeInput input = ProbeInput::fromPath(path);
    const ZdsKind kind = classifyZds(input).kind;
    if (input.isDirectory) {
        return openDataset(path, detection);
    }
    if (kind == ZdsKind::Archive) {
        try {
            return openDataset(path, detection);
        } catch (const SourceError&) {
            // A damaged archive: show the raw file; the validator says what is wrong.
            auto document = openFileDocument(path, detection, "zds");
            document->root->setStatus(Status::Error);
            ByteSourcePtr raw = document->sources.front();
            document->makeValidator = [path, raw] { return makeZdsValidator(path, nullptr, raw); };
            return document;
        }
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
