// Diagnostics: what a validator found, with a stable code and the bytes it is about.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "region.h"

namespace strata {

enum class Severity : std::uint8_t { Info, Warning, Error };

std::string_view severityName(Severity severity);

struct Diagnostic {
    Severity severity = Severity::Error;
    // Stable identifier, FORMAT-RULE ("ZS-BLOCK-CRC"): listed in docs/formats.md and never
    // reused for another rule, so scripts and tests can rely on it.
    std::string code;
    std::string message;
    // The bytes at fault; the first is the primary one. May be empty (a missing file).
    std::vector<Region> regions;
    // Path of the structural node the fault belongs to ("header/codec"), when known.
    std::string nodePath;
    // The file the diagnostic is about when it has no region (a missing part file, say).
    std::string file;

    // The file named by the primary region, or `file`.
    std::string fileName() const;
};

// Receives diagnostics from a validator. report() may be called from several worker threads;
// it serialises them so implementations of accept() need no locking of their own.
class DiagnosticSink {
public:
    virtual ~DiagnosticSink() = default;
    void report(Diagnostic diagnostic);

protected:
    virtual void accept(Diagnostic diagnostic) = 0;

private:
    std::mutex mutex_;
};

// Keeps every diagnostic in arrival order (tests, the CLI).
class CollectingSink final : public DiagnosticSink {
public:
    const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }
    Severity worstSeverity() const;
    bool hasCode(std::string_view code) const;
    std::size_t countOf(Severity severity) const;

protected:
    void accept(Diagnostic diagnostic) override { diagnostics_.push_back(std::move(diagnostic)); }

private:
    std::vector<Diagnostic> diagnostics_;
};

// Forwards each diagnostic to a callback (streaming into a GUI model, printing as they come).
class CallbackSink final : public DiagnosticSink {
public:
    explicit CallbackSink(std::function<void(Diagnostic)> callback)
        : callback_(std::move(callback)) {}

protected:
    void accept(Diagnostic diagnostic) override { callback_(std::move(diagnostic)); }

private:
    std::function<void(Diagnostic)> callback_;
};

// Passes at most `maxPerCode` diagnostics of each code on to `target`; finish() then reports one
// summary per capped code ("N more CODE diagnostics not shown") at the worst severity it held
// back, so a file with a million bad records still gives a readable report. A format that
// documents its own code for that note passes it as `summaryCode`: the summaries are then Info
// diagnostics under that code.
class CappedSink final : public DiagnosticSink {
public:
    CappedSink(DiagnosticSink& target, std::size_t maxPerCode, std::string summaryCode = {})
        : target_(target), maxPerCode_(maxPerCode), summaryCode_(std::move(summaryCode)) {}
    void finish();
    // Counts `count` diagnostics of `code` that were capped before they got here (work done on
    // another thread keeps only the first maxPerCode of each code), as if they had been
    // reported and dropped. Call from the thread that reports.
    void countDropped(const std::string& code, std::size_t count, Severity worst);

protected:
    void accept(Diagnostic diagnostic) override;

private:
    struct Tally {
        std::size_t count = 0;
        Severity worstDropped = Severity::Info;
    };
    DiagnosticSink& target_;
    std::size_t maxPerCode_;
    std::string summaryCode_;
    std::map<std::string, Tally> tallies_;
};

}  // namespace strata
