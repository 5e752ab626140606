// The OZDF repair's output: the planned documents written to a stage, read back and validated,
// compared with the input, and published with the quarantined files.
#include <algorithm>
#include <memory>

#include "formats/common/diagnostic.h"
#include "ozdf_repair.h"
#include "ozdf_repair_internal.h"
#include "ozdf_save.h"
#include "ozdf_text.h"
#include "ozdf_validator.h"

namespace strata::ozdf {

namespace fs = std::filesystem;

namespace {

// Whether what was read back is what was planned (comments compared without trailing blank
// lines, which the writer adds where a header must follow).
bool sameContent(const std::vector<Element>& a, const std::vector<Element>& b) {
    const auto paragraphs = [](const std::vector<ozdf::Paragraph>& x,
                               const std::vector<ozdf::Paragraph>& y) {
        return std::equal(x.begin(), x.end(), y.begin(), y.end(),
                          [](const auto& p, const auto& q) { return p.text == q.text; });
    };
    const auto comment = [](std::string_view text) {
        const ozdf::Trimmed t = ozdf::trimSpaces(text);
        return text.substr(0, t.end);
    };
    return std::equal(
        a.begin(), a.end(), b.begin(), b.end(), [&](const Element& x, const Element& y) {
            if (x.kind != y.kind || x.name != y.name) {
                return false;
            }
            if (x.kind == ElementKind::Comment) {
                return comment(x.text) == comment(y.text);
            }
            return paragraphs(x.paragraphs, y.paragraphs) &&
                   std::equal(x.items.begin(), x.items.end(), y.items.begin(), y.items.end(),
                              [&](const Item& i, const Item& j) {
                                  return i.name == j.name && paragraphs(i.paragraphs, j.paragraphs);
                              });
        });
}

void validate(std::unique_ptr<Validator> validator, const RepairOptions& options) {
    requireValidOutput(*validator, options);
}

// Reads the written output back: it must validate and hold exactly what was planned. Returns
// what it read.
OzdfDiffSide checkOutput(InputKind kind, const fs::path& target,
                         const std::vector<Document>& planned, const RepairOptions& options) {
    std::vector<Document> read;
    OzdfDiffSide side;
    if (kind == InputKind::Corpus) {
        auto corpus = std::make_shared<ozdf::Corpus>(ozdf::readCorpus(target));
        throwIfCancelled(options);
        validate(ozdf::makeOzdfCorpusValidator(corpus), options);
        read = corpus->documents;
        side.corpus = corpus;
    } else {
        auto document = std::make_shared<Document>(ozdf::readDocument(target));
        throwIfCancelled(options);
        validate(ozdf::makeOzdfValidator(document), options);
        read.push_back(*document);
        side.document = document;
    }
    throwIfCancelled(options);
    const bool same = std::equal(planned.begin(), planned.end(), read.begin(), read.end(),
                                 [](const Document& a, const Document& b) {
                                     return a.filename == b.filename &&
                                            a.isDirectory == b.isDirectory &&
                                            sameContent(a.elements, b.elements);
                                 });
    if (!same) {
        throw RepairError("the repaired output does not read back as planned; nothing was written");
    }
    return side;
}

void copyQuarantined(const std::vector<Quarantined>& quarantine, const fs::path& folder) {
    fs::create_directory(folder);
    for (const Quarantined& q : quarantine) {
        const fs::path to = folder / q.relative;
        fs::create_directories(to.parent_path());
        if (fs::is_directory(q.source)) {
            // A part quarantined before its whole document is already there, with the same bytes.
            fs::copy(q.source, to, fs::copy_options::recursive | fs::copy_options::skip_existing);
        } else {
            fs::copy_file(q.source, to, fs::copy_options::skip_existing);
        }
    }
}

}  // namespace

OzdfDiffSide readAsOpened(InputKind kind, const fs::path& path) {
    if (kind == InputKind::Corpus) {
        return {nullptr, std::make_shared<const ozdf::Corpus>(ozdf::readCorpus(path)), nullptr};
    }
    return {std::make_shared<const Document>(ozdf::readDocument(path)), nullptr, nullptr};
}

OzdfDiffSide plannedSide(InputKind kind, const OzdfDiffSide& input,
                         const std::vector<Document>& planned) {
    if (kind != InputKind::Corpus) {
        return {std::make_shared<const Document>(planned.front()), nullptr, nullptr};
    }
    auto corpus = std::make_shared<ozdf::Corpus>();
    corpus->path = input.corpus->path;
    corpus->documents = planned;
    return {nullptr, std::move(corpus), nullptr};
}

void writeRepaired(InputKind kind, const fs::path& input,
                   const std::optional<OzdfDiffSide>& inputSide, std::vector<Document>& documents,
                   const std::vector<Quarantined>& quarantine, const fs::path& output,
                   const RepairOptions& options, RepairReport& report) {
    runInRepairStage(output, [&](const fs::path& stage) {
        const fs::path target = stage / output.filename();
        options.reportProgress(0.6, "writing");
        if (kind == InputKind::Corpus) {
            ozdf::Corpus corpus;
            corpus.documents = documents;
            ozdf::SaveOptions save;
            save.cancel = options.cancel;
            save.emptyItemNames = ozdf::EmptyItemNames::Kept;
            ozdf::saveCorpusToFolder(corpus, target, save);
        } else {
            // The stage is new: its files are synced once, not each part file on its own.
            ozdf::saveDocument(documents.front(), stage, ozdf::EmptyItemNames::Kept,
                               Durability::Deferred);
        }
        throwIfCancelled(options);
        options.reportProgress(0.8, "validating");
        if (options.beforeOutputCheck) {
            options.beforeOutputCheck(target);
        }
        const OzdfDiffSide written = checkOutput(kind, target, documents, options);
        if (inputSide) {
            listContentDifferences(*makeOzdfDiffer(*inputSide, written), report, options,
                                   {input.string()});
        }
        const fs::path quarantined = stage / (output.filename().string() + ".quarantine");
        if (!quarantine.empty()) {
            copyQuarantined(quarantine, quarantined);
        }
        publishRepairWithQuarantine(target, output, quarantined, ozdfQuarantinePath(output));
    });
    options.reportProgress(1.0, "done");
}

}  // namespace strata::ozdf
