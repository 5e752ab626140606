// Shared helpers for the ZDS tests: corpus paths and running the validator.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "formats/common/diagnostic.h"
#include "formats/zds/zds_validator.h"

namespace strata::zds_test {

inline std::filesystem::path corpusDir() {
    if (const char* env = std::getenv("STRATA_CORPUS_DIR")) {
        return std::filesystem::path(env) / "zds";
    }
    return std::filesystem::path(STRATA_CORPUS_DIR) / "zds";
}

// Validators own the sources their diagnostics point into: keep them for the whole test run.
inline void validate(const std::filesystem::path& path, CollectingSink& sink) {
    static std::vector<std::unique_ptr<Validator>> keep;
    ValidationOptions options;
    keep.push_back(makeZdsValidator(path));
    keep.back()->run(sink, options);
}

inline std::string describe(const CollectingSink& sink) {
    std::string out;
    for (const Diagnostic& d : sink.diagnostics()) {
        out += std::string(severityName(d.severity)) + " " + d.code + ": " + d.message + "\n";
    }
    return out;
}

}  // namespace strata::zds_test
