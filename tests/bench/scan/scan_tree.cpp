// Writes a tree of every format for the scan benchmarks (scan_local.sh): copies of a few
// generated inputs per format, about one in eight of each format damaged, spread over
// sub-folders, plus tiny text files no format recognises.
//   strata_scan_tree OUT_DIR [zs=N] [zt=N] [zds=N] [shardlake=N] [ozdf=N] [unknown=N] [seed=N]
// Prints the tree's folder (OUT_DIR/tree), then the entries a scan should find and how many of
// them are damaged.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <map>
#include <string>

#include "scan_test_support.h"

using namespace strata::scan;

namespace {

// "zs=300" → shape.zs = 300; false for anything else.
bool setCount(test::TreeShape& shape, std::uint64_t& seed, const std::string& arg) {
    const auto eq = arg.find('=');
    if (eq == std::string::npos) {
        return false;
    }
    const std::string key = arg.substr(0, eq);
    const std::size_t n = std::strtoull(arg.c_str() + eq + 1, nullptr, 10);
    const std::map<std::string, std::size_t*> counts{
        {"zs", &shape.zs},     {"zt", &shape.ztensor},
        {"zds", &shape.zds},   {"shardlake", &shape.shardlake},
        {"ozdf", &shape.ozdf}, {"unknown", &shape.unknown}};
    if (key == "seed") {
        seed = n;
        return true;
    }
    const auto found = counts.find(key);
    if (found == counts.end()) {
        return false;
    }
    *found->second = n;
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr,
                     "usage: %s OUT_DIR [zs=N] [zt=N] [zds=N] [shardlake=N] [ozdf=N] "
                     "[unknown=N] [seed=N]\n",
                     argv[0]);
        return 2;
    }
    test::TreeShape shape;
    std::uint64_t seed = 1;
    for (int i = 2; i < argc; ++i) {
        if (!setCount(shape, seed, argv[i])) {
            std::fprintf(stderr, "not a count: %s\n", argv[i]);
            return 2;
        }
    }
    try {
        const test::GeneratedTree tree = test::generateTree(argv[1], shape, seed);
        std::size_t damaged = 0;
        for (const auto& [path, expected] : tree.expected) {
            damaged += expected.verdict == Verdict::Damaged ? 1 : 0;
        }
        std::printf("%s\n%zu entries, %zu damaged\n", tree.root.c_str(), tree.expected.size(),
                    damaged);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 1;
    }
    return 0;
}
