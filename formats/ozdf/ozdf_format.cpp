#include "ozdf_format.h"

#include <filesystem>

#include "formats/registry/directory_listing.h"
#include "ozdf_diff.h"
#include "ozdf_listed_corpus.h"
#include "ozdf_parser.h"
#include "ozdf_probe.h"
#include "ozdf_repair.h"
#include "ozdf_tree.h"
#include "ozdf_validator.h"

namespace strata {

namespace {

void addDocumentFacts(OpenedDocument& opened, const ozdf::Document& document) {
    std::size_t parts = 0;
    for (const ozdf::Element& element : document.elements) {
        if (element.kind == ozdf::ElementKind::ExternalList) {
            parts += element.items.size();
        }
    }
    opened.facts.emplace_back("kind", document.isDirectory ? "directory document" : "document");
    opened.facts.emplace_back("elements", std::to_string(document.elements.size()));
    if (document.isDirectory) {
        opened.facts.emplace_back("part files", std::to_string(parts));
    }
    opened.facts.emplace_back("readable by the reference", document.accepted() ? "yes" : "no");
}

std::unique_ptr<OpenedDocument> openDocument(ozdf::Document read) {
    auto document = std::make_shared<ozdf::Document>(std::move(read));
    const std::filesystem::path path = document->path;
    auto opened = std::make_unique<OpenedDocument>();
    opened->format = kOzdfFormat;
    opened->path = path;
    opened->sources = document->sources;
    opened->root = ozdf::buildDocumentNode(*document);
    addDocumentFacts(*opened, *document);
    opened->makeValidator = [document] { return ozdf::makeOzdfValidator(document); };
    opened->state =
        std::make_shared<const ozdf::OzdfState>(std::shared_ptr<const ozdf::Document>(document));
    return opened;
}

std::unique_ptr<OpenedDocument> openCorpus(ozdf::Corpus read) {
    auto corpus = std::make_shared<ozdf::Corpus>(std::move(read));
    const std::filesystem::path path = corpus->path;
    auto opened = std::make_unique<OpenedDocument>();
    opened->format = kOzdfFormat;
    opened->path = path;
    for (const ozdf::Document& document : corpus->documents) {
        opened->sources.insert(opened->sources.end(), document.sources.begin(),
                               document.sources.end());
    }
    opened->root = ozdf::buildCorpusNode(*corpus);
    opened->facts.emplace_back("kind", "corpus");
    // As for a local corpus: whether the reference reads it is validate's answer.
    opened->facts.emplace_back("documents", std::to_string(corpus->documents.size()));
    opened->makeValidator = [corpus] { return ozdf::makeOzdfCorpusValidator(corpus); };
    opened->state =
        std::make_shared<const ozdf::OzdfState>(std::shared_ptr<const ozdf::Corpus>(corpus));
    return opened;
}

// A local corpus: listed now, its documents read when shown or validated, so opening costs the
// same for 10 documents as for 100,000. "Readable by the reference" needs every document read:
// validate answers it.
std::unique_ptr<OpenedDocument> openListedCorpus(std::shared_ptr<const ozdf::ListedCorpus> corpus) {
    auto opened = std::make_unique<OpenedDocument>();
    opened->format = kOzdfFormat;
    opened->path = corpus->path();
    opened->root = ozdf::buildListedCorpusNode(corpus);
    opened->sourceOpenedLater = [corpus](const ByteSource* source) {
        return corpus->openedSource(source);
    };
    opened->facts.emplace_back("kind", "corpus");
    opened->facts.emplace_back("documents", std::to_string(corpus->size()));
    opened->makeValidator = [corpus] { return ozdf::makeOzdfListedCorpusValidator(corpus); };
    opened->state =
        std::make_shared<const ozdf::OzdfState>(std::shared_ptr<const ozdf::ListedCorpus>(corpus));
    return opened;
}

}  // namespace

std::optional<Detection> OzdfFormat::probe(const ProbeInput& input) const {
    return probeOzdf(input);
}

std::unique_ptr<OpenedDocument> OzdfFormat::open(const std::filesystem::path& path,
                                                 const Detection& detection) const {
    (void)detection;
    if (isDirectory(path)) {
        return ozdf::opensAsDocument(path) ? openDocument(ozdf::readDocument(path))
                                           : openListedCorpus(ozdf::ListedCorpus::list(path));
    }
    return openDocument(ozdf::readDocument(path));
}

std::unique_ptr<OpenedDocument> OzdfFormat::openTree(const ProbeInput& input,
                                                     const Detection& detection) const {
    if (!input.tree) {
        return open(input.path, detection);
    }
    const ozdf::TreeReader reader(input.tree);
    std::unique_ptr<OpenedDocument> opened;
    if (!input.isDirectory) {
        opened = openDocument(reader.readDocument(input.path, false, input.source));
    } else if (reader.opensAsDocument(input.path)) {
        opened = openDocument(reader.readDocument(input.path, true));
    } else {
        opened = openCorpus(reader.readCorpus(input.path));
    }
    opened->tree = input.tree;
    return opened;
}

std::unique_ptr<Differ> OzdfFormat::makeDiffer(const OpenedDocument& a,
                                               const OpenedDocument& b) const {
    const auto sideOf = [](const OpenedDocument& d) {
        return OzdfDiffSide{ozdf::openedAs<ozdf::Document>(d), ozdf::openedAs<ozdf::Corpus>(d),
                            ozdf::openedAs<ozdf::ListedCorpus>(d)};
    };
    const OzdfDiffSide sa = sideOf(a), sb = sideOf(b);
    const auto readable = [](const OzdfDiffSide& side) {
        return side.document || side.corpus || side.listed;
    };
    if (!readable(sa) || !readable(sb)) {
        throw DiffError("an OZDF side could not be read (see validate)");
    }
    return makeOzdfDiffer(sa, sb);
}

RepairReport OzdfFormat::repair(const std::filesystem::path& input,
                                const std::filesystem::path& output,
                                const RepairOptions& options) const {
    return repairOzdf(input, output, options);
}

std::optional<std::filesystem::path> OzdfFormat::repairQuarantinePath(
    const std::filesystem::path& output) const {
    return ozdfQuarantinePath(output);
}

LeftoverScan OzdfFormat::leftoverScan() const {
    // In a corpus folder and its directory documents.
    return LeftoverScan(static_cast<unsigned>(LeftoverKind::TempFile), 1);
}

}  // namespace strata
