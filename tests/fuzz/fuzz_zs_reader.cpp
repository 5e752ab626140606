// Fuzzes the ZS reader: open from a buffer, validate, walk the lazy tree a bounded amount, run
// a prefix query and iterate records. Checks: no crash, no hang, no unbounded allocation (the
// per-block decode limit is lowered to 1 MiB), and every diagnostic region stays sane.
#include <cstdint>
#include <cstdlib>
#include <span>
#include <vector>

#include "formats/common/byte_source.h"
#include "formats/zs/zs_reader.h"
#include "formats/zs/zs_tree.h"
#include "formats/zs/zs_validator.h"

namespace {

void check(bool condition) {
    if (!condition) {
        std::abort();
    }
}

// Depth and fan-out bounds keep the walk finite even on an index that loops.
void walk(const strata::Node& node, int depth, int& budget) {
    if (depth > 6 || budget <= 0) {
        return;
    }
    const std::uint64_t count = node.childCount();
    for (std::uint64_t i = 0; i < count && i < 32 && budget > 0; ++i) {
        --budget;
        const strata::Node* child = node.child(i);
        check(child != nullptr);
        check(child->parent() == &node);
        walk(*child, depth + 1, budget);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    auto source = strata::makeBufferSource(std::vector<std::uint8_t>(data, data + size), "fuzz.zs");
    const auto file = strata::zs::ZsFile::open(source, strata::zs::ReadLimits{1u << 20});

    strata::CollectingSink sink;
    strata::ValidationOptions options;
    options.threads = 1;
    options.maxPerCode = 50;
    strata::zs::ZsValidator(file).run(sink, options);
    for (const auto& d : sink.diagnostics()) {
        check(!d.code.empty());
        for (const auto& r : d.regions) {
            check(r.source == nullptr || r.source == source.get());
        }
    }

    auto root = strata::zs::buildZsTree(file);
    int budget = 400;
    walk(*root, 0, budget);
    if (size > 0) {
        (void)root->deepestAt(size / 2);
    }

    try {
        std::size_t found = 0;
        file->search({std::nullopt, std::nullopt, std::string("a")},
                     [&](std::span<const std::uint8_t> record) {
                         check(record.size() <= size * 1024 + (1u << 20));
                         return ++found < 1000;
                     });
        strata::zs::ZsRecordIterator records(file);
        for (int i = 0; i < 1000 && records.next(); ++i) {
        }
    } catch (const strata::zs::ZsReadError&) {
        // Damage where the query reads is reported, not hidden.
    }
    return 0;
}
