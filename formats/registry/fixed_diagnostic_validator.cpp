#include "fixed_diagnostic_validator.h"

namespace strata {

namespace {

class FixedDiagnosticValidator final : public Validator {
public:
    explicit FixedDiagnosticValidator(std::vector<Diagnostic> diagnostics)
        : diagnostics_(std::move(diagnostics)) {}

    JobOutcome run(DiagnosticSink& sink, const ValidationOptions& options) override {
        for (const Diagnostic& diagnostic : diagnostics_) {
            if (options.cancelled()) {
                return JobOutcome::Cancelled;
            }
            sink.report(diagnostic);
        }
        options.reportProgress(1.0, "done");
        return JobOutcome::Completed;
    }

private:
    std::vector<Diagnostic> diagnostics_;
};

}  // namespace

std::unique_ptr<Validator> makeFixedDiagnosticValidator(std::vector<Diagnostic> diagnostics) {
    return std::make_unique<FixedDiagnosticValidator>(std::move(diagnostics));
}

Diagnostic makeError(std::string code, std::string message, Region region, std::string nodePath) {
    Diagnostic diagnostic;
    diagnostic.severity = Severity::Error;
    diagnostic.code = std::move(code);
    diagnostic.message = std::move(message);
    if (region.valid()) {
        diagnostic.regions.push_back(region);
        diagnostic.file = region.source->name();
    }
    diagnostic.nodePath = std::move(nodePath);
    return diagnostic;
}

}  // namespace strata
