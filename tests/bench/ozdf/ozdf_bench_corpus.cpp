// Writes the benchmark corpus (ozdf_bench_corpus.h) to a new folder, for timing whole
// strata-cli processes on it: ozdf_bench_corpus FOLDER
#include <exception>
#include <iostream>

#include "formats/ozdf/ozdf_save.h"
#include "ozdf_bench_corpus.h"

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: ozdf_bench_corpus FOLDER\n";
        return 2;
    }
    try {
        const auto report = strata::ozdf::saveCorpusToFolder(strata::ozdf::benchCorpus(), argv[1]);
        std::cout << report.written.size() << " files written to " << argv[1] << '\n';
    } catch (const std::exception& e) {
        std::cerr << "ozdf_bench_corpus: " << e.what() << '\n';
        return 1;
    }
    return 0;
}
