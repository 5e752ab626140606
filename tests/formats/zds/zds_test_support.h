// Shared helpers for the ZDS tests: corpus paths and running the validator.
#pragma once

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "formats/common/diagnostic.h"
#include "formats/zds/zds_validator.h"
#include "scratch_dir.h"
#include "test_corpus.h"

namespace strata::zds_test {

inline std::filesystem::path corpusDir() {
    return strata::test::corpusRoot() / "zds";
}

// Validators own the sources their diagnostics point into: keep them for the whole test run.
inline void validate(const std::filesystem::path& path, CollectingSink& sink) {
    static std::vector<std::unique_ptr<Validator>> keep;
    ValidationOptions options;
    keep.push_back(zds::makeZdsValidator(path));
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

namespace strata::zds_test {

// A fresh folder per test, removed afterwards.
// A fresh folder per test, removed after it (tests/support/scratch_dir.h).
using ScratchDir = test::ScratchDir;

inline std::string readAll(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

inline void writeAll(const std::filesystem::path& path, const std::string& bytes) {
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << bytes;
}

inline std::size_t errorCount(const CollectingSink& sink) {
    std::size_t n = 0;
    for (const Diagnostic& d : sink.diagnostics()) {
        n += d.severity == Severity::Error ? 1 : 0;
    }
    return n;
}

}  // namespace strata::zds_test
