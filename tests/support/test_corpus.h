// Where the conformance corpus is, for every test suite (GoogleTest, QtTest, plain programs).
// Tests that read the corpus skip, naming STRATA_CORPUS_DIR, when it is missing, so a clone
// without the corpus beside it still builds and passes the rest of the suite.
#pragma once

#include <filesystem>
#include <string>

namespace strata::test {

// STRATA_CORPUS_DIR from the environment when set and not empty, else the folder configured
// with CMake (-DSTRATA_CORPUS_DIR=...). The folder may not exist.
std::filesystem::path corpusRoot();

// Whether corpusRoot() is a folder.
bool haveCorpus();

// Why a corpus test skips: names the folder looked at and STRATA_CORPUS_DIR.
std::string missingCorpusMessage();

}  // namespace strata::test

// First statement of a GoogleTest test (or of a fixture's SetUp) that reads the corpus.
#define STRATA_SKIP_WITHOUT_CORPUS()                                \
    do {                                                            \
        if (!::strata::test::haveCorpus()) {                        \
            GTEST_SKIP() << ::strata::test::missingCorpusMessage(); \
        }                                                           \
    } while (false)

// The same for a QtTest test function (or initTestCase, which then skips the whole class).
#define STRATA_QSKIP_WITHOUT_CORPUS()                              \
    do {                                                           \
        if (!::strata::test::haveCorpus()) {                       \
            QSKIP(::strata::test::missingCorpusMessage().c_str()); \
        }                                                          \
    } while (false)
