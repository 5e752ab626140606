#include "diagnostic.h"

#include <algorithm>

namespace strata {

std::string_view severityName(Severity severity) {
    switch (severity) {
        case Severity::Info:
            return "info";
        case Severity::Warning:
            return "warning";
        case Severity::Error:
            return "error";
    }
    return "error";
}

std::string Diagnostic::fileName() const {
    if (!regions.empty() && regions.front().source != nullptr) {
        return regions.front().source->name();
    }
    return file;
}

void DiagnosticSink::report(Diagnostic diagnostic) {
    std::lock_guard lock(mutex_);
    accept(std::move(diagnostic));
}

Severity CollectingSink::worstSeverity() const {
    Severity worst = Severity::Info;
    for (const auto& d : diagnostics_) {
        worst = std::max(worst, d.severity);
    }
    return worst;
}

bool CollectingSink::hasCode(std::string_view code) const {
    return std::any_of(diagnostics_.begin(), diagnostics_.end(),
                       [&](const Diagnostic& d) { return d.code == code; });
}

std::size_t CollectingSink::countOf(Severity severity) const {
    return static_cast<std::size_t>(
        std::count_if(diagnostics_.begin(), diagnostics_.end(),
                      [&](const Diagnostic& d) { return d.severity == severity; }));
}

void CappedSink::accept(Diagnostic diagnostic) {
    Tally& tally = tallies_[diagnostic.code];
    if (maxPerCode_ == 0 || ++tally.count <= maxPerCode_) {
        target_.report(std::move(diagnostic));
        return;
    }
    tally.worstDropped = std::max(tally.worstDropped, diagnostic.severity);
}

void CappedSink::countDropped(const std::string& code, std::size_t count, Severity worst) {
    if (count == 0) {
        return;
    }
    Tally& tally = tallies_[code];
    tally.count += count;
    tally.worstDropped = std::max(tally.worstDropped, worst);
}

void CappedSink::finish() {
    for (const auto& [code, tally] : tallies_) {
        if (maxPerCode_ != 0 && tally.count > maxPerCode_) {
            Diagnostic summary;
            summary.severity = summaryCode_.empty() ? tally.worstDropped : Severity::Info;
            summary.code = summaryCode_.empty() ? code : summaryCode_;
            summary.message = std::to_string(tally.count - maxPerCode_) + " more " + code +
                              " diagnostics not shown";
            target_.report(std::move(summary));
        }
    }
}

}  // namespace strata
