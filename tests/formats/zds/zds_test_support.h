// Shared helpers for the ZDS tests: corpus paths and running the validator.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <string>

#include "formats/common/diagnostic.h"
#include "formats/zds/zds_validator.h"

namespace strata::zds_test {

inline std::filesystem::path corpusDir() {
    if (const char* env = std::getenv("STRATA_CORPUS_DIR")) {
        return std::filesystem::path(env) / "zds";
    }
    return std::filesystem::path(STRATA_CORPUS_DIR) / "zds";
}

inline void validate(const std::filesystem::path& path, CollectingSink& sink) {
    ValidationOptions options;
    makeZdsValidator(path)->run(sink, options);
}

inline std::string describe(const CollectingSink& sink) {
    std::string out;
    for (const Diagnostic& d : sink.diagnostics()) {
        out += std::string(severityName(d.severity)) + " " + d.code + ": " + d.message + "\n";
    }
    return out;
}

}  // namespace strata::zds_test
