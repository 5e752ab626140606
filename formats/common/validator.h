// The interface every format validator implements: stream diagnostics, report progress,
// stop promptly when cancelled.
#pragma once

#include <memory>
#include <string>

#include "diagnostic.h"
#include "job_control.h"

namespace strata {

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

class Validator {
public:
    virtual ~Validator() = default;
    virtual JobOutcome run(DiagnosticSink& sink, const ValidationOptions& options) = 0;
};

}  // namespace strata
