#include "zds_format.h"

#include "formats/registry/file_document.h"
#include "formats/registry/fixed_diagnostic_validator.h"
#include "zds_diff.h"
#include "zds_leftovers.h"
#include "zds_probe.h"
#include "zds_reader.h"
#include "zds_repair.h"
#include "zds_tree.h"
#include "zds_validator.h"

namespace strata {

std::optional<Detection> ZdsFormat::probe(const ProbeInput& input) const {
    return zds::probeZds(input);
}

namespace {

void setFixedValidator(OpenedDocument& document, Diagnostic diagnostic) {
    document.makeValidator = [diagnostic = std::move(diagnostic)] {
        return makeFixedDiagnosticValidator({diagnostic});
    };
}

// `tree` is null for a local path; for a URL it reads the dataset, and `opened` is the remote
// file the probe already opened (an archive).
std::unique_ptr<OpenedDocument> openDataset(const std::filesystem::path& path,
                                            const Detection& detection, const FileTreePtr& tree,
                                            const ByteSourcePtr& opened) {
    auto dataset = tree ? zds::ZdsDataset::open(tree, Location::parse(path.string()), false, opened)
                        : zds::ZdsDataset::open(path);
    auto document = std::make_unique<OpenedDocument>();
    document->format = kZdsFormat;
    document->path = path;
    if (dataset->archive()) {
        document->sources.push_back(dataset->archive()->archiveSource());
    }
    for (const auto& source : dataset->storage().openedSources()) {
        document->sources.push_back(source);
    }
    document->root = zds::buildZdsTree(dataset);
    document->facts.emplace_back("format", "ZDS");
    document->facts.emplace_back("description", detection.description);
    document->facts.emplace_back("container", dataset->archive() ? "ZIP archive" : "folder");
    document->facts.emplace_back("collections", std::to_string(dataset->collections.size()));
    document->makeValidator = [path, dataset, tree] {
        return zds::makeZdsValidator(path, dataset, nullptr, tree);
    };
    // The Documents tab and the editor read this same dataset: one parse, one set of sources.
    document->state = std::make_shared<const zds::ZdsState>(dataset);
    return document;
}

// The file itself as a document: mapped from disk, or the remote source already open.
std::unique_ptr<OpenedDocument> openRawFile(const ProbeInput& input, const Detection& detection) {
    return input.tree ? openFileDocument(input.source, detection, "zds")
                      : openFileDocument(input.path, detection, "zds");
}

}  // namespace

std::unique_ptr<OpenedDocument> ZdsFormat::open(const std::filesystem::path& path,
                                                const Detection& detection) const {
    return openTree(ProbeInput::fromPath(path), detection);
}

// Local paths and URLs alike: `input.tree` (null for local) reads every other file.
std::unique_ptr<OpenedDocument> ZdsFormat::openTree(const ProbeInput& input,
                                                    const Detection& detection) const {
    const std::filesystem::path& path = input.path;
    const FileTreePtr& tree = input.tree;
    const zds::ZdsKind kind = zds::classifyZds(input).kind;
    if (input.isDirectory) {
        return openDataset(path, detection, tree, nullptr);
    }
    if (kind == zds::ZdsKind::Archive) {
        try {
            return openDataset(path, detection, tree, input.source);
        } catch (const StoreError&) {
            throw;  // the server failing, not a damaged archive
        } catch (const SourceError&) {
            // A damaged archive: show the raw file; the validator says what is wrong.
            auto document = openRawFile(input, detection);
            document->root->setStatus(Status::Error);
            ByteSourcePtr raw = document->sources.front();
            document->makeValidator = [path, raw, tree] {
                return zds::makeZdsValidator(path, nullptr, raw, tree);
            };
            return document;
        }
    }
    auto document = openRawFile(input, detection);
    if (kind == zds::ZdsKind::ZdxIndex) {
        addMagicNode(*document, zds::kZdxMagic.size(), "zds");
    } else if (kind == zds::ZdsKind::NotAZip) {
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

std::unique_ptr<Differ> ZdsFormat::makeDiffer(const OpenedDocument& a,
                                              const OpenedDocument& b) const {
    auto da = zds::openedDataset(a);
    auto db = zds::openedDataset(b);
    if (!da || !db) {
        throw DiffError("a ZDS side could not be read as a dataset (see validate)");
    }
    return zds::makeZdsDiffer(da, db);
}

RepairReport ZdsFormat::repair(const std::filesystem::path& input,
                               const std::filesystem::path& output,
                               const RepairOptions& options) const {
    return zds::repairZdsDataset(input, output, options);
}

std::optional<std::filesystem::path> ZdsFormat::repairQuarantinePath(
    const std::filesystem::path& output) const {
    return zds::zdsQuarantinePath(output);
}

std::string ZdsFormat::repairChoiceText(RepairChoice choice) const {
    if (choice != RepairChoice::KeepSuperseded) {
        return {};
    }
    return "Keeping superseded lines keeps the older versions of documents and the deleted "
           "documents' lines in data.jsonl, without index entries, instead of dropping them.";
}

LeftoverScan ZdsFormat::leftoverScan() const {
    return zds::zdsLeftoverScan();
}

}  // namespace strata
