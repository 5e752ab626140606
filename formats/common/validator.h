// The interface every format validator implements: stream diagnostics, report progress,
// stop promptly when cancelled.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>

#include "diagnostic.h"

namespace strata {

// Shared between the thread that asks for a stop and the workers that poll it.
class CancelToken {
public:
    void cancel() { cancelled_.store(true, std::memory_order_relaxed); }
    bool cancelled() const { return cancelled_.load(std::memory_order_relaxed); }

private:
    std::atomic<bool> cancelled_{false};
};

// fraction in [0, 1]; text says what is being done ("block 12 of 262").
using ProgressCallback = std::function<void(double fraction, const std::string& text)>;

struct ValidationOptions {
    const CancelToken* cancel = nullptr;
    ProgressCallback progress;
    // Worker threads for parallel checks; 0 = one per core.
    unsigned threads = 0;
    // After this many diagnostics with one code, the validator reports a summary and stops
    // repeating it, so a file with a million bad records still gives a readable report.
    std::size_t maxPerCode = 1000;

    bool cancelled() const { return cancel != nullptr && cancel->cancelled(); }
    void reportProgress(double fraction, const std::string& text) const {
        if (progress) {
            progress(fraction, text);
        }
    }
};

enum class ValidationOutcome { Completed, Cancelled };

class Validator {
public:
    virtual ~Validator() = default;
    virtual ValidationOutcome run(DiagnosticSink& sink, const ValidationOptions& options) = 0;
};

}  // namespace strata
