#include "ozdf_validator.h"

#include <map>

namespace strata::ozdf {

namespace {

// Forwards diagnostics with the per-code limit of the options, then one summary per code.
class Forwarder {
public:
    Forwarder(DiagnosticSink& sink, const ValidationOptions& options)
        : sink_(sink), options_(options) {}

    void forward(const std::vector<Diagnostic>& diagnostics) {
        for (const Diagnostic& d : diagnostics) {
            std::size_t& count = counts_[d.code];
            if (++count <= options_.maxPerCode) {
                sink_.report(d);
            } else {
                worst_[d.code] = std::max(worst_[d.code], d.severity);
            }
        }
    }

    void summarise() {
        for (const auto& [code, count] : counts_) {
            if (count > options_.maxPerCode) {
                Diagnostic summary;
                summary.severity = worst_[code];
                summary.code = code;
                summary.message = std::to_string(count - options_.maxPerCode) + " more " + code +
                                  " diagnostics not listed";
                sink_.report(std::move(summary));
            }
        }
    }

private:
    DiagnosticSink& sink_;
    const ValidationOptions& options_;
    std::map<std::string, std::size_t> counts_;
    std::map<std::string, Severity> worst_;
};

class DocumentValidator final : public Validator {
public:
    explicit DocumentValidator(std::shared_ptr<const Document> document)
        : document_(std::move(document)) {}

    ValidationOutcome run(DiagnosticSink& sink, const ValidationOptions& options) override {
        if (options.cancelled()) {
            return ValidationOutcome::Cancelled;
        }
        Forwarder forwarder(sink, options);
        forwarder.forward(document_->diagnostics);
        forwarder.summarise();
        options.reportProgress(1.0, document_->filename);
        return ValidationOutcome::Completed;
    }

private:
    std::shared_ptr<const Document> document_;
};

class CorpusValidator final : public Validator {
public:
    explicit CorpusValidator(std::shared_ptr<const Corpus> corpus) : corpus_(std::move(corpus)) {}

    ValidationOutcome run(DiagnosticSink& sink, const ValidationOptions& options) override {
        Forwarder forwarder(sink, options);
        forwarder.forward(corpus_->diagnostics);
        const std::size_t total = corpus_->documents.size();
        for (std::size_t i = 0; i < total; ++i) {
            if (options.cancelled()) {
                return ValidationOutcome::Cancelled;
            }
            const Document& document = corpus_->documents[i];
            forwarder.forward(document.diagnostics);
            options.reportProgress(
                static_cast<double>(i + 1) / static_cast<double>(total),
                "document " + std::to_string(i + 1) + " of " + std::to_string(total));
        }
        forwarder.summarise();
        return ValidationOutcome::Completed;
    }

private:
    std::shared_ptr<const Corpus> corpus_;
};

}  // namespace

std::unique_ptr<Validator> makeOzdfValidator(std::shared_ptr<const Document> document) {
    return std::make_unique<DocumentValidator>(std::move(document));
}

std::unique_ptr<Validator> makeOzdfCorpusValidator(std::shared_ptr<const Corpus> corpus) {
    return std::make_unique<CorpusValidator>(std::move(corpus));
}

}  // namespace strata::ozdf
