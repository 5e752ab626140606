#include "test_corpus.h"

#include <cstdlib>
#include <system_error>

// The configured folder is compiled into this file only, so that every other test object is
// the same whatever the corpus path and a build configured without the corpus reuses them
// from ccache.
#ifndef STRATA_CONFIGURED_CORPUS_DIR
#error "STRATA_CONFIGURED_CORPUS_DIR must be defined by the build"
#endif

namespace strata::test {

std::filesystem::path corpusRoot() {
    if (const char* env = std::getenv("STRATA_CORPUS_DIR"); env != nullptr && *env != '\0') {
        return env;
    }
    return STRATA_CONFIGURED_CORPUS_DIR;
}

bool haveCorpus() {
    std::error_code ec;
    return std::filesystem::is_directory(corpusRoot(), ec);
}

std::string missingCorpusMessage() {
    return "needs the conformance corpus, not found at " + corpusRoot().string() +
           "; set STRATA_CORPUS_DIR (environment, or CMake -DSTRATA_CORPUS_DIR=...) to run it";
}

}  // namespace strata::test
