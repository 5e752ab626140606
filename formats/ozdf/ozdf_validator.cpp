#include "ozdf_validator.h"

#include <map>

#include "formats/common/save_leftovers.h"
#include "ozdf_listed_corpus.h"

namespace strata::ozdf {

namespace {

// Temporary files of killed saves: beside a standalone document, in a directory document's
// folder, in a corpus folder and its directory documents.
void reportLeftovers(const std::filesystem::path& path, unsigned depth, DiagnosticSink& sink) {
    if (!path.empty()) {
        reportSaveLeftovers(path, "OZDF",
                            {static_cast<unsigned>(LeftoverKind::TempFile), depth, {}}, sink);
    }
}

void forward(const std::vector<Diagnostic>& diagnostics, CappedSink& sink) {
    for (const Diagnostic& d : diagnostics) {
        sink.report(d);
    }
}

class DocumentValidator final : public Validator {
public:
    explicit DocumentValidator(std::shared_ptr<const Document> document)
        : document_(std::move(document)) {}

    JobOutcome run(DiagnosticSink& sink, const ValidationOptions& options) override {
        if (options.cancelled()) {
            return JobOutcome::Cancelled;
        }
        CappedSink capped(sink, options.maxPerCode);
        forward(document_->diagnostics, capped);
        if (!document_->remote) {
            reportLeftovers(document_->path, 0, capped);
        }
        capped.finish();
        options.reportProgress(1.0, document_->filename);
        return JobOutcome::Completed;
    }

private:
    std::shared_ptr<const Document> document_;
};

class CorpusValidator final : public Validator {
public:
    explicit CorpusValidator(std::shared_ptr<const Corpus> corpus) : corpus_(std::move(corpus)) {}

    JobOutcome run(DiagnosticSink& sink, const ValidationOptions& options) override {
        CappedSink capped(sink, options.maxPerCode);
        forward(corpus_->diagnostics, capped);
        const std::size_t total = corpus_->documents.size();
        for (std::size_t i = 0; i < total; ++i) {
            if (options.cancelled()) {
                return JobOutcome::Cancelled;
            }
            const Document& document = corpus_->documents[i];
            forward(document.diagnostics, capped);
            options.reportProgress(
                static_cast<double>(i + 1) / static_cast<double>(total),
                "document " + std::to_string(i + 1) + " of " + std::to_string(total));
        }
        if (!corpus_->remote) {
            reportLeftovers(corpus_->path, 1, capped);
        }
        capped.finish();
        return JobOutcome::Completed;
    }

private:
    std::shared_ptr<const Corpus> corpus_;
};

// Validating is reading: a corpus listed at open is read here (or the read under way is waited
// for), then checked as one read at once.
class ListedCorpusValidator final : public Validator {
public:
    explicit ListedCorpusValidator(std::shared_ptr<const ListedCorpus> corpus)
        : corpus_(std::move(corpus)) {}

    JobOutcome run(DiagnosticSink& sink, const ValidationOptions& options) override {
        const std::size_t total = corpus_->size();
        std::shared_ptr<const Corpus> read = corpus_->corpus(options.cancel, [&](std::size_t n) {
            options.reportProgress(
                static_cast<double>(n) / static_cast<double>(total),
                "reading document " + std::to_string(n) + " of " + std::to_string(total));
        });
        if (!read) {
            return JobOutcome::Cancelled;
        }
        return CorpusValidator(read).run(sink, options);
    }

private:
    std::shared_ptr<const ListedCorpus> corpus_;
};

}  // namespace

std::unique_ptr<Validator> makeOzdfValidator(std::shared_ptr<const Document> document) {
    return std::make_unique<DocumentValidator>(std::move(document));
}

std::unique_ptr<Validator> makeOzdfCorpusValidator(std::shared_ptr<const Corpus> corpus) {
    return std::make_unique<CorpusValidator>(std::move(corpus));
}

}  // namespace strata::ozdf

namespace strata::ozdf {

std::unique_ptr<Validator> makeOzdfListedCorpusValidator(
    std::shared_ptr<const ListedCorpus> corpus) {
    return std::make_unique<ListedCorpusValidator>(std::move(corpus));
}

}  // namespace strata::ozdf
